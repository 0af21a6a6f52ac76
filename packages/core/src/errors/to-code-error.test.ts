import { describe, expect, it } from 'vitest';
import { CodeError } from './code-error.js';
import { toCodeError } from './to-code-error.js';

describe('toCodeError', () => {
  it('returns a CodeError unchanged, also one from a second copy', () => {
    const own = new CodeError('SESSION_BUSY', 'busy');
    expect(toCodeError(own)).toBe(own);
    const foreign = Object.assign(new Error('foreign'), { [Symbol.for('a3s-lab.code.error')]: true, code: 'SESSION_CLOSED', details: {} });
    expect(toCodeError(foreign, 'TOOL_ERROR')).toBe(foreign);
  });

  it('wraps an Error with the fallback code and keeps it as cause', () => {
    const error = new TypeError('bad type');
    const wrapped = toCodeError(error);
    expect(wrapped.code).toBe('INTERNAL_ERROR');
    expect(wrapped.message).toBe('bad type');
    expect(wrapped.cause).toBe(error);
    expect(wrapped.details).toEqual({});
    expect(toCodeError(error, 'TOOL_ERROR').code).toBe('TOOL_ERROR');
  });

  it('uses the error name when the message is empty', () => {
    expect(toCodeError(new RangeError('')).message).toBe('RangeError');
  });

  it('maps an AbortError to SESSION_ERROR with details.cancelled, whatever the fallback', () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const wrapped = toCodeError(abort, 'TOOL_ERROR');
    // DOMException is an Error in Node 20; make the branch explicit either way.
    expect(abort instanceof Error).toBe(true);
    expect(wrapped.code).toBe('SESSION_ERROR');
    expect(wrapped.details).toEqual({ cancelled: true });
    expect(wrapped.cause).toBe(abort);
    expect(wrapped.message).toBe('The operation was aborted.');
    const plain = Object.assign(new Error(''), { name: 'AbortError' });
    expect(toCodeError(plain).message).toBe('operation cancelled');
  });

  it('maps an aborted signal reason', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toCodeError(controller.signal.reason).details).toEqual({ cancelled: true });
  });

  it('wraps a thrown string as the message', () => {
    const wrapped = toCodeError('plain text', 'LLM_ERROR');
    expect(wrapped.code).toBe('LLM_ERROR');
    expect(wrapped.message).toBe('plain text');
    expect(wrapped.cause).toBe('plain text');
  });

  it('serialises a thrown object into the message', () => {
    const value = { reason: 'nope', n: 1 };
    const wrapped = toCodeError(value);
    expect(wrapped.message).toBe('non-error value thrown: {"reason":"nope","n":1}');
    expect(wrapped.cause).toBe(value);
  });

  it('survives a circular object', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular['self'] = circular;
    const wrapped = toCodeError(circular);
    expect(wrapped.code).toBe('INTERNAL_ERROR');
    expect(wrapped.message).toBe('non-error value thrown: [object Object]');
    expect(wrapped.cause).toBe(circular);
  });

  it('survives values JSON cannot represent', () => {
    expect(toCodeError(undefined).message).toBe('non-error value thrown: undefined');
    expect(toCodeError(null).message).toBe('non-error value thrown: null');
    expect(toCodeError(42).message).toBe('non-error value thrown: 42');
    expect(toCodeError(Symbol('s')).message).toBe('non-error value thrown: Symbol(s)');
    expect(toCodeError(() => 1).message).toMatch(/^non-error value thrown: \(\) => 1/);
    expect(toCodeError(10n).message).toBe('non-error value thrown: 10');
  });
});
