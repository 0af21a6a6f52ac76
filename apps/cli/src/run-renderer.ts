import type { AgentEvent } from '@a3s-lab/code';

/** Turns a run's events into output. One implementation per output mode. */
export interface RunRenderer {
  /** Renders one event of the run. */
  event(event: AgentEvent): void;
  /** Frees the terminal before a question is asked (stops the spinner, ends a partial line). */
  pause(): void;
  /** A line of information for the human (stderr in JSON mode, so stdout stays JSONL). */
  notice(text: string): void;
  /** Stops timers. Idempotent. */
  close(): void;
}

/** Token totals of a run, summed from `turn_end` usage. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Adds a `turn_end` usage payload to `totals`. */
export function addUsage(totals: UsageTotals, usage: unknown): void {
  if (typeof usage !== 'object' || usage === null) return;
  const u = usage as Record<string, unknown>;
  totals.inputTokens += count(u['input_tokens'] ?? u['prompt_tokens']);
  totals.outputTokens += count(u['output_tokens'] ?? u['completion_tokens']);
  totals.cacheReadTokens += count(u['cache_read_tokens']);
  totals.cacheWriteTokens += count(u['cache_write_tokens']);
}

/**
 * The v1 envelope of an event, without the convenience projections (what `--json` prints).
 * Every line carries `metadata`: an event emitted outside a run's record has none of its own,
 * so it gets `{ timestamp_ms }` of when it was printed.
 */
export function toEnvelope(event: AgentEvent): { version: 1; type: string; payload: Readonly<Record<string, unknown>>; metadata: unknown } {
  return { version: 1, type: event.type, payload: event.payload, metadata: event.metadata ?? { timestamp_ms: Date.now() } };
}
