import { randomUUID } from 'node:crypto';

import { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent } from '@a3s-lab/code-core';
import type { PgBoss } from 'pg-boss';

import type { Database, DatabaseOptions } from '../database.js';
import { PostgresSessionStore } from '../postgres-session-store.js';
import { prepared } from '../prepared-statements.js';
import { readEventPage, readEvents } from './fleet-events.js';
import type { FleetEventPage } from './fleet-events.js';
import type { FleetAgent, FleetPendingConfirmation, FleetRequest, FleetRun, FleetRunStatus, ReconcileDecision } from './fleet-types.js';
import { recordAnswer, requestCancel, RunControl } from './fleet-control.js';
import { executeRun, setStatus } from './fleet-worker.js';
import type { ActiveRun, WorkerContext } from './fleet-worker.js';
import { RunWakeups } from './run-wakeups.js';

/** The pg-boss queue of fleet runs. */
export const FLEET_QUEUE = 'a3s-fleet-runs';


const SUBMIT_SQL = prepared(`INSERT INTO a3s_fleet_runs (run_id, session_id, request, status)
  SELECT $1, session_id, $3::jsonb, 'queued' FROM a3s_sessions WHERE session_id = $2 RETURNING 1`);

/** A running `work()` loop. */
export interface FleetWorkHandle {
  /** Stops taking runs and waits for the runs in progress to end (drain). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Durable runs across processes over one PostgreSQL database (or PGlite): runs are queued as
 * pg-boss jobs, executed by any process that calls `work()`, journaled step by step so that a run
 * whose worker dies resumes on another from its last step, and observed, cancelled and confirmed
 * from any process.
 */
export class Fleet {
  /** Sessions runs execute in live here (`agent.sessionAsync(workspace, { sessionStore: fleet.sessionStore })`). */
  readonly sessionStore: PostgresSessionStore;
  readonly workerId: string;
  /** @internal Where the fleet's data lives, for the schedules' own pg-boss (fleet-schedules.ts). */
  readonly connection: { readonly storeOptions: DatabaseOptions; readonly bossDb: BossDb };
  readonly #db: Database;
  readonly #boss: PgBoss;
  readonly #ctx: WorkerContext;
  readonly #pollMs: number;
  readonly #owned: (() => Promise<void>) | null;
  /** What wakes the readers of `events()` in this process. */
  readonly #wakeups: RunWakeups;
  readonly #control: RunControl;
  readonly #handles = new Set<FleetWorkHandle>();
  #closed: Promise<void> | null = null;

  /** @internal Use {@link createFleet}. */
  constructor(parts: { db: Database; boss: PgBoss; storeOptions: DatabaseOptions; bossDb: BossDb; agent: FleetAgent; workerId: string; pollMs: number; owned: (() => Promise<void>) | null }) {
    this.connection = { storeOptions: parts.storeOptions, bossDb: parts.bossDb };
    this.#db = parts.db;
    this.#boss = parts.boss;
    this.#pollMs = parts.pollMs;
    this.#wakeups = new RunWakeups(parts.db, parts.pollMs);
    this.#owned = parts.owned;
    this.workerId = parts.workerId;
    this.sessionStore = new PostgresSessionStore(parts.storeOptions);
    this.#ctx = { db: parts.db, storeOptions: parts.storeOptions, store: this.sessionStore, agent: parts.agent, workerId: parts.workerId, active: new Map<string, ActiveRun>(), executing: new Map<string, Promise<void>>() };
    this.#control = new RunControl(parts.db, this.#ctx.active, parts.pollMs);
  }

  /**
   * Queues a run of `sessionId` (which must be in {@link sessionStore}). One run per session at a
   * time: SESSION_BUSY while one is queued, running or waiting for reconciliation.
   */
  async submit(sessionId: string, request: FleetRequest): Promise<{ readonly runId: string }> {
    this.#open();
    const prompt = promptOf(request);
    const runId = `run_${randomUUID()}`;
    try {
      // One statement: the run is inserted only when its session is stored.
      const inserted = await this.#db.query(SUBMIT_SQL, [runId, sessionId, JSON.stringify({ prompt })]);
      if (inserted.rows.length === 0) throw new CodeError('SESSION_ERROR', `session '${sessionId}' is not in the fleet's session store: create it with sessionStore: fleet.sessionStore first`, { details: { sessionId } });
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505') {
        throw new CodeError('SESSION_BUSY', `session '${sessionId}' already has a run queued, running or waiting for reconciliation`, { details: { sessionId } });
      }
      throw error;
    }
    await this.#enqueue(runId);
    return { runId };
  }

