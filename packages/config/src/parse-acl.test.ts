import { CodeError } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import type { AclBody, AclValue } from './acl-document.js';
import { MAX_ACL_NESTING_DEPTH, parseAcl } from './parse-acl.js';

const value = (text: string, env: Record<string, string> = {}): AclValue => {
  const attribute = parseAcl(`v = ${text}`, { env }).body.attributes[0];
  if (attribute === undefined) throw new Error('no attribute');
  return attribute.value;
};

const attributes = (body: AclBody): Record<string, AclValue> => Object.fromEntries(body.attributes.map((a) => [a.name, a.value]));

/** Parses `text` expecting a CONFIG_ERROR and returns it. */
const failure = (text: string, file?: string): CodeError => {
  try {
    parseAcl(text, { env: {}, ...(file === undefined ? {} : { file }) });
  } catch (error) {
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    return error as CodeError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
};

describe('parseAcl values', () => {
  it('parses strings with every escape', () => {
    expect(value(String.raw`"a\nb\tc\r\"q\" \\ \/ \u00e9 \U0001F600"`)).toBe('a\nb\tc\r"q" \\ / é 😀');
    expect(value('""')).toBe('');
    expect(value('"# not a comment // nor this"')).toBe('# not a comment // nor this');
  });

  it('parses numbers: int, float, negative, exponent', () => {
    expect(value('42')).toBe(42);
    expect(value('-7')).toBe(-7);
    expect(value('3.25')).toBe(3.25);
    expect(value('-0.5')).toBe(-0.5);
    expect(value('1e3')).toBe(1000);
    expect(value('2.5E-2')).toBe(0.025);
    expect(value('1e+2')).toBe(100);
  });

  it('parses booleans and null', () => {
    expect(value('true')).toBe(true);
    expect(value('false')).toBe(false);
    expect(value('null')).toBeNull();
  });

  it('parses lists with trailing commas across lines', () => {
    expect(value('[]')).toEqual([]);
    expect(value('[1, "two", true, null, [3], { a = 1 },]')).toEqual([1, 'two', true, null, [3], { a: 1 }]);
    expect(value('[\n  "a",\n  # comment\n  "b",\n]')).toEqual(['a', 'b']);
  });

  it('parses objects with =, :, commas, newlines or plain whitespace between entries', () => {
    expect(value('{}')).toEqual({});
    expect(value('{ a = 1, b: "x", "quoted key" = true }')).toEqual({ a: 1, b: 'x', 'quoted key': true });
    expect(value('{\n  a = 1\n  b = { c = [1, 2] }\n}')).toEqual({ a: 1, b: { c: [1, 2] } });
    expect(value('{ context = 200000  output = 8192 }')).toEqual({ context: 200000, output: 8192 });
  });

  it('keeps __proto__ as an own key without touching prototypes', () => {
    const object = value('{ __proto__ = { polluted = true } }') as Record<string, unknown>;
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.hasOwn(object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('parses heredocs, plain and indented', () => {
    const plain = parseAcl('a = <<EOT\nline 1\n  line 2 \\n\nEOT\nb = 1').body;
    expect(attributes(plain)).toEqual({ a: 'line 1\n  line 2 \\n\n', b: 1 });
    const indented = parseAcl('a = <<-EOT\n    x\n      y\n\n    z\n    EOT\n').body;
    expect(attributes(indented)).toEqual({ a: 'x\n  y\n\nz\n' });
    expect(attributes(parseAcl('a = <<EOT\nEOT').body)).toEqual({ a: '' });
    expect(attributes(parseAcl('a = <<-EOT\n   \n  EOT\n').body)).toEqual({ a: '\n' });
  });

  it('skips #, // and /* */ comments and accepts CRLF and a BOM', () => {
    const doc = parseAcl('\uFEFF# one\r\na = 1 // two\r\n/* three\n four */ b = /* inline */ 2\n');
    expect(attributes(doc.body)).toEqual({ a: 1, b: 2 });
    expect(doc.body.attributes[1]).toMatchObject({ line: 4, column: 10 });
  });
});

describe('parseAcl env()', () => {
  it('reads the injected env map', () => {
    expect(value('env("KEY")', { KEY: 'secret' })).toBe('secret');
  });

  it('uses the default when the variable is missing', () => {
    expect(value('env("KEY", "fallback")')).toBe('fallback');
    expect(value('env("KEY", 5)', { KEY: 'set' })).toBe('set');
  });

  it('turns a missing variable into null with a warning naming it and its position', () => {
    const doc = parseAcl('x = 1\nkey = env("MISSING")', { env: {}, file: 'agent.acl' });
    expect(attributes(doc.body)).toEqual({ x: 1, key: null });
    expect(doc.warnings).toEqual([{ kind: 'missing_env', name: 'MISSING', message: expect.stringContaining('MISSING') as unknown, line: 2, column: 7, file: 'agent.acl' }]);
    expect(doc.file).toBe('agent.acl');
  });

  it('falls back to process.env when no env map is given', () => {
    const name = 'A3S_CONFIG_TEST_VARIABLE';
    process.env[name] = 'from-process';
    try {
      expect(parseAcl(`v = env("${name}")`).body.attributes[0]?.value).toBe('from-process');
    } finally {
      delete process.env[name];
    }
  });
});

describe('parseAcl structure', () => {
  it('parses blocks with zero, one and several labels, nested', () => {
    const doc = parseAcl('a { b "x" "y" { c = 1 } d {} }\ne "z" {}');
    expect(doc.body.blocks.map((b) => [b.type, b.labels])).toEqual([
      ['a', []],
      ['e', ['z']],
    ]);
    const inner = doc.body.blocks[0]?.body.blocks ?? [];
    expect(inner.map((b) => [b.type, b.labels])).toEqual([
      ['b', ['x', 'y']],
      ['d', []],
    ]);
    expect(attributes(inner[0]?.body ?? { attributes: [], blocks: [] })).toEqual({ c: 1 });
  });

  it('accepts identifier labels and attributes separated only by spaces', () => {
    const doc = parseAcl('engine google { enabled = true  weight = 1.5 }');
    expect(doc.body.blocks[0]).toMatchObject({ type: 'engine', labels: ['google'], line: 1, column: 1 });
    expect(attributes(doc.body.blocks[0]?.body ?? { attributes: [], blocks: [] })).toEqual({ enabled: true, weight: 1.5 });
  });

  it('parses an empty document', () => {
    expect(parseAcl('  # only a comment\n')).toEqual({ body: { attributes: [], blocks: [] }, warnings: [] });
  });
});

describe('parseAcl syntax errors name line and column', () => {
  const cases: readonly (readonly [string, string, number, number, RegExp])[] = [
    ['unterminated string', 'a = 1\nb = "abc', 2, 5, /unterminated string/],
    ['newline inside a string', 'a = "ab\nc"', 1, 5, /unterminated string/],
    ['invalid escape', 'a = "x\\qy"', 1, 7, /invalid escape sequence \\q/],
    ['short unicode escape', 'a = "\\u12G4"', 1, 6, /invalid unicode escape/],
    ['out-of-range unicode escape', 'a = "\\UFFFFFFFF"', 1, 6, /invalid unicode escape/],
    ['unterminated block comment', 'a = 1\n  /* never closed', 2, 3, /unterminated block comment/],
    ['unexpected character', 'a = 1\nb = @', 2, 5, /unexpected character "@"/],
    ['number with a trailing dot', 'a = 1.', 1, 5, /invalid number "1\."/],
    ['number with an empty exponent', 'a = 1e', 1, 5, /invalid number "1e"/],
    ['number glued to letters', 'a = 12ab', 1, 5, /invalid number "12ab"/],
    ['missing = after a name', 'a 1', 1, 3, /expected '=' or '\{' after 'a', found number 1/],
    ['label without a block', 'a "x" = 1', 1, 7, /expected '\{' to open block 'a'/],
    ['missing value', 'a =\n}', 2, 1, /expected a value, found '\}'/],
    ['value missing at end', 'a = ', 1, 5, /expected a value, found end of input/],
    ['bare word as value', 'a = hello', 1, 5, /unknown value 'hello'.*"hello"/],
    ['unclosed block', 'p "x" {\n  a = 1\n', 3, 1, /missing '\}' to close the block opened at line 1, column 7/],
    ['stray closing brace', 'a = 1\n}', 2, 1, /unexpected '\}' with no open block/],
    ['unclosed list', 'a = [1, 2', 1, 10, /missing '\]' to close the list opened at line 1, column 5/],
    ['unclosed empty list', 'a = [', 1, 6, /missing '\]'/],
    ['missing comma in a list', 'a = [1 2]', 1, 8, /expected ',' or '\]' in list, found number 2/],
    ['unclosed object', 'a = { b = 1', 1, 12, /missing '\}' to close the object opened at line 1, column 5/],
    ['bad object key', 'a = { 1 = 2 }', 1, 7, /expected an object key, found number 1/],
    ['missing = in an object', 'a = { b 2 }', 1, 9, /expected '=' or ':' after key 'b'/],
    ['duplicate object key', 'a = { b = 1\n c = 2 b = 3 }', 2, 8, /key 'b' is already defined at line 1, column 7/],
    ['duplicate attribute', 'a = 1\nx { }\na = 2', 3, 1, /attribute 'a' is already defined at line 1, column 1/],
    ['attribute reusing a block name', 'x {}\nx = 1', 2, 1, /'x' is already used as a block name/],
    ['block reusing an attribute name', 'x = 1\nx {}', 2, 1, /'x' is already used as an attribute name/],
    ['top-level value without a name', '"a" = 1', 1, 1, /expected an attribute or block name, found string "a"/],
    ['unknown function', 'a = upper("x")', 1, 5, /unknown function 'upper'/],
    ['env without arguments', 'a = env()', 1, 5, /env\(\) takes a variable name/],
    ['env with a non-string name', 'a = env(1)', 1, 5, /env\(\) takes a variable name/],
    ['env with too many arguments', 'a = env("A", "b", "c")', 1, 5, /env\(\) takes a variable name/],
    ['unclosed call', 'a = env("A"', 1, 12, /missing '\)' to close the call to 'env'/],
    ['missing comma in a call', 'a = env("A" "b")', 1, 13, /expected ',' or '\)' in call to 'env'/],
    ['heredoc without a marker', 'a = <<\nx\n', 1, 5, /invalid heredoc/],
    ['unterminated heredoc', 'a = <<EOT\nline\n', 1, 5, /unterminated heredoc: no closing line 'EOT'/],
    ['unterminated heredoc at end of input', 'a = <<EOT\nline', 1, 5, /unterminated heredoc/],
  ];

  it.each(cases)('%s', (_name, text, line, column, message) => {
    const error = failure(text);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`line ${line}, column ${column}: `)).toBe(true);
    expect(error.details).toEqual({ line, column });
  });

  it('prefixes the file name when one is given', () => {
    const error = failure('a = 1\n  b = "x', 'conf/agent.acl');
    expect(error.message).toMatch(/^conf\/agent\.acl:2:7: unterminated string/);
    expect(error.details).toEqual({ line: 2, column: 7, file: 'conf/agent.acl' });
  });

  it('counts columns after heredocs and multi-line comments correctly', () => {
    expect(failure('a = <<EOT\nx\nEOT\n  b = ?').details).toEqual({ line: 4, column: 7 });
    expect(failure('/*\n\n*/ a = ?').details).toEqual({ line: 3, column: 8 });
  });

  it('refuses nesting deeper than the limit instead of overflowing the stack', () => {
    const deep = `a = ${'['.repeat(MAX_ACL_NESTING_DEPTH + 5)}`;
    expect(failure(deep).message).toMatch(/nesting deeper than/);
    const blocks = `${'b { '.repeat(MAX_ACL_NESTING_DEPTH + 1)}${'} '.repeat(MAX_ACL_NESTING_DEPTH + 1)}`;
    expect(failure(blocks).message).toMatch(/nesting deeper than/);
    expect(() => parseAcl(`a = ${'['.repeat(MAX_ACL_NESTING_DEPTH - 1)}${']'.repeat(MAX_ACL_NESTING_DEPTH - 1)}`)).not.toThrow();
  });
});
