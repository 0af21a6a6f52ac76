import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { AdmissionGate } from './admission-gate.js';

const codeOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return CodeError.isInstance(error) ? { code: error.code, details: error.details } : error;
  }
  return 'no error';
};

describe('AdmissionGate', () => {
  it('admits one operation; an overlap is SESSION_BUSY naming both operations', () => {
    const gate = new AdmissionGate();
    const lease = gate.acquire('send');
    expect(gate.activeOperation).toBe('send');
    expect(lease.operation).toBe('send');
    expect(codeOf(() => gate.acquire('stream'))).toEqual({ code: 'SESSION_BUSY', details: { operation: 'stream', activeOperation: 'send' } });
    // The failed acquire changed nothing.
    expect(gate.activeOperation).toBe('send');
    lease.release();
    expect(gate.activeOperation).toBeNull();
    expect(gate.acquire('stream').operation).toBe('stream');
  });

  it('release is idempotent', () => {
    const gate = new AdmissionGate();
    const lease = gate.acquire('send');
    lease.release();
    lease.release();
    expect(gate.activeOperation).toBeNull();
  });

  it('a stale lease cannot release a newer holder', () => {
    const gate = new AdmissionGate();
    const stale = gate.acquire('send');
    stale.release();
    const current = gate.acquire('stream');
    stale.release();
    expect(gate.activeOperation).toBe('stream');
    expect(codeOf(() => gate.acquire('send'))).toMatchObject({ code: 'SESSION_BUSY' });
    current.release();
    expect(gate.activeOperation).toBeNull();
  });

  it('a closed gate rejects with SESSION_CLOSED, also while held, and a held lease still releases', () => {
    const gate = new AdmissionGate();
    const lease = gate.acquire('send');
    gate.close();
    expect(gate.closed).toBe(true);
    expect(codeOf(() => gate.acquire('stream'))).toEqual({ code: 'SESSION_CLOSED', details: { operation: 'stream' } });
    lease.release();
    expect(gate.activeOperation).toBeNull();
    expect(codeOf(() => gate.acquire('send'))).toMatchObject({ code: 'SESSION_CLOSED' });
    gate.close();
    expect(gate.closed).toBe(true);
  });
});
