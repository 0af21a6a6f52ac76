import type { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent, JournaledAnswer, JournaledToolCall, LlmStreamEvent, RunJournal, ToolOutput, ToolStartOptions } from '@a3s-lab/code-core';

import type { Database } from '../database.js';
import { FencedRunWrites } from './fenced-run-writes.js';
import type { EncodedStep, RunEnd, SessionSave, StepKind } from './fenced-run-writes.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { RunEventSequencer } from './run-event-sequencer.js';

export { EVENTS_CHANNEL } from './pg-run-journal-sql.js';
export type { RunEnd, SessionSave } from './fenced-run-writes.js';

interface StepRow {
  readonly key: string;
  readonly kind: StepKind;
  readonly value: unknown;
}

/**
 * The {@link RunJournal} of one attempt of a fleet run, over PostgreSQL or PGlite: what the run
 * recorded before (read once when the attempt starts; answers given from other processes are
 * read when asked for) and what this attempt records, each write one fenced statement
 * ({@link FencedRunWrites}: nothing is written once another attempt owns the run; the events
 * emitted so far ride with every write, and between steps go out on their own at most every
 * 100 ms). The start of an idempotent call is written with its outcome (two steps, one write):
 * lost with the call, it changes nothing, since such a call runs again on resume either way.
 *
 * Events are numbered and the regenerated ones of a resumed attempt dropped by its
 * {@link RunEventSequencer}.
 */
export class PgRunJournal implements RunJournal {
  readonly runId: string;
  readonly attempt: number;
  readonly #db: Database;
  readonly #steps = new Map<string, StepRow>();
  readonly #events: RunEventSequencer;
  readonly #writes: FencedRunWrites;
  /** Starts of idempotent calls not written yet (key -> encoded value): written with their outcomes. */
  readonly #deferredStarts = new Map<string, string>();
  #liveAfterReplay = false;
  /** The key of the run's last recorded step when the lost attempt's events did not reach the run's end (see modelResponse). */
  #tailStep: string | null = null;

  private constructor(db: Database, runId: string, attempt: number, events: RunEventSequencer, onLost: (error: CodeError) => void) {
    this.#db = db;
    this.runId = runId;
    this.attempt = attempt;
    this.#events = events;
    this.#writes = new FencedRunWrites(db, runId, attempt, events, onLost);
  }

  /**
   * The journal of `attempt`, with the run's recorded steps and its last event number loaded (one
   * statement). The first attempt of a run reads nothing: before a run's first claim nothing can
   * have been recorded for it (a confirmation answer needs a recorded request, a host's cancel
   * ends a queued run before any claim).
   */
  static async open(db: Database, runId: string, attempt: number, onLost: (error: CodeError) => void): Promise<PgRunJournal> {
    if (attempt === 1) return new PgRunJournal(db, runId, attempt, new RunEventSequencer(runId, 0), onLost);
    const found = await db.query<{ seq: number | null; ended: boolean; steps: StepRow[] | string; tasks: Record<string, number> | string }>(
      `SELECT (SELECT max(seq) FROM a3s_fleet_events WHERE run_id = $1) AS seq,
              EXISTS (SELECT 1 FROM a3s_fleet_events WHERE run_id = $1 AND event->>'type' = 'agent_end') AS ended,
              (SELECT coalesce(jsonb_object_agg(task, n), '{}'::jsonb) FROM (SELECT event->'payload'->>'task_id' AS task, count(*) AS n FROM a3s_fleet_events
                WHERE run_id = $1 AND event->'payload'->>'task_id' IS NOT NULL GROUP BY 1) t) AS tasks,
              (SELECT coalesce(jsonb_agg(jsonb_build_object('key', key, 'kind', kind, 'value', value) ORDER BY step), '[]'::jsonb) FROM a3s_fleet_steps WHERE run_id = $1) AS steps`,
      [runId],
    );
    const row = found.rows[0];
    const tasks = row === undefined ? {} : typeof row.tasks === 'string' ? (JSON.parse(row.tasks) as Record<string, number>) : row.tasks;
    const journal = new PgRunJournal(db, runId, attempt, new RunEventSequencer(runId, Number(row?.seq ?? 0), tasks), onLost);
    const steps = row === undefined ? [] : typeof row.steps === 'string' ? (JSON.parse(row.steps) as StepRow[]) : row.steps;
    for (const step of steps) journal.#remember(step);
    const last = steps.at(-1);
    if (last?.kind === 'model' && row?.ended !== true) journal.#tailStep = last.key;
    return journal;
  }

  /** The error that stopped this attempt's writes (another attempt owns the run), or `null`. */
  get lost(): CodeError | null {
    return this.#writes.lost;
  }

  /** The recorded result of a run whose final step was written (a crash between that and the run's end). */
  recordedResult(): unknown {
    return this.#steps.get(`result-${this.runId}`)?.value ?? null;
  }

  /**
   * The snapshot (JSON text) the run starts from, for a resumed attempt to start from too: written
   * with this attempt's first write (a step, events, or the end), so it costs no round trip of its
   * own. Until then nothing of the attempt is recorded, and an attempt that resumes the run
   * starts from the session as stored, as this one did.
   */
  recordBase(snapshot: string): void {
    this.#writes.recordBase(snapshot);
  }

  // ---- events --------------------------------------------------------------------------------

