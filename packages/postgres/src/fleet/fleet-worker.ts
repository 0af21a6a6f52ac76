import { CodeError, createAgentEvent, parseSessionSnapshotText, toCodeError } from '@a3s-lab/code-core';
import type { AgentEvent, SendResult, SessionSnapshotV1, SessionStore } from '@a3s-lab/code-core';

import type { Database, DatabaseOptions, Queryable } from '../database.js';
import { PostgresSessionStore } from '../postgres-session-store.js';
import { prepared } from '../prepared-statements.js';
import type { FleetAgent, FleetRunStatus, FleetSession } from './fleet-types.js';
import { EVENTS_CHANNEL, PgRunJournal } from './pg-run-journal.js';

/** Label a saved session carries: the fleet run whose result it holds. */
export const FLEET_RUN_LABEL = 'a3s.fleet.run';

/** A run this process executes right now (what cancel and remote confirmations reach). */
export interface ActiveRun {
  readonly runId: string;
  readonly session: FleetSession;
  readonly journal: PgRunJournal;
  cancelling: boolean;
}

/** What a worker runs runs with. */
export interface WorkerContext {
  readonly db: Database;
  readonly storeOptions: DatabaseOptions;
  /** The fleet's session store (one for every run: it remembers each session's row revision). */
  readonly store: PostgresSessionStore;
  readonly agent: FleetAgent;
  readonly workerId: string;
  readonly active: Map<string, ActiveRun>;
  /** Runs this process executes, from before their claim to their end (see {@link executeRun}). */
  readonly executing: Map<string, Promise<void>>;
}

interface Claim {
  readonly attempt: number;
  readonly sessionId: string;
  readonly prompt: string;
  readonly base: string | null;
  readonly cancelRequested: boolean;
  /** The session's row as the claim read it (`null`: not stored). */
  readonly session: { readonly document: string; readonly revision: string } | null;
}

/**
 * Executes (or resumes) one run to its end on this process: claims the next attempt, resumes the
 * session from the snapshot the run started from, replays the journal and runs live from the
 * first unrecorded step, then writes the outcome. Returns without touching the run when it is
 * already over, or when another attempt took it over meanwhile (this worker lost its lease).
 * A run that cannot go on here fails with the error; rejects only when the database cannot
 * record that (pg-boss then retries the job).
 */
export async function executeRun(ctx: WorkerContext, runId: string): Promise<void> {
  // A second delivery of a run this process already executes (a job handed out again while its
  // first holder still runs it: a heartbeat that came late on a loaded machine, a host's requeue)
  // does not take the run from its own live attempt: it waits for that attempt's end and holds its
  // job meanwhile, so the run keeps a job (and a lease) if this process dies.
  const executing = ctx.executing.get(runId);
  if (executing !== undefined) return executing;
  const execution = executeClaimed(ctx, runId);
  ctx.executing.set(runId, execution);
  try {
    await execution;
  } finally {
    if (ctx.executing.get(runId) === execution) ctx.executing.delete(runId);
  }
}

