// Remote control of fleet runs: a host's cancel and confirmation answers (any process), and the
// worker side that applies them to the runs this process executes (NOTIFY, and a poll as the floor).
import type { Database, Listener } from '../database.js';
import { prepared } from '../prepared-statements.js';
import type { FleetRunStatus } from './fleet-types.js';
import { setStatus, terminalError } from './fleet-worker.js';
import type { ActiveRun } from './fleet-worker.js';
import { confirmationKey } from './pg-run-journal.js';

/** Channel cancel and confirm notify (payload: the run id). */
export const CONTROL_CHANNEL = 'a3s_fleet_control';

const CANCELS_SQL = prepared('SELECT run_id FROM a3s_fleet_runs WHERE run_id = ANY($1::text[]) AND cancel_requested');

/**
 * Cancels a run from any process: a running run is flagged and its worker notified; a queued run
 * (or one waiting for reconciliation) ends here, with its terminal event. `false` when the run is
 * unknown or already over.
 */
export async function requestCancel(db: Database, runId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const found = await tx.query<{ status: FleetRunStatus }>('SELECT status FROM a3s_fleet_runs WHERE run_id = $1 FOR UPDATE', [runId]);
    const status = found.rows[0]?.status;
    if (status === undefined || status === 'completed' || status === 'failed' || status === 'cancelled') return false;
    if (status === 'running') {
      await tx.query('UPDATE a3s_fleet_runs SET cancel_requested = true, updated_at = now() WHERE run_id = $1', [runId]);
      await tx.query('SELECT pg_notify($1, $2)', [CONTROL_CHANNEL, runId]);
      return true;
    }
    // Queued or waiting for reconciliation: nobody runs it, it ends here.
    const last = await tx.query<{ seq: number | null }>('SELECT max(seq) AS seq FROM a3s_fleet_events WHERE run_id = $1', [runId]);
    const event = terminalError(runId, 'SESSION_ERROR', 'run cancelled: cancelled by host', { cancelled: true });
    const seq = Number(last.rows[0]?.seq ?? 0) + 1;
    await tx.query('INSERT INTO a3s_fleet_events (run_id, seq, event, attempt) VALUES ($1, $2, $3::jsonb, 0)', [runId, seq, JSON.stringify({ ...event, metadata: { ...event.metadata, sequence: seq, run_id: runId } })]);
    await setStatus(tx, runId, 'cancelled', { error: { code: 'SESSION_ERROR', message: 'run cancelled: cancelled by host' } });
    return true;
  });
}

/**
 * Records the answer to a pending confirmation of a run (a journal step) and notifies its worker.
 * `false` when the call has no pending confirmation (unknown, already answered, run over).
 */
export async function recordAnswer(db: Database, runId: string, toolId: string, approved: boolean, reason: string | undefined): Promise<boolean> {
  const key = confirmationKey(toolId);
  return db.transaction(async (tx) => {
    const found = await tx.query<{ status: FleetRunStatus; attempts: number }>('SELECT status, attempts FROM a3s_fleet_runs WHERE run_id = $1 FOR UPDATE', [runId]);
    const run = found.rows[0];
    if (run === undefined || (run.status !== 'running' && run.status !== 'queued')) return false;
    const steps = await tx.query<{ kind: string }>('SELECT kind FROM a3s_fleet_steps WHERE run_id = $1 AND key = $2', [runId, key]);
    if (!steps.rows.some((s) => s.kind === 'confirmation_request') || steps.rows.some((s) => s.kind === 'confirmation_answer')) return false;
    await tx.query(
      `INSERT INTO a3s_fleet_steps (run_id, step, key, kind, value, attempt)
       SELECT $1, coalesce(max(step), 0) + 1, $2, 'confirmation_answer', $3::jsonb, $4 FROM a3s_fleet_steps WHERE run_id = $1`,
      [runId, key, JSON.stringify({ approved, ...(reason === undefined ? {} : { reason }) }), Number(run.attempts)],
    );
    await tx.query('SELECT pg_notify($1, $2)', [CONTROL_CHANNEL, runId]);
    return true;
  });
}

/**
 * The worker side: cancels and remote answers reach the runs of this process (`active`) through
 * NOTIFY on {@link CONTROL_CHANNEL}, and a poll every `pollMs` (while runs are active) as the floor
 * for a notification missed (a connection lost and taken again).
 */
export class RunControl {
  readonly #db: Database;
  readonly #active: ReadonlyMap<string, ActiveRun>;
  readonly #pollMs: number;
  #listener: Listener | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #starting: Promise<void> | null = null;

  constructor(db: Database, active: ReadonlyMap<string, ActiveRun>, pollMs: number) {
    this.#db = db;
    this.#active = active;
    this.#pollMs = pollMs;
  }

  /** Starts listening and polling (once). */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      this.#listener = await this.#db.listen(CONTROL_CHANNEL, (runId) => {
        const active = this.#active.get(runId);
        if (active !== undefined) void this.#apply([active]).catch(() => undefined);
      });
      this.#timer = setInterval(() => {
        if (this.#active.size > 0) void this.#apply([...this.#active.values()]).catch(() => undefined);
      }, this.#pollMs);
      this.#timer.unref?.();
    })();
    return this.#starting;
  }

  /** Stops listening and polling. */
  async stop(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#listener?.unlisten();
    this.#listener = null;
  }

  async #apply(runs: readonly ActiveRun[]): Promise<void> {
    const ids = runs.map((r) => r.runId);
    const cancels = await this.#db.query<{ run_id: string }>(CANCELS_SQL, [ids]);
    for (const row of cancels.rows) {
      const active = this.#active.get(row.run_id);
      if (active === undefined || active.cancelling) continue;
      active.cancelling = true;
      void active.session.cancelAsync().catch(() => undefined);
    }
    for (const active of runs) {
      if (active.cancelling) continue;
      const pending = await active.session.pendingConfirmations();
      if (pending.length === 0) continue;
      const answers = await this.#db.query<{ key: string; value: { approved: boolean; reason?: string } }>(
        "SELECT key, value FROM a3s_fleet_steps WHERE run_id = $1 AND kind = 'confirmation_answer' AND key = ANY($2::text[])",
        [active.runId, pending.map((p) => confirmationKey(p.toolId))],
      );
      for (const answer of answers.rows) {
        await active.session.confirmToolUse(answer.key.slice('confirmation-'.length), answer.value.approved, answer.value.reason);
      }
    }
  }
}
