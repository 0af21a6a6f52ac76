import { describe, expect, it } from 'vitest';
import { parseToolCallInput } from './parse-tool-call-input.js';

describe('parseToolCallInput', () => {
  it('empty text is an empty object; objects parse; anything else is invalid input kept verbatim', () => {
    expect(parseToolCallInput('')).toEqual({ input: {} });
    expect(parseToolCallInput('  ')).toEqual({ input: {} });
    expect(parseToolCallInput('{"a":1}')).toEqual({ input: { a: 1 } });
    expect(parseToolCallInput('[1]')).toEqual({ input: undefined, invalidInput: '[1]' });
    expect(parseToolCallInput('"x"')).toEqual({ input: undefined, invalidInput: '"x"' });
    expect(parseToolCallInput('null')).toEqual({ input: undefined, invalidInput: 'null' });
    expect(parseToolCallInput('{"a":')).toEqual({ input: undefined, invalidInput: '{"a":' });
  });
});