async function executeClaimed(ctx: WorkerContext, runId: string): Promise<void> {
  const claim = await claimRun(ctx, runId);
  if (claim === null) return;
  let session: FleetSession | null = null;
  const journal = await PgRunJournal.open(ctx.db, runId, claim.attempt, () => {
    const active = ctx.active.get(runId);
    if (active !== undefined) void active.session.cancelAsync().catch(() => undefined);
  });
  try {
    if (claim.cancelRequested) {
      journal.event(terminalError(runId, 'SESSION_ERROR', 'run cancelled before it started', { cancelled: true }));
      await journal.finish({ status: 'cancelled', error: { code: 'SESSION_ERROR', message: 'run cancelled before it started' } });
      return;
    }
    const store = ctx.store;
    {
      const latest = store.adopt(claim.sessionId, claim.session);
      if (latest === null) {
        const message = `session '${claim.sessionId}' is not in the fleet's session store`;
        journal.event(terminalError(runId, 'SESSION_ERROR', message, {}));
        await journal.finish({ status: 'failed', error: { code: 'SESSION_ERROR', message } });
        return;
      }
      const recorded = journal.recordedResult();
      if (recorded !== null && latest.labels[FLEET_RUN_LABEL] === runId) {
        // The previous attempt saved the session and died before writing the end.
        await journal.finish({ status: 'completed', result: recorded });
        return;
      }
      // The run's first claim recorded the snapshot it starts from (the session row's document,
      // copied by the database): the first attempt starts from it as loaded (no second parse), a
      // resumed attempt from the recorded one.
      const base = claim.base === null ? latest : parseSessionSnapshotText(claim.base, { store: store.name, sessionId: claim.sessionId });
      const deferral: SaveDeferral = { on: false, snapshot: null };
      session = await ctx.agent.resumeSessionAsync(claim.sessionId, { sessionStore: baseStore(store, base, deferral), autoSave: false });
      const active: ActiveRun = { runId, session, journal, cancelling: false };
      ctx.active.set(runId, active);
      let capturing = true;
      const unsubscribe = session.onEvent((event) => {
        if (capturing) journal.event(event);
      });
      let outcome: { ok: true; result: SendResult } | { ok: false; error: CodeError };
      try {
        outcome = { ok: true, result: await session.send({ prompt: claim.prompt, journal }) };
      } catch (error) {
        outcome = { ok: false, error: toCodeError(error) };
      } finally {
        capturing = false;
        unsubscribe();
        ctx.active.delete(runId);
      }
      if (journal.lost !== null) return;
      await finishRun(store, runId, journal, session, deferral, outcome, active.cancelling);
    }
  } catch (error) {
    if (journal.lost !== null) return;
    // The run cannot go on here (its session does not open, the store refuses it...): it fails
    // with the error, instead of pg-boss retrying it forever. Only when even that write fails
    // (the database is gone) does the job fail, to be retried.
    const failure = toCodeError(error);
    journal.event(terminalError(runId, failure.code, failure.message, {}));
    await journal.finish({ status: 'failed', error: { code: failure.code, message: failure.message } });
  } finally {
    await session?.closeAsync().catch(() => undefined);
  }
}

/**
 * Takes the run's next attempt in one statement (the UPDATE locks the row, so two claims of one
 * run are serialised and the second sees the first's attempt), reading the run's session row in
 * the same statement: `null` when the run is over or waits for the host, and the job has nothing
 * to do. The first claim records the run's base snapshot (the session row's document, copied in
 * the database: nothing crosses the wire twice); a later attempt gets it back.
 */
const CLAIM_SQL = prepared(`UPDATE a3s_fleet_runs r SET status = 'running', attempts = attempts + 1, worker_id = $2, updated_at = now(),
        base_snapshot = coalesce(r.base_snapshot, (SELECT document FROM a3s_sessions s WHERE s.session_id = r.session_id))
      WHERE run_id = $1 AND status IN ('queued', 'running')
      RETURNING attempts, session_id, request, CASE WHEN attempts > 1 THEN base_snapshot END AS base_snapshot, cancel_requested,
        (SELECT document FROM a3s_sessions s WHERE s.session_id = r.session_id) AS document,
        (SELECT revision::text FROM a3s_sessions s WHERE s.session_id = r.session_id) AS revision`);

async function claimRun(ctx: WorkerContext, runId: string): Promise<Claim | null> {
  const claimed = await ctx.db.query<{ attempts: number; session_id: string; request: { prompt: string }; base_snapshot: string | null; cancel_requested: boolean; document: string | null; revision: string | null }>(CLAIM_SQL, [runId, ctx.workerId]);
  const row = claimed.rows[0];
  if (row === undefined) return null;
  return { attempt: Number(row.attempts), sessionId: row.session_id, prompt: row.request.prompt, base: row.base_snapshot, cancelRequested: row.cancel_requested,
    session: row.document === null || row.revision === null ? null : { document: row.document, revision: row.revision } };
}

/**
 * The run's end. Its session's save is written by the end's own statement (the save's snapshot is
 * captured from `session.save()` through the deferral): the session row and the run's end commit
 * together, so no crash falls between them; a save conflict fails the run. A session this store
 * has no revision of (not expected: the claim read its row) is saved first, the result recorded
 * before (a crash in between replays to it).
 */
