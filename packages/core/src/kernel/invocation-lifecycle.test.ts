import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { InvocationLifecycle, isTerminalState } from './invocation-lifecycle.js';
import type { InvocationState } from './invocation-lifecycle.js';

function internal(fn: () => void): CodeError {
  try {
    fn();
  } catch (error) {
    if (CodeError.hasCode(error, 'INTERNAL_ERROR')) return error;
    throw error;
  }
  throw new Error('expected INTERNAL_ERROR');
}

describe('InvocationLifecycle', () => {
  it('walks created -> admitted -> gate-pending -> running -> completed', () => {
    const life = new InvocationLifecycle('t1');
    for (const next of ['admitted', 'gate-pending', 'running', 'completed'] as const) life.transition(next);
    expect(life.state).toBe('completed');
    expect(life.terminal).toBe(true);
  });

  it.each(['completed', 'failed', 'denied', 'cancelled', 'timed_out'] as const)('rejects any transition after %s', (outcome) => {
    const life = new InvocationLifecycle('t2');
    life.transition('admitted');
    if (outcome === 'completed') life.transition('running');
    life.transition(outcome);
    for (const next of ['created', 'admitted', 'running', 'completed', 'failed', 'cancelled', 'timed_out'] as InvocationState[]) {
      const error = internal(() => life.transition(next));
      expect(error.details).toMatchObject({ toolId: 't2', from: outcome, to: next });
    }
    expect(life.state).toBe(outcome);
  });

  it('rejects skipping or going backwards', () => {
    expect(() => new InvocationLifecycle('a').transition('running')).toThrow(CodeError);
    const life = new InvocationLifecycle('b');
    life.transition('admitted');
    life.transition('running');
    expect(() => life.transition('admitted')).toThrow(/running -> admitted/);
    expect(() => life.transition('denied')).toThrow(CodeError);
  });

  it('classifies terminal states', () => {
    expect(isTerminalState('running')).toBe(false);
    expect(isTerminalState('timed_out')).toBe(true);
  });
});