  /** Executes queued runs on this process, at most `concurrency` at once (default 1). */
  async work(options: { readonly concurrency?: number } = {}): Promise<FleetWorkHandle> {
    this.#open();
    const concurrency = options.concurrency ?? 1;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new CodeError('CONFIG_ERROR', 'concurrency must be an integer from 1 to 256', { details: { field: 'concurrency', value: concurrency } });
    await this.#control.start();
    const interval = Math.max(0.5, this.#pollMs / 1000);
    let workId: string | null = null;
    const id = await this.#boss.work<{ runId: string }>(FLEET_QUEUE, { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: interval, notifyPollingIntervalSeconds: interval }, async (jobs) => {
      for (const job of jobs) await executeRun(this.#ctx, job.data.runId);
      // A slot that just ended a run fetches the next one at once instead of after its polling
      // interval (pg-boss waits `interval - duration` after every job, 0.5 s at least; its burst
      // modes need batchSize > 1 or its cached queue size). A fetch that comes back empty falls
      // back to polling and LISTEN/NOTIFY. The busy slots of this work() are the ones to wake:
      // this one still holds its job here.
      for (const slot of this.#boss.getWipData()) if (slot.workId === workId && slot.count > 0) this.#boss.notifyWorker(slot.id);
    });
    workId = id;
    let stopped: Promise<void> | null = null;
    const handle: FleetWorkHandle = {
      stop: () =>
        (stopped ??= (async () => {
          await this.#boss.offWork(FLEET_QUEUE, { id, wait: true });
          this.#handles.delete(handle);
        })()),
    };
    this.#handles.add(handle);
    return handle;
  }

  /**
   * The run's v1 events in sequence order (`metadata.sequence`, from 1), from any process, without
   * gaps or duplicates across worker changes; ends after the run's last event once it is over (or
   * waits for reconciliation). `afterSequence` resumes a stream.
   */
  events(runId: string, options: { readonly afterSequence?: number; readonly signal?: AbortSignal } = {}): AsyncIterable<AgentEvent> {
    this.#open();
    const fleet = this;
    return (async function* () {
      const wakeup = fleet.#wakeups.reader(runId);
      try {
        yield* readEvents({
          db: fleet.#db, runId, afterSequence: options.afterSequence ?? 0, listening: () => fleet.#wakeups.listen(),
          mark: () => wakeup.mark(), wait: (mark, signal) => wakeup.wait(mark, signal), closed: () => fleet.#closed !== null,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      } finally {
        wakeup.release();
      }
    })();
  }

  /**
   * Up to `limit` (default 256, at most 10000) of the run's events after `afterSequence` as
   * written so far, in the shape of a session's `runEventPage`; `null` when the run is unknown.
   */
  async eventPage(runId: string, options: { readonly afterSequence?: number; readonly limit?: number } = {}): Promise<FleetEventPage | null> {
    const after = options.afterSequence ?? 0;
    const limit = options.limit ?? 256;
    if (!Number.isSafeInteger(after) || after < 0) throw new CodeError('CONFIG_ERROR', `afterSequence must be a non-negative integer, got ${String(after)}`, { details: { field: 'afterSequence' } });
    if (!Number.isSafeInteger(limit) || limit < 1) throw new CodeError('CONFIG_ERROR', `limit must be a positive integer, got ${String(limit)}`, { details: { field: 'limit' } });
    return readEventPage(this.#db, runId, after, limit);
  }

  /** The run, or `null` when unknown. */
  async run(runId: string): Promise<FleetRun | null> {
    const found = await this.#db.query<RunRow>('SELECT * FROM a3s_fleet_runs WHERE run_id = $1', [runId]);
    const row = found.rows[0];
    return row === undefined ? null : toRun(row);
  }

  /** The runs of session `sessionId`, oldest first (what a web host lists as the session's runs). */
  async sessionRuns(sessionId: string): Promise<FleetRun[]> {
    const found = await this.#db.query<RunRow>('SELECT * FROM a3s_fleet_runs WHERE session_id = $1 ORDER BY created_at, run_id', [sessionId]);
    return found.rows.map(toRun);
  }

  /** Cancels a run from any process; `false` when it is already over. */
  async cancel(runId: string): Promise<boolean> {
    this.#open();
    return requestCancel(this.#db, runId);
  }

  /**
   * Answers a pending confirmation of a run from any process: the worker running it applies it at
   * once; a run whose worker died applies it when another resumes it. `false` when the call has no
   * pending confirmation (unknown, already answered).
   */
  async confirm(runId: string, toolId: string, approved: boolean, reason?: string): Promise<boolean> {
    this.#open();
    return recordAnswer(this.#db, runId, toolId, approved, reason);
  }

  /** Confirmations runs wait for, across the fleet, oldest first. */
  async pendingConfirmations(): Promise<FleetPendingConfirmation[]> {
    const found = await this.#db.query<{ run_id: string; session_id: string; key: string; value: { toolName: string; args: unknown }; created_at: Date }>(
      // One entry per call: an attempt that resumes a run waiting for an answer asks again and
      // records the same request once more (same key); the first one says since when it waits.
      `SELECT * FROM (
         SELECT DISTINCT ON (s.run_id, s.key) s.run_id, r.session_id, s.key, s.value, s.created_at FROM a3s_fleet_steps s JOIN a3s_fleet_runs r USING (run_id)
          WHERE s.kind = 'confirmation_request' AND r.status IN ('queued', 'running')
            AND NOT EXISTS (SELECT 1 FROM a3s_fleet_steps a WHERE a.run_id = s.run_id AND a.key = s.key AND a.kind = 'confirmation_answer')
          ORDER BY s.run_id, s.key, s.created_at, s.step
       ) pending ORDER BY created_at, run_id, key`,
    );
    return found.rows.map((row) => ({ runId: row.run_id, sessionId: row.session_id, toolId: row.key.slice('confirmation-'.length), toolName: row.value.toolName, args: row.value.args, requestedAt: new Date(row.created_at) }));
  }

  /**
   * Resolves a `needs_reconciliation` run: `{ retry: true }` executes the call again, `{ output,
   * exitCode }` records the outcome the host observed; the run is queued again and resumes.
   */
  async reconcile(runId: string, toolId: string, decision: ReconcileDecision): Promise<void> {
    this.#open();
    const retry = typeof decision === 'object' && decision !== null && 'retry' in decision && decision.retry === true;
    if (!retry && (typeof decision !== 'object' || decision === null || !('output' in decision) || typeof decision.output !== 'string' || !Number.isSafeInteger(decision.exitCode))) {
      throw new CodeError('CONFIG_ERROR', 'reconcile expects { retry: true } or { output: string, exitCode: integer }', { details: { field: 'decision' } });
    }
    await this.#db.transaction(async (tx) => {
      const found = await tx.query<{ status: FleetRunStatus; attempts: number; reconciliation: { toolId: string } | null }>('SELECT status, attempts, reconciliation FROM a3s_fleet_runs WHERE run_id = $1 FOR UPDATE', [runId]);
      const run = found.rows[0];
      if (run === undefined || run.status !== 'needs_reconciliation' || run.reconciliation?.toolId !== toolId) {
        throw new CodeError('SESSION_ERROR', `run '${runId}' does not wait for the reconciliation of '${toolId}'`, { details: { runId, toolId, status: run?.status ?? null } });
      }
      const value = retry ? {} : { output: (decision as { output: string }).output, exitCode: (decision as { exitCode: number }).exitCode };
      await tx.query(
        `INSERT INTO a3s_fleet_steps (run_id, step, key, kind, value, attempt)
         SELECT $1, coalesce(max(step), 0) + 1, $2, $3, $4::jsonb, $5 FROM a3s_fleet_steps WHERE run_id = $1`,
        [runId, `tool-${toolId}`, retry ? 'tool_retry' : 'tool_reconciled', JSON.stringify(value), Number(run.attempts)],
      );
      await tx.query("UPDATE a3s_fleet_runs SET status = 'queued', reconciliation = NULL, error = NULL, updated_at = now() WHERE run_id = $1", [runId]);
    });
    await this.#enqueue(runId);
  }

  /** Stops working (draining), stops pg-boss and ends the connections this fleet opened. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await Promise.all([...this.#handles].map((h) => h.stop()));
      await this.#control.stop();
      await this.#wakeups.close();
      await this.#boss.stop({ graceful: true, close: true, timeout: 30_000 });
      await this.sessionStore.close();
      await this.#db.close();
      await this.#owned?.();
    })();
    return this.#closed;
  }

  async #enqueue(runId: string): Promise<void> {
    try {
      await this.#boss.send(FLEET_QUEUE, { runId });
    } catch (error) {
      await setStatus(this.#db, runId, 'failed', { error: { code: 'QUEUE_ERROR', message: `the run could not be queued: ${error instanceof Error ? error.message : String(error)}` } });
      throw new CodeError('QUEUE_ERROR', `run '${runId}' could not be queued: ${error instanceof Error ? error.message : String(error)}`, { details: { runId }, cause: error });
    }
  }

  #open(): void {
    if (this.#closed !== null) throw new CodeError('SESSION_CLOSED', 'the fleet is closed');
  }
}

/** @internal How pg-boss reaches the fleet's database. */
export type BossDb = ConstructorParameters<typeof PgBoss>[0];

interface RunRow {
  run_id: string;
  session_id: string;
  request: { prompt: string };
  status: FleetRunStatus;
  attempts: number;
  worker_id: string | null;
  result: FleetRun['result'];
  error: FleetRun['error'];
  reconciliation: FleetRun['reconciliation'];
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

function toRun(row: RunRow): FleetRun {
  return {
    runId: row.run_id,
    sessionId: row.session_id,
    status: row.status,
    attempts: Number(row.attempts),
    workerId: row.worker_id,
    prompt: row.request.prompt,
    result: row.result,
    error: row.error,
    reconciliation: row.reconciliation,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}

function promptOf(request: FleetRequest): string {
  if (typeof request === 'string') return request;
  if (typeof request === 'object' && request !== null && typeof request.prompt === 'string') {
    const extra = Object.keys(request).filter((k) => k !== 'prompt');
    if (extra.length > 0) throw new CodeError('CONFIG_ERROR', `fleet runs carry the prompt only; not supported yet: ${extra.join(', ')}`, { details: { field: extra[0] } });
    return request.prompt;
  }
  throw new CodeError('CONFIG_ERROR', 'submit expects a prompt string or { prompt }', { details: { field: 'request' } });
}