  /** Takes one event of the run, in emission order (synchronously, from the session's listener). */
  event(event: AgentEvent): void {
    if (this.#writes.lost !== null || !this.#events.take(event)) return;
    this.#writes.eventPending();
  }

  /** Writes the pending events and the run's end (`end`) in one fenced statement. */
  finish(end: RunEnd): Promise<void> {
    return this.#writes.end(end);
  }

  /**
   * The run's end together with its session's save (one fenced statement, see
   * END_WITH_SAVE_STATEMENT): resolves with the session row's new revision, or `null` when the
   * row was at another revision than `save.revision` and the run ended `failed` with `conflict`.
   */
  finishWithSave(end: RunEnd & { readonly status: 'completed' | 'failed' | 'cancelled' }, save: SessionSave, conflict: { readonly code: string; readonly message: string }): Promise<string | null> {
    return this.#writes.endWithSave(end, save, conflict);
  }

  // ---- RunJournal ----------------------------------------------------------------------------

  modelResponse(key: string): Promise<readonly LlmStreamEvent[] | null> {
    const row = this.#steps.get(key);
    if (row === undefined) {
      this.#liveAfterReplay = this.#events.replaying;
      this.#goLive();
      return Promise.resolve(null);
    }
    const events = decodeJson<LlmStreamEvent[]>(row.value);
    if (this.#events.replaying && key === this.#tailStep) {
      // The lost attempt recorded this response, the run's last step, and died before its events
      // reached the run's end (what it wrote after the step, if anything, is a draft): the turn is
      // streamed again from the record (the model is not asked), marked as a resumed attempt so
      // that readers drop the draft, and the events go on from there to the end.
      this.#goLive();
      return Promise.resolve([{ type: 'attempt_start', attempt: 2, retryReason: 'resumed' }, ...events]);
    }
    return Promise.resolve(events);
  }

  liveAfterReplay(): boolean {
    const value = this.#liveAfterReplay;
    this.#liveAfterReplay = false;
    return value;
  }

  recordModelResponse(key: string, events: readonly LlmStreamEvent[]): Promise<void> {
    return this.#step(key, 'model', events);
  }

  toolCall(key: string, options?: { readonly resumable?: boolean }): Promise<JournaledToolCall | null> {
    const row = this.#steps.get(key);
    // A started call goes on live (it executes again, or stops the run for reconciliation); a
    // resumable one (a subagent task) is entered again and replays its own steps first.
    if (row === undefined || row.kind === 'tool_retry' || row.kind === 'tool_reconciled' || (row.kind === 'tool_start' && options?.resumable !== true)) this.#goLive();
    if (row === undefined) return Promise.resolve(null);
    if (row.kind === 'tool_outcome' || row.kind === 'tool_reconciled') return Promise.resolve({ outcome: decodeJson<ToolOutput>(row.value), retry: false });
    if (row.kind === 'tool_start') {
      // The start carries the recording worker's clock (a resumed call's deadline is measured from it).
      const { startedAt } = decodeJson<{ startedAt?: unknown }>(row.value);
      return Promise.resolve({ outcome: null, retry: false, ...(typeof startedAt === 'number' ? { startedAt } : {}) });
    }
    return Promise.resolve({ outcome: null, retry: row.kind === 'tool_retry' });
  }

  recordToolStart(key: string, call: { readonly toolName: string; readonly args: unknown }, options?: ToolStartOptions): Promise<void> {
    const start = { ...call, startedAt: Date.now() };
    if (options?.idempotent !== true) return this.#step(key, 'tool_start', start);
    this.#deferredStarts.set(key, encodeJson(start));
    return Promise.resolve();
  }

  recordToolOutcome(key: string, outcome: ToolOutput): Promise<void> {
    const start = this.#deferredStarts.get(key);
    if (start === undefined) return this.#step(key, 'tool_outcome', outcome);
    this.#deferredStarts.delete(key);
    return this.#writeSteps([{ key, kind: 'tool_start', text: start }, { key, kind: 'tool_outcome', text: encodeJson(outcome) }]);
  }

  async confirmationAnswer(toolId: string): Promise<JournaledAnswer | null> {
    const key = confirmationKey(toolId);
    const known = this.#steps.get(key);
    if (known?.kind === 'confirmation_answer') return decodeJson<JournaledAnswer>(known.value);
    const row = await this.#db.query<{ value: unknown }>("SELECT value FROM a3s_fleet_steps WHERE run_id = $1 AND key = $2 AND kind = 'confirmation_answer' ORDER BY step DESC LIMIT 1", [this.runId, key]);
    const answer = row.rows[0];
    if (answer === undefined) {
      this.#goLive();
      return null;
    }
    return decodeJson<JournaledAnswer>(answer.value);
  }

  recordConfirmationRequest(toolId: string, request: { readonly toolName: string; readonly args: unknown }): Promise<void> {
    return this.#step(confirmationKey(toolId), 'confirmation_request', request);
  }

  recordConfirmationAnswer(toolId: string, answer: JournaledAnswer): Promise<void> {
    return this.#step(confirmationKey(toolId), 'confirmation_answer', answer);
  }

  /** Records the run's result before the session is saved (a crash in between replays to it). */
  recordResult(result: unknown): Promise<void> {
    return this.#step(`result-${this.runId}`, 'result', result);
  }

  // ---- writes --------------------------------------------------------------------------------

  #goLive(): void {
    this.#events.goLive();
  }

  #remember(row: StepRow): void {
    this.#steps.set(row.key, row);
  }

  #step(key: string, kind: StepKind, value: unknown): Promise<void> {
    return this.#writeSteps([{ key, kind, text: encodeJson(value) }]);
  }

  /** Writes one step, or two numbered in order (an idempotent call's start and outcome), and keeps them for this attempt. */
  async #writeSteps(steps: readonly [EncodedStep] | readonly [EncodedStep, EncodedStep]): Promise<void> {
    await this.#writes.steps(steps);
    for (const step of steps) this.#remember({ key: step.key, kind: step.kind, value: step.text });
  }
}

/** The journal key of a confirmation. */
export function confirmationKey(toolId: string): string {
  return `confirmation-${toolId}`;
}
