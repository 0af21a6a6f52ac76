import { CodeError } from '../errors/code-error.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';

/** Which budget a limit or threshold concerns. */
export type BudgetKind = 'tool_calls' | 'tokens' | 'wall_time_ms';

/** Limits of a {@link BudgetGuard}. Every limit is optional; an absent limit never trips. */
export interface BudgetLimits {
  /** Most tool calls that may start executing. Default: unlimited. */
  readonly maxToolCalls?: number;
  /** Most model tokens (input + output) the session may use. Default: unlimited. */
  readonly maxTokens?: number;
  /** Most wall-clock ms since the guard was created (or reset). Default: unlimited. */
  readonly maxWallTimeMs?: number;
  /**
   * Fractions of a limit (0 < t < 1) at which `budget_threshold_hit` is emitted, once per
   * threshold and kind. Default `[0.8]`.
   */
  readonly softThresholds?: readonly number[];
}

/** Options of a {@link BudgetGuard}. */
export interface BudgetGuardOptions {
  /** Receives `budget_threshold_hit` events. Default: dropped. */
  readonly emit?: (event: AgentEvent) => void;
  /** Clock in ms; injectable for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** Current usage of a {@link BudgetGuard}. */
export interface BudgetUsage {
  readonly toolCalls: number;
  readonly tokens: number;
  readonly wallTimeMs: number;
}

const LIMIT_FIELDS = [
  ['tool_calls', 'maxToolCalls'],
  ['tokens', 'maxTokens'],
  ['wall_time_ms', 'maxWallTimeMs'],
] as const;

function validateLimits(limits: BudgetLimits): { max: Record<BudgetKind, number>; thresholds: number[] } {
  const invalid = (field: string, value: unknown, why: string): never => {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `budget.${field} ${why}, got ${JSON.stringify(value)}`, { details: { field: `budget.${field}`, value } });
  };
  if (typeof limits !== 'object' || limits === null) invalid('limits', limits, 'must be an object');
  const known = new Set(['maxToolCalls', 'maxTokens', 'maxWallTimeMs', 'softThresholds']);
  for (const key of Object.keys(limits)) if (!known.has(key)) invalid(key, (limits as Record<string, unknown>)[key], 'is not a known budget field');
  const max = { tool_calls: Infinity, tokens: Infinity, wall_time_ms: Infinity };
  for (const [kind, field] of LIMIT_FIELDS) {
    const value = limits[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) invalid(field, value, 'must be a positive integer');
    max[kind] = value;
  }
  const thresholds = limits.softThresholds ?? [0.8];
  if (!Array.isArray(thresholds)) invalid('softThresholds', thresholds, 'must be an array');
  for (const t of thresholds) if (typeof t !== 'number' || !(t > 0 && t < 1)) invalid('softThresholds', thresholds, 'must hold numbers between 0 and 1 (exclusive)');
  return { max, thresholds: [...new Set(thresholds)].sort((a, b) => a - b) };
}

/**
 * Session budgets: tool calls, tokens and wall time. The kernel calls {@link check} before any
 * side effect and {@link recordToolCall} when a call starts executing; the session loop calls
 * {@link recordTokens}. An exhausted budget throws BUDGET_EXHAUSTED; the session stays usable
 * and the host may {@link reset} or {@link raise} the budget.
 */
export class BudgetGuard {
  readonly #emit: (event: AgentEvent) => void;
  readonly #now: () => number;
  #max: Record<BudgetKind, number>;
  readonly #thresholds: number[];
  #startedAtMs: number;
  #toolCalls = 0;
  #tokens = 0;
  // "<kind>:<threshold>" entries already announced.
  readonly #fired = new Set<string>();

  constructor(limits: BudgetLimits = {}, options: BudgetGuardOptions = {}) {
    const { max, thresholds } = validateLimits(limits);
    this.#max = max;
    this.#thresholds = thresholds;
    this.#emit = options.emit ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#startedAtMs = this.#now();
  }

