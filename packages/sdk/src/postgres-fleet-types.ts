import type { AgentEvent, RunEventPage, SendRequest, SendResult, SessionStore } from '@a3s-lab/code-core';

/** Where a fleet run is (see `@a3s-lab/code-postgres`'s `Fleet`). `needs_reconciliation` waits for `reconcile`. */
export type FleetRunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'needs_reconciliation';

/** A durable fleet run as `fleet.run()` reports it. */
export interface FleetRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly status: FleetRunStatus;
  /** Times a worker started (or resumed) the run; > 1 after a worker was lost. */
  readonly attempts: number;
  /** The worker that runs or last ran it; `null` before the first attempt. */
  readonly workerId: string | null;
  readonly prompt: string;
  /** The completed run's text and counters. */
  readonly result: { readonly text: string; readonly turns: number; readonly toolCallsCount: number } | null;
  /** The failed or cancelled run's error. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** The call that stops a `needs_reconciliation` run. */
  readonly reconciliation: { readonly toolId: string; readonly toolName: string } | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
}

/** A confirmation a fleet run waits for, durable across workers. */
export interface FleetPendingConfirmation {
  readonly runId: string;
  readonly sessionId: string;
  readonly toolId: string;
  readonly toolName: string;
  /** Redacted arguments. */
  readonly args: unknown;
  readonly requestedAt: Date;
}

/** How the host resolves a started call whose outcome is unknown. */
export type ReconcileDecision = { readonly retry: true } | { readonly output: string; readonly exitCode: number };

/** A running `fleet.work()` loop. */
export interface FleetWorkHandle {
  /** Stops taking runs and waits for the runs in progress to end (drain). Idempotent. */
  stop(): Promise<void>;
}

/** The part of a session a fleet worker drives (an SDK `Session` is one). */
export interface FleetSessionLike {
  readonly id: string;
  send(request: SendRequest): Promise<SendResult>;
  onEvent(listener: (event: AgentEvent) => void): () => void;
  confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<boolean>;
  pendingConfirmations(): Promise<readonly { readonly toolId: string }[]>;
  cancelAsync(): Promise<void>;
  setLabel(key: string, value: string | null): void;
  save(): Promise<unknown>;
  closeAsync(): Promise<void>;
}

/** The part of an agent a fleet needs (an SDK `Agent` is one). */
export interface FleetAgentLike {
  resumeSessionAsync(sessionId: string, options: { readonly sessionStore: SessionStore; readonly autoSave: boolean }): Promise<FleetSessionLike>;
}

/**
 * Durable runs across processes over one PostgreSQL database, as `@a3s-lab/code-postgres`'s
 * `Fleet` offers them (see its README): runs are queued, executed by any process that calls
 * `work()`, resumed by another worker when theirs dies, observed, cancelled and confirmed from any
 * process.
 */
export interface PostgresFleet {
  /** This process's worker name (`run().workerId` of the runs it executes). */
  readonly workerId: string;
  /** The fleet's session store: sessions runs execute in live here (`serveAgentDir(..., { fleet })` keeps the schedules' sessions in it). */
  readonly sessionStore: SessionStore;
  /** Queues a run of `sessionId` (saved in the fleet's database). SESSION_BUSY while the session has a run queued or running. */
  submit(sessionId: string, request: string | { readonly prompt: string }): Promise<{ readonly runId: string }>;
  /** Executes queued runs on this process, at most `concurrency` at once (default 1). */
  work(options?: { readonly concurrency?: number }): Promise<FleetWorkHandle>;
  /** The run's v1 events in sequence order, from any process; ends after the run's last event. */
  events(runId: string, options?: { readonly afterSequence?: number; readonly signal?: AbortSignal }): AsyncIterable<AgentEvent>;
  /** Up to `limit` (default 256) of the run's events after `afterSequence` as written so far, as a session's `runEventPage`; `null` when the run is unknown. */
  eventPage(runId: string, options?: { readonly afterSequence?: number; readonly limit?: number }): Promise<RunEventPage | null>;
  /** The run, or `null` when unknown. */
  run(runId: string): Promise<FleetRun | null>;
  /** The runs of one session, oldest first. */
  sessionRuns(sessionId: string): Promise<FleetRun[]>;
  /** Cancels a run from any process; `false` when it is already over. */
  cancel(runId: string): Promise<boolean>;
  /** Answers a pending confirmation from any process; `false` when the call waits for none. */
  confirm(runId: string, toolId: string, approved: boolean, reason?: string): Promise<boolean>;
  /** Confirmations runs wait for, across the fleet, oldest first. */
  pendingConfirmations(): Promise<FleetPendingConfirmation[]>;
  /** Resolves a `needs_reconciliation` run. */
  reconcile(runId: string, toolId: string, decision: ReconcileDecision): Promise<void>;
  /** Stops working (draining) and ends the fleet's connections. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link createFleet} (plain data: a host with its own `pg` pool or PGlite uses `@a3s-lab/code-postgres` directly). */
export interface PostgresFleetOptions {
  /** Builds the sessions runs execute in: an SDK `Agent` (or a wrapper adding session options). */
  readonly agent: FleetAgentLike;
  /** `postgres://user:password@host:port/database`. */
  readonly connectionString: string;
  /** This process's name in `run().workerId`. Default `<hostname>:<pid>:<random>`. */
  readonly workerId?: string;
  /** A worker that stops heartbeating loses its runs to another within this time. Default 30000; at least 10000, whole seconds. */
  readonly leaseMs?: number;
  /** How often waiting readers and workers look at the database besides LISTEN/NOTIFY, ms. Default 500. */
  readonly pollMs?: number;
}

/** What a served schedule does with occurrences that came due while no host served it. */
export type MissedOccurrencePolicy = 'skip' | 'once' | 'all';

/** One occurrence of a fleet schedule, as the host that claimed it handled it. */
export interface FleetScheduleOccurrence {
  readonly schedule: string;
  /** When it was due (ms since the epoch, database time). */
  readonly dueAtMs: number;
  /** `due`: sent by the cron pass; `catch_up`: a missed occurrence `missed: once | all` caught up. */
  readonly kind: 'due' | 'catch_up';
  readonly status: 'submitted' | 'skipped' | 'failed';
  readonly sessionId: string;
  readonly runId?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** One schedule as `@a3s-lab/code-postgres`'s `serveFleetSchedules` takes it. */
export interface FleetScheduleSpecLike {
  readonly name: string;
  readonly cron: string;
  readonly prompt: string;
  readonly sessionId: string;
  readonly missed?: MissedOccurrencePolicy;
  readonly missedLimit?: number;
}

/** Options of `serveFleetSchedules` as the SDK passes them. */
export interface FleetSchedulesOptionsLike {
  readonly directory: string;
  readonly schedules: readonly FleetScheduleSpecLike[];
  readonly clock?: { now(): number; setTimeout(callback: () => void, delayMs: number): unknown; clearTimeout(handle: unknown): void };
  readonly onOccurrence?: (occurrence: FleetScheduleOccurrence) => void;
}

/** A directory's schedules served over a fleet (this host's part). */
export interface FleetSchedulesHandleLike {
  readonly queue: string;
  occurrences(): FleetScheduleOccurrence[];
  stop(): Promise<void>;
}
