import { describe, expect, it } from 'vitest';
import { CodeError } from './code-error.js';

/** What a CodeError from a second copy of core looks like: same marker, different class. */
const foreignError = (code: string): Error => Object.assign(new Error('from another copy'), { [Symbol.for('a3s-lab.code.error')]: true, code, details: {} });

describe('CodeError', () => {
  it('carries code, message, details, name and is an Error', () => {
    const error = new CodeError('TOOL_ERROR', 'boom', { details: { tool: 'bash' } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CodeError');
    expect(error.code).toBe('TOOL_ERROR');
    expect(error.message).toBe('boom');
    expect(error.details).toEqual({ tool: 'bash' });
    expect(error.stack).toContain('boom');
  });

  it('defaults details to an empty object and leaves cause unset', () => {
    const error = new CodeError('INTERNAL_ERROR', 'x');
    expect(error.details).toEqual({});
    expect('cause' in error).toBe(false);
  });

  it('keeps a cause, including falsy ones', () => {
    const root = new Error('root');
    expect(new CodeError('IO_ERROR', 'wrapped', { cause: root }).cause).toBe(root);
    const zero = new CodeError('IO_ERROR', 'zero', { cause: 0 });
    expect('cause' in zero).toBe(true);
    expect(zero.cause).toBe(0);
    expect(new CodeError('IO_ERROR', 'null', { cause: null }).cause).toBeNull();
  });

  describe('isInstance', () => {
    it('recognises its own instances and subclasses', () => {
      class SubError extends CodeError {}
      expect(CodeError.isInstance(new CodeError('CONFIG_ERROR', 'x'))).toBe(true);
      expect(CodeError.isInstance(new SubError('CONFIG_ERROR', 'x'))).toBe(true);
    });

    it('recognises a CodeError made by a second copy of the package (the Symbol.for marker)', () => {
      const foreign = foreignError('SESSION_BUSY');
      expect(foreign instanceof CodeError).toBe(false);
      expect(CodeError.isInstance(foreign)).toBe(true);
      expect(CodeError.isInstance({ [Symbol.for('a3s-lab.code.error')]: true })).toBe(true);
    });

    it.each([
      ['a plain Error', new Error('x')],
      ['null', null],
      ['undefined', undefined],
      ['a string', 'CONFIG_ERROR'],
      ['a number', 42],
      ['an object with a code only', { code: 'CONFIG_ERROR', message: 'x' }],
      ['a marker that is not exactly true', { [Symbol.for('a3s-lab.code.error')]: 'yes' }],
      ['a marker under a different symbol', { [Symbol('a3s-lab.code.error')]: true }],
    ])('rejects %s', (_label, value) => {
      expect(CodeError.isInstance(value)).toBe(false);
    });
  });

  describe('hasCode', () => {
    it('is true only for a CodeError with that code', () => {
      const error = new CodeError('SESSION_CLOSED', 'closed');
      expect(CodeError.hasCode(error, 'SESSION_CLOSED')).toBe(true);
      expect(CodeError.hasCode(error, 'SESSION_BUSY')).toBe(false);
      expect(CodeError.hasCode(foreignError('SESSION_BUSY'), 'SESSION_BUSY')).toBe(true);
      expect(CodeError.hasCode({ code: 'SESSION_BUSY' }, 'SESSION_BUSY')).toBe(false);
      expect(CodeError.hasCode(undefined, 'SESSION_BUSY')).toBe(false);
    });
  });

  describe('toJSON', () => {
    it('gives { code, message, details } and nothing else (no stack, no cause)', () => {
      const error = new CodeError('BUDGET_EXHAUSTED', 'tokens budget exhausted', { details: { kind: 'tokens', limit: 10, used: 11 }, cause: new Error('secret cause') });
      expect(error.toJSON()).toEqual({ code: 'BUDGET_EXHAUSTED', message: 'tokens budget exhausted', details: { kind: 'tokens', limit: 10, used: 11 } });
      expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'BUDGET_EXHAUSTED', message: 'tokens budget exhausted', details: { kind: 'tokens', limit: 10, used: 11 } });
      expect(JSON.stringify(error)).not.toContain('secret cause');
    });
  });
});

describe('CodeError.cancelled', () => {
  it('builds the one cancellation shape and tells it from failures', () => {
    const cancelled = CodeError.cancelled('run cancelled: stop', { details: { runId: 'r1' }, cause: new Error('stop') });
    expect(cancelled).toMatchObject({ code: 'SESSION_ERROR', message: 'run cancelled: stop', details: { runId: 'r1', cancelled: true } });
    expect(CodeError.isCancelled(cancelled)).toBe(true);
    expect(CodeError.isCancelled(new CodeError('SESSION_ERROR', 'busy'))).toBe(false);
    expect(CodeError.isCancelled(new CodeError('TOOL_ERROR', 'x', { details: { cancelled: true } }))).toBe(false);
    expect(CodeError.isCancelled(new Error('cancelled'))).toBe(false);
  });

  it('reads the same shape off the wire (an error event, a toJSON view)', () => {
    expect(CodeError.isCancellation(CodeError.cancelled('stop').toJSON())).toBe(true);
    expect(CodeError.isCancellation({ code: 'SESSION_ERROR', details: { cancelled: true } })).toBe(true);
    expect(CodeError.isCancellation({ code: 'SESSION_ERROR', details: {} })).toBe(false);
    expect(CodeError.isCancellation({ code: 'TOOL_ERROR', details: { cancelled: true } })).toBe(false);
    expect(CodeError.isCancellation({ code: 'SESSION_ERROR' })).toBe(false);
    expect(CodeError.isCancellation(undefined)).toBe(false);
  });
});
