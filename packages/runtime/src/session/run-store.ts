import { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent, LlmUsage, RetentionLimits, RunEventPage, RunRecord, RunSnapshot, RunStatus, RunUsage } from '@a3s-lab/code-core';
import { withEventMetadata } from '@a3s-lab/code-core/kernel';
import { addRunUsage, EMPTY_RUN_USAGE } from './run-usage.js';

/** Default retention limits. */
export const DEFAULT_RETENTION_LIMITS = Object.freeze({ maxRuns: 64, maxEventsPerRun: 8192 });

/** Default page size of `runEventPage`. */
export const DEFAULT_RUN_EVENT_PAGE_LIMIT = 256;

interface MutableRun {
  record: { -readonly [K in keyof RunRecord]: RunRecord[K] };
  events: AgentEvent[];
  /** Sequence of events[0]. */
  firstSequence: number;
}

/** Live handle of a running run, used by the loop to record events and totals. */
export interface RunHandle {
  readonly id: string;
  /** Records `event` with replay metadata and returns the recorded envelope. */
  append(event: AgentEvent): AgentEvent;
  addUsage(usage: LlmUsage): void;
  addToolCalls(count: number): void;
  setTurns(turns: number): void;
  finish(status: Exclude<RunStatus, 'running'>, outcome: { text?: string | null; error?: { code: string; message: string } | null }): RunRecord;
  record(): RunRecord;
}

/**
 * Records every run of a session and its events with replay metadata (`run_id`, `session_id`,
 * `sequence`, `timestamp_ms`), under FIFO retention limits.
 */
export class RunStore {
  readonly #sessionId: string;
  readonly #maxRuns: number;
  readonly #maxEvents: number;
  readonly #runs = new Map<string, MutableRun>();
  #current: MutableRun | null = null;
  #counter = 0;

  constructor(sessionId: string, limits: RetentionLimits = {}) {
    this.#sessionId = sessionId;
    this.#maxRuns = limits.maxRuns ?? DEFAULT_RETENTION_LIMITS.maxRuns;
    this.#maxEvents = limits.maxEventsPerRun ?? DEFAULT_RETENTION_LIMITS.maxEventsPerRun;
  }

  /** Starts a run and makes it current. */
  start(kind: string, prompt: string): RunHandle {
    this.#counter += 1;
    const id = `run_${Date.now().toString(36)}_${this.#counter.toString(36)}_${randomSuffix()}`;
    const run: MutableRun = {
      record: {
        id,
        sessionId: this.#sessionId,
        status: 'running',
        kind,
        prompt,
        startedAtMs: Date.now(),
        endedAtMs: null,
        text: null,
        error: null,
        usage: EMPTY_RUN_USAGE,
        toolCallsCount: 0,
        turns: 0,
        lastSequence: 0,
      },
      events: [],
      firstSequence: 1,
    };
    this.#runs.set(id, run);
    this.#current = run;
    this.#evictRuns();
    return this.#handle(run);
  }

  #handle(run: MutableRun): RunHandle {
    return {
      id: run.record.id,
      append: (event) => {
        const sequence = run.record.lastSequence + 1;
        run.record.lastSequence = sequence;
        const recorded = withEventMetadata(event, { run_id: run.record.id, session_id: this.#sessionId, sequence, timestamp_ms: Date.now() });
        run.events.push(recorded);
        if (run.events.length > this.#maxEvents) {
          const drop = run.events.length - this.#maxEvents;
          run.events.splice(0, drop);
          run.firstSequence += drop;
        }
        return recorded;
      },
      addUsage: (usage) => {
        run.record.usage = addRunUsage(run.record.usage, usage);
      },
      addToolCalls: (count) => {
        run.record.toolCallsCount += count;
      },
      setTurns: (turns) => {
        run.record.turns = turns;
      },
      finish: (status, outcome) => {
        if (run.record.status === 'running') {
          run.record.status = status;
          run.record.endedAtMs = Date.now();
          run.record.text = outcome.text ?? null;
          run.record.error = outcome.error ?? null;
        }
        if (this.#current === run) this.#current = null;
        this.#evictRuns();
        return { ...run.record };
      },
      record: () => ({ ...run.record }),
    };
  }

  #evictRuns(): void {
    if (this.#runs.size <= this.#maxRuns) return;
    for (const [id, run] of this.#runs) {
      if (this.#runs.size <= this.#maxRuns) break;
      if (run.record.status !== 'running') this.#runs.delete(id);
    }
  }

  /** Records of the retained runs, oldest first. */
  runs(): RunRecord[] {
    return [...this.#runs.values()].map((r) => ({ ...r.record }));
  }

  /** The running run, or `null`. */
  current(): RunRecord | null {
    return this.#current === null ? null : { ...this.#current.record };
  }

  /** The record of `runId`, or `null` when unknown or evicted. */
  get(runId: string): RunRecord | null {
    const run = this.#runs.get(runId);
    return run === undefined ? null : { ...run.record };
  }

  /** Every retained event of `runId`, or `null` when the run is unknown or evicted. */
  events(runId: string): AgentEvent[] | null {
    const run = this.#runs.get(runId);
    return run === undefined ? null : [...run.events];
  }

  /**
   * A page of events after `afterSequence` (exclusive), at most `limit` (default 256).
   * `null` when the run is unknown or evicted. A cursor that is not a non-negative integer, or a
   * limit that is not a positive integer, is a SESSION_ERROR (a NaN cursor used to read as an
   * empty, complete page). Limits above 10000 are capped.
   */
  page(runId: string, afterSequence?: number, limit: number = DEFAULT_RUN_EVENT_PAGE_LIMIT): RunEventPage | null {
    if (afterSequence !== undefined && !(Number.isSafeInteger(afterSequence) && afterSequence >= 0)) {
      throw new CodeError('SESSION_ERROR', `afterSequence must be a non-negative integer, got ${String(afterSequence)}`, { details: { field: 'afterSequence' } });
    }
    if (!(Number.isSafeInteger(limit) && limit >= 1)) {
      throw new CodeError('SESSION_ERROR', `limit must be a positive integer, got ${String(limit)}`, { details: { field: 'limit' } });
    }
    const run = this.#runs.get(runId);
    if (run === undefined) return null;
    const size = Math.min(limit, 10_000);
    const after = afterSequence ?? 0;
    const first = run.firstSequence;
    const retentionGap = after < first - 1;
    const startIndex = Math.max(0, after - first + 1);
    const events = run.events.slice(startIndex, startIndex + size);
    const last = events.at(-1);
    const nextAfterSequence = last === undefined ? null : (last.metadata?.sequence ?? null);
    return { events, firstAvailableSequence: first, nextAfterSequence, retentionGap, hasMore: startIndex + size < run.events.length };
  }

  /** Plain-data copy of every retained run, for snapshots. */
  snapshot(): RunSnapshot[] {
    return [...this.#runs.values()].map((r) => ({ record: { ...r.record }, events: [...r.events], firstSequence: r.firstSequence }));
  }

  /** Replaces the retained runs with `runs` (a run recorded as running is restored as cancelled). */
  restore(runs: readonly RunSnapshot[]): void {
    this.#runs.clear();
    this.#current = null;
    for (const r of runs) {
      const record = { ...r.record };
      if (record.status === 'running') {
        record.status = 'cancelled';
        record.endedAtMs = record.endedAtMs ?? Date.now();
      }
      this.#runs.set(record.id, { record, events: [...r.events], firstSequence: r.firstSequence });
    }
  }
}

function randomSuffix(): string {
  return Math.floor(Math.random() * 0xffffff).toString(36);
}
