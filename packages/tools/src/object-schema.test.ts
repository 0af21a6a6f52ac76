// Issue 35, item 1: a generate_object schema is the caller's; its patterns must not be able to
// stall the process through a backtracking RegExp.
import { describe, expect, it } from 'vitest';
import { compileObjectSchema } from './object-schema.js';

describe('compileObjectSchema patterns', () => {
  it('refuses a schema whose pattern can backtrack without bound, before any validation runs', () => {
    const started = performance.now();
    expect(() => compileObjectSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } })).toThrow(/invalid schema: .*pattern "\^\(a\+\)\+\$" is refused/);
    expect(() => compileObjectSchema({ type: 'object', patternProperties: { '^(x|xx)*$': { type: 'string' } } })).toThrow(/refused/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('still validates safe patterns', () => {
    const schema = compileObjectSchema({ type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } }, required: ['id'] });
    expect(schema.validate({ id: 'abc' })).toEqual([]);
    expect(schema.validate({ id: 'ABC' })).toEqual([expect.stringContaining('/id')]);
  });
});