  /** True when no limit is set: the kernel skips the stage entirely. */
  get unlimited(): boolean {
    return this.#max.tool_calls === Infinity && this.#max.tokens === Infinity && this.#max.wall_time_ms === Infinity;
  }

  /** Current usage. */
  usage(): BudgetUsage {
    return { toolCalls: this.#toolCalls, tokens: this.#tokens, wallTimeMs: this.#now() - this.#startedAtMs };
  }

  /** Effective limits (`Infinity` = unlimited). */
  limits(): Readonly<Record<BudgetKind, number>> {
    return { ...this.#max };
  }

  /**
   * Throws CodeError BUDGET_EXHAUSTED (details `{ kind, limit, used }`) when any budget is
   * used up, i.e. one more tool call would exceed `maxToolCalls`, or tokens / wall time have
   * reached their limit.
   */
  check(): void {
    this.#exhausted('tool_calls', this.#toolCalls + 1, this.#toolCalls);
    this.#exhausted('tokens', this.#tokens, this.#tokens);
    if (this.#max.wall_time_ms !== Infinity) {
      const elapsed = this.#now() - this.#startedAtMs;
      this.#crossed('wall_time_ms', elapsed);
      this.#exhausted('wall_time_ms', elapsed, elapsed);
    }
  }

  /** Counts one tool call that started executing. */
  recordToolCall(): void {
    this.#toolCalls += 1;
    this.#crossed('tool_calls', this.#toolCalls);
  }

  /** Adds `n` model tokens (a non-negative integer). */
  recordTokens(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new CodeError('INTERNAL_ERROR', `recordTokens expects a non-negative integer, got ${String(n)}`, { details: { value: n } });
    this.#tokens += n;
    this.#crossed('tokens', this.#tokens);
  }

  /** Zeroes usage, restarts the wall clock and re-arms every threshold. */
  reset(): void {
    this.#toolCalls = 0;
    this.#tokens = 0;
    this.#startedAtMs = this.#now();
    this.#fired.clear();
  }

  /**
   * Raises limits (a value lower than the current limit is a SESSION_CONFIGURATION_ERROR:
   * use a new guard to tighten). Thresholds above the new usage ratio are re-armed.
   */
  raise(limits: Pick<BudgetLimits, 'maxToolCalls' | 'maxTokens' | 'maxWallTimeMs'>): void {
    const { max } = validateLimits(limits);
    for (const [kind, field] of LIMIT_FIELDS) {
      if (limits[field] === undefined) continue;
      if (max[kind] < this.#max[kind]) {
        throw new CodeError('SESSION_CONFIGURATION_ERROR', `budget.${field} can only be raised (current ${this.#max[kind]}, asked ${max[kind]})`, {
          details: { field: `budget.${field}`, value: max[kind], current: this.#max[kind] },
        });
      }
    }
    for (const [kind, field] of LIMIT_FIELDS) {
      if (limits[field] === undefined) continue;
      this.#max[kind] = max[kind];
      const used = kind === 'tool_calls' ? this.#toolCalls : kind === 'tokens' ? this.#tokens : this.#now() - this.#startedAtMs;
      for (const t of this.#thresholds) if (used < t * max[kind]) this.#fired.delete(`${kind}:${t}`);
    }
  }

  #exhausted(kind: BudgetKind, needed: number, used: number): void {
    const limit = this.#max[kind];
    if (needed > limit || (kind !== 'tool_calls' && used >= limit)) {
      throw new CodeError('BUDGET_EXHAUSTED', `${kind} budget exhausted: used ${used} of ${limit}`, { details: { kind, limit, used } });
    }
  }

  #crossed(kind: BudgetKind, used: number): void {
    const limit = this.#max[kind];
    if (limit === Infinity) return;
    for (const threshold of this.#thresholds) {
      if (used < threshold * limit) break;
      const key = `${kind}:${threshold}`;
      if (this.#fired.has(key)) continue;
      this.#fired.add(key);
      this.#emit(createAgentEvent('budget_threshold_hit', { kind, threshold, used, limit }));
    }
  }
}
