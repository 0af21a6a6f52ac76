// Issue 35, item 1: a pattern from outside must not be able to stall the process through Ajv's
// backtracking RegExp. Unsafe patterns are refused at registration and at compile time.
import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool } from '../../test/kernel-kit.js';
import { CodeError } from '../errors/code-error.js';
import { argumentValidatorReady, validateArguments } from '../kernel/stages/validate-arguments.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { safeRegExp, unsafePatternReason, unsafeSchemaPatterns } from './safe-pattern.js';

const EVIL = '^(a+)+$';
const evilSchema = (pattern = EVIL): JsonSchema => ({ type: 'object', properties: { text: { type: 'string', pattern } }, required: ['text'] }) as JsonSchema;

describe('unsafePatternReason', () => {
  it.each([
    '^(a+)+$',
    '(a*)*',
    '^(a|aa)+$',
    '(?:a|b)*c',
    '((ab)*c)+',
    '^([a-z0-9]+(-[a-z0-9]+)*)$',
    '(a?){2,}',
    '(\\w+\\s?)*$',
    '^(a{1,3}){5,}$',
    '(.*a){12}',
    '(a)\\1',
    '(?<x>a)\\k<x>',
    `${'a'.repeat(1100)}`,
  ])('refuses %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toEqual(expect.any(String));
  });

  it.each([
    '^[a-z0-9_-]+$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(https?|ftp)://\\S+$',
    '(foo)?bar*',
    '^[A-Z][A-Z0-9_]*$',
    '^#[0-9a-fA-F]{6}$',
    '^(ab){3}$',
    '[(a+)+]*',
    '^\\p{L}+$',
    '^\\u{1F600}{2,}$',
    '(?<name>[a-z]+)-(?:x|y)$',
    '(?=a+)b',
    'a{2}(b){1}',
  ])('accepts %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toBeNull();
  });
});

describe('unsafeSchemaPatterns', () => {
  it('finds patterns at any depth, in patternProperties keys, and not in data or property names', () => {
    const schema = {
      type: 'object',
      properties: {
        pattern: { type: 'string', pattern: '(x+)+y' },
        list: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^ok$' }, { type: 'string', pattern: '(a|b)*' }] } },
        plain: { type: 'string', enum: ['(a+)+'], default: '(a+)+', const: { pattern: '(a+)+' } },
      },
      patternProperties: { '^(k+)+$': { type: 'string' }, '^fine$': { type: 'string' } },
      $defs: { pattern: { type: 'string' } },
    };
    expect(unsafeSchemaPatterns(schema).map((entry) => entry.path)).toEqual([
      '/properties/pattern/pattern',
      '/properties/list/items/anyOf/1/pattern',
      '/patternProperties/^(k+)+$',
    ]);
  });

  it('is empty for a schema without unsafe patterns', () => {
    expect(unsafeSchemaPatterns({ type: 'object', properties: { id: { type: 'string', pattern: '^[0-9a-f]{40}$' } } })).toEqual([]);
  });
});

describe('schemas from outside never run a backtracking pattern', () => {
  it('refuses to register a tool whose schema has a nested quantifier, with a typed error', () => {
    const registry = new ToolRegistry();
    let error: unknown;
    try {
      registry.register(recordingTool('evil', undefined, { parameters: evilSchema() }));
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CONFIG_ERROR', details: { tool: 'evil', reason: 'unsafe_pattern', patterns: [{ pattern: EVIL, path: '/properties/text/pattern' }] } });
    expect((error as Error).message).toContain("tool 'evil' cannot be registered: pattern \"^(a+)+$\"");
    expect(registry.has('evil')).toBe(false);
  });

  it('the kernel compiles a schema it meets at call time with the safe engine: a host timer fires on time', async () => {
    // A tool that reached the kernel without the registry's check (its schema changed after
    // registration): compiling it fails with the reason instead of leaving a validator that stalls.
    const tool = recordingTool('late', undefined, { parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as JsonSchema });
    const { kernel } = makeKernel([tool]);
    (tool as { parameters: JsonSchema }).parameters = evilSchema();
    await argumentValidatorReady(tool);
    const timerDue = performance.now() + 20;
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), 20));
    const started = performance.now();
    const result = await kernel.invoke({ toolName: 'late', args: { text: `${'a'.repeat(40)}!` }, origin: 'host-direct' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.exitCode).toBe(1);
    expect(result.errorKind).toMatchObject({ type: 'unsupported' });
    expect(result.output).toContain('invalid parameter schema');
    expect(result.output).toContain('refused');
    expect(tool.calls).toEqual([]);
    expect((await timer) - timerDue).toBeLessThan(500);
  });

  it('validateArguments refuses the schema for a 40-character input without running the pattern', async () => {
    const tool = recordingTool('direct', undefined, { parameters: evilSchema('^(\\w+\\s?)*$') });
    await argumentValidatorReady(tool);
    const started = performance.now();
    const stop = validateArguments(tool, { text: `${'word '.repeat(8)}!` });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(stop?.output.errorKind).toMatchObject({ type: 'unsupported' });
  });

  it('safe patterns still validate', async () => {
    const tool = recordingTool('fine', undefined, { parameters: evilSchema('^[a-z]+$') });
    await argumentValidatorReady(tool);
    expect(validateArguments(tool, { text: 'abc' })).toBeUndefined();
    expect(validateArguments(tool, { text: 'ABC' })?.output.errorKind).toMatchObject({ type: 'invalid_argument' });
  });

  it('safeRegExp builds safe patterns and throws on unsafe ones', () => {
    expect(safeRegExp('^a+$', 'u').test('aaa')).toBe(true);
    expect(() => safeRegExp(EVIL, 'u')).toThrow(/refused/);
  });
});
