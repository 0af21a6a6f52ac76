import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { BudgetGuard } from './budget-guard.js';

function exhausted(fn: () => void): CodeError {
  try {
    fn();
  } catch (error) {
    if (CodeError.hasCode(error, 'BUDGET_EXHAUSTED')) return error;
    throw error;
  }
  throw new Error('expected BUDGET_EXHAUSTED');
}

describe('BudgetGuard', () => {
  it('allows exactly maxToolCalls calls, then throws with details', () => {
    const guard = new BudgetGuard({ maxToolCalls: 2 });
    guard.check();
    guard.recordToolCall();
    guard.check();
    guard.recordToolCall();
    const error = exhausted(() => guard.check());
    expect(error.details).toEqual({ kind: 'tool_calls', limit: 2, used: 2 });
  });

  it('tracks tokens and wall time with an injected clock', () => {
    let now = 1000;
    const guard = new BudgetGuard({ maxTokens: 100, maxWallTimeMs: 50 }, { now: () => now });
    guard.recordTokens(99);
    guard.check();
    guard.recordTokens(1);
    expect(exhausted(() => guard.check()).details).toMatchObject({ kind: 'tokens', limit: 100, used: 100 });
    guard.reset();
    now += 50;
    expect(exhausted(() => guard.check()).details).toMatchObject({ kind: 'wall_time_ms', limit: 50, used: 50 });
  });

  it('emits each soft threshold once', () => {
    const events: AgentEvent[] = [];
    const guard = new BudgetGuard({ maxToolCalls: 10, softThresholds: [0.5, 0.8] }, { emit: (e) => events.push(e) });
    for (let i = 0; i < 9; i += 1) guard.recordToolCall();
    expect(events.map((e) => e.payload)).toEqual([
      { kind: 'tool_calls', threshold: 0.5, used: 5, limit: 10 },
      { kind: 'tool_calls', threshold: 0.8, used: 8, limit: 10 },
    ]);
    expect(events.every((e) => e.type === 'budget_threshold_hit')).toBe(true);
  });

  it('reset and raise restore room; raise refuses lowering', () => {
    const guard = new BudgetGuard({ maxToolCalls: 1 });
    guard.recordToolCall();
    expect(() => guard.check()).toThrow(CodeError);
    guard.raise({ maxToolCalls: 3 });
    expect(() => guard.check()).not.toThrow();
    expect(() => guard.raise({ maxToolCalls: 2 })).toThrow(/only be raised/);
    guard.reset();
    expect(guard.usage().toolCalls).toBe(0);
  });

  it('validates limits, naming the field', () => {
    expect(() => new BudgetGuard({ maxToolCalls: 0 })).toThrow(/budget.maxToolCalls/);
    expect(() => new BudgetGuard({ softThresholds: [1.5] })).toThrow(/softThresholds/);
    expect(() => new BudgetGuard({ maxTokenz: 3 } as never)).toThrow(/maxTokenz/);
    expect(new BudgetGuard().unlimited).toBe(true);
  });
});