async function finishRun(store: PostgresSessionStore, runId: string, journal: PgRunJournal, session: FleetSession, deferral: SaveDeferral, outcome: { ok: true; result: SendResult } | { ok: false; error: CodeError }, cancelling: boolean): Promise<void> {
  if (!outcome.ok && outcome.error.details['needs_reconciliation'] === true) {
    const reconciliation = { toolId: String(outcome.error.details['tool_id']), toolName: String(outcome.error.details['tool_name']) };
    await journal.finish({ status: 'needs_reconciliation', reconciliation, error: { code: outcome.error.code, message: outcome.error.message } });
    return;
  }
  const result = outcome.ok ? { text: outcome.result.text, turns: outcome.result.turns, toolCallsCount: outcome.result.toolCallsCount } : null;
  const cancelled = !outcome.ok && (cancelling || outcome.error.details['cancelled'] === true);
  const end = outcome.ok ? { status: 'completed' as const, result } : { status: cancelled ? ('cancelled' as const) : ('failed' as const), error: { code: outcome.error.code, message: outcome.error.message } };
  session.setLabel(FLEET_RUN_LABEL, runId);
  let saveError: CodeError | null = null;
  deferral.on = true;
  try {
    await session.save();
  } catch (error) {
    saveError = toCodeError(error);
  } finally {
    deferral.on = false;
  }
  const captured = deferral.snapshot;
  deferral.snapshot = null;
  const save = saveError === null && captured !== null ? store.saveParams(captured) : null;
  if (save !== null) {
    const conflict = toCodeError(store.conflict(save.id));
    const revision = await journal.finishWithSave(end, save, { code: conflict.code, message: `the run ended but its session could not be saved: ${conflict.message}` });
    if (revision !== null) store.adoptSaved(save.id, revision);
    return;
  }
  if (saveError === null && captured !== null) {
    if (result !== null) await journal.recordResult(result);
    try {
      await store.save(captured);
    } catch (error) {
      saveError = toCodeError(error);
    }
  }
  if (saveError !== null) {
    await journal.finish({ status: 'failed', error: { code: saveError.code, message: `the run ended but its session could not be saved: ${saveError.message}` } });
    return;
  }
  await journal.finish(end);
}

/**
 * Sets a run's end (or `needs_reconciliation`) outside the journal, and wakes the run's readers
 * in the same statement (they wait for its status as well as its events).
 */
export async function setStatus(tx: Queryable, runId: string, status: FleetRunStatus, fields: { readonly result?: unknown; readonly error?: unknown; readonly reconciliation?: unknown }): Promise<void> {
  const final = status === 'completed' || status === 'failed' || status === 'cancelled';
  await tx.query(
    `WITH changed AS (
       UPDATE a3s_fleet_runs SET status = $2, result = $3::jsonb, error = $4::jsonb, reconciliation = $5::jsonb, updated_at = now(), finished_at = ${final ? 'now()' : 'NULL'} WHERE run_id = $1
       RETURNING run_id
     )
     SELECT pg_notify('${EVENTS_CHANNEL}', run_id) FROM changed`,
    [runId, status, fields.result === undefined ? null : JSON.stringify(fields.result), fields.error === undefined ? null : JSON.stringify(fields.error), fields.reconciliation === undefined ? null : JSON.stringify(fields.reconciliation)],
  );
}

/** The `error` event a run ends with when it never reached a session. */
export function terminalError(runId: string, code: string, message: string, details: Record<string, unknown>): AgentEvent {
  return createAgentEvent('error', { run_id: runId, code, message, details });
}

/** While `on`, the run's session saves into `snapshot` (written by the run's end) instead of the store. */
interface SaveDeferral {
  on: boolean;
  snapshot: SessionSnapshotV1 | null;
}

/** The store an attempt opens its session from: loads the run's base snapshot, saves to the real store (or the deferral). */
function baseStore(store: PostgresSessionStore, base: SessionSnapshotV1, deferral: SaveDeferral): SessionStore {
  return {
    name: store.name,
    capabilities: store.capabilities,
    load: (sessionId) => Promise.resolve(sessionId === base.sessionId ? structuredClone(base) : null),
    save: (snapshot) => {
      if (!deferral.on) return store.save(snapshot);
      deferral.snapshot = snapshot;
      return Promise.resolve();
    },
    delete: (sessionId) => store.delete(sessionId),
    list: () => store.list(),
  };
}
