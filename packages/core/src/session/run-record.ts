// The data of recorded runs (`session.runs()`, `runEventPage()`, snapshots): plain types, shared
// by the session runtime (`@a3s-lab/code-runtime`'s RunStore) and the stores that persist them.
import type { AgentEvent } from '../events/agent-event.js';

/** Token usage summed over a run. */
export interface RunUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** Status of a recorded run. */
export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** The record of one `send` / `stream` call. */
export interface RunRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly status: RunStatus;
  /** `send` or `stream`. */
  readonly kind: string;
  readonly prompt: string;
  readonly startedAtMs: number;
  readonly endedAtMs: number | null;
  /** Final assistant text, when the run completed. */
  readonly text: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly usage: RunUsage;
  readonly toolCallsCount: number;
  readonly turns: number;
  /** Sequence number of the last recorded event. */
  readonly lastSequence: number;
}

/** A page of replayed events; the cursor is exclusive. */
export interface RunEventPage {
  readonly events: AgentEvent[];
  /** Lowest sequence still retained (events before it were evicted). */
  readonly firstAvailableSequence: number;
  /** Pass as `afterSequence` to continue; `null` when the page is empty. */
  readonly nextAfterSequence: number | null;
  /** True when the requested cursor predates the retained window: history is incomplete. */
  readonly retentionGap: boolean;
  readonly hasMore: boolean;
}

/** FIFO retention for runs and their events. */
export interface RetentionLimits {
  /** Runs kept per session (oldest finished runs evicted first). Default 64. */
  readonly maxRuns?: number;
  /** Events kept per run (oldest evicted first). Default 8192. */
  readonly maxEventsPerRun?: number;
}

/** Plain-data form of a run, as held in snapshots. */
export interface RunSnapshot {
  readonly record: RunRecord;
  readonly events: AgentEvent[];
  readonly firstSequence: number;
}
