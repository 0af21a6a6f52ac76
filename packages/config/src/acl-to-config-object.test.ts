import { CodeError } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { aclToConfigObject, camelCaseKey } from './acl-to-config-object.js';
import { parseAcl } from './parse-acl.js';

const convert = (text: string) => aclToConfigObject(parseAcl(text, { env: {} }).body);
const failure = (text: string): CodeError => {
  try {
    convert(text);
  } catch (error) {
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    return error as CodeError;
  }
  throw new Error('expected a CONFIG_ERROR');
};

describe('camelCaseKey', () => {
  it.each([
    ['api_key', 'apiKey'],
    ['max_tool_rounds', 'maxToolRounds'],
    ['http_2_enabled', 'http2Enabled'],
    ['apiKey', 'apiKey'],
    ['name', 'name'],
    ['GITHUB_TOKEN', 'GITHUB_TOKEN'],
    ['_private', '_private'],
    ['trailing_', 'trailing_'],
    ['kebab-case', 'kebab-case'],
  ])('%s -> %s', (input, output) => {
    expect(camelCaseKey(input)).toBe(output);
  });
});

describe('aclToConfigObject', () => {
  it('turns providers/models blocks into lists and other blocks into objects or label maps', () => {
    const { value } = convert('providers "p" { models "m" { tool_call = true } }\nqueue { max_retries = 1 }\nengine "a" "b" { weight = 1 }\nengine "c" {}');
    expect(value).toEqual({
      providers: [{ name: 'p', models: [{ id: 'm', toolCall: true }] }],
      queue: { maxRetries: 1 },
      engine: { a: { b: { weight: 1 } }, c: {} },
    });
  });

  it('records the source position of every attribute and block as a JSON pointer', () => {
    const { positions } = convert('a = 1\nproviders "p" {\n  api_key = "k"\n  models "m" {}\n}');
    expect(positions.get('/a')).toEqual({ line: 1, column: 1 });
    expect(positions.get('/providers/0')).toMatchObject({ line: 2, column: 1 });
    expect(positions.get('/providers/0/apiKey')).toEqual({ line: 3, column: 3 });
    expect(positions.get('/providers/0/models/0')).toMatchObject({ line: 4, column: 3 });
  });

  it('rejects a repeated unlabeled block, mixed label forms and a repeated label path', () => {
    expect(failure('queue {}\nqueue {}').message).toMatch(/line 2, column 1: block 'queue' is already defined at line 1/);
    expect(failure('engine "a" {}\nengine {}').message).toMatch(/line 2, column 1: block 'engine' mixes labeled and unlabeled forms/);
    expect(failure('engine "a" "b" {}\nengine "a" "b" {}').message).toMatch(/line 2, column 1: engine "a" "b" is already defined/);
  });

  it('rejects an attribute and a block that normalise to the same key', () => {
    expect(failure('retry_policy = {}\nretryPolicy {}').message).toMatch(/'retryPolicy' and 'retry_policy' \(line 1\) both set 'retryPolicy'/);
  });

  it('keeps label-map keys as own properties, never prototypes', () => {
    const { value } = convert('engine "__proto__" { polluted = true }');
    const engine = value['engine'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(engine)).toBe(Object.prototype);
    expect(Object.hasOwn(engine, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
