import { CodeError } from '@a3s-lab/code-core';

import type { Database, QueryResult } from '../database.js';
import type { FleetRunStatus } from './fleet-types.js';
import { EventFlushTimer } from './event-flush-timer.js';
import { END_STATEMENT, END_WITH_SAVE_STATEMENT, eventsStatement, stepStatement, twoStepsStatement } from './pg-run-journal-sql.js';
import type { RunEventSequencer, SequencedEvent } from './run-event-sequencer.js';

/** What a journal step records. */
export type StepKind = 'model' | 'tool_start' | 'tool_outcome' | 'tool_reconciled' | 'tool_retry' | 'confirmation_request' | 'confirmation_answer' | 'result';

/** A step to write: its value already encoded. */
export interface EncodedStep {
  readonly key: string;
  readonly kind: StepKind;
  readonly text: string;
}

/** The session row update a run's end carries (`PostgresSessionStore.saveParams`). */
export interface SessionSave {
  readonly id: string;
  readonly text: string;
  readonly generation: number;
  readonly labels: string;
  readonly revision: string;
}

/** How a run ends (or stops for reconciliation): its status and the fields it sets. */
export interface RunEnd {
  readonly status: FleetRunStatus;
  readonly result?: unknown;
  readonly error?: unknown;
  readonly reconciliation?: unknown;
}

/**
 * The writes of one attempt of a fleet run, each one fenced statement: it first checks that the
 * attempt still owns the run (`attempts` and `status = running` under the run row's lock: a
 * worker that lost its lease cannot record anything), then writes the events taken so far (so
 * events never lag behind the steps they led to), then what it is for (steps numbered after the
 * run's last one, or the run's end), and notifies the run's readers. Writes go out one after the
 * other in call order; the first one that finds the run owned by another attempt stops every
 * later one ({@link lost}). Between writes, pending events go out on their own as the
 * {@link EventFlushTimer} says. The base snapshot set by {@link recordBase} rides with the
 * attempt's first write.
 */
export class FencedRunWrites {
  readonly #db: Database;
  readonly #runId: string;
  readonly #attempt: number;
  readonly #events: RunEventSequencer;
  readonly #onLost: (error: CodeError) => void;
  readonly #flushTimer = new EventFlushTimer(() => void this.#flushEvents().catch(() => undefined));
  #chain: Promise<void> = Promise.resolve();
  #lost: CodeError | null = null;
  #base: string | null = null;

  constructor(db: Database, runId: string, attempt: number, events: RunEventSequencer, onLost: (error: CodeError) => void) {
    this.#db = db;
    this.#runId = runId;
    this.#attempt = attempt;
    this.#events = events;
    this.#onLost = onLost;
  }

  /** The error that stopped this attempt's writes (another attempt owns the run), or `null`. */
  get lost(): CodeError | null {
    return this.#lost;
  }

  /** The snapshot (JSON text) the run starts from: written with the attempt's next write. */
  recordBase(snapshot: string): void {
    this.#base = snapshot;
  }

  /** An event was taken by the sequencer: it goes out with the next write, or on its own soon. */
  eventPending(): void {
    this.#flushTimer.pending();
  }

  /** Writes one step, or two numbered in order (an idempotent call's start and outcome). */
  steps(steps: readonly [EncodedStep] | readonly [EncodedStep, EncodedStep]): Promise<void> {
    return this.#serial(async () => {
      const events = this.#takeEvents();
      for (let tries = 0; ; tries += 1) {
        try {
          const base = this.#base;
          const params: unknown[] = [this.#runId, this.#attempt, JSON.stringify(events)];
          for (const step of steps) params.push(step.key, step.kind, step.text);
          if (base !== null) params.push(base);
          const result = await this.#query<{ owned: number }>(steps.length === 1 ? stepStatement(base) : twoStepsStatement(base), params);
          if (Number(result.rows[0]?.owned ?? 0) === 0) throw await this.#lostError();
          if (base !== null) this.#base = null;
          return;
        } catch (error) {
          // A step another process numbered at the same moment (a remote answer): number it again.
          if ((error as { code?: unknown }).code === '23505' && tries < 3 && !CodeError.isInstance(error)) continue;
          throw error;
        }
      }
    });
  }

  /**
   * The run's end: the fenced update of the run row (the UPDATE's own lock and re-check stand in
   * for `FOR UPDATE`) with the pending events, so the end and the run's last events commit together.
   */
  end(end: RunEnd): Promise<void> {
    return this.#serial(async () => {
      const events = this.#takeEvents();
      const final = end.status === 'completed' || end.status === 'failed' || end.status === 'cancelled';
      const result = await this.#query<{ owned: number }>(
        END_STATEMENT,
        [this.#runId, this.#attempt, end.status, jsonOrNull(end.result), jsonOrNull(end.error), jsonOrNull(end.reconciliation), final, JSON.stringify(events), this.#base],
      );
      if (Number(result.rows[0]?.owned ?? 0) === 0) throw await this.#lostError();
      this.#base = null;
    });
  }

  /**
   * The run's end together with its session's save (END_WITH_SAVE_STATEMENT): the session row's
   * new revision, or `null` when the row was at another revision than `save.revision` and the run
   * ended `failed` with `conflict`.
   */
  endWithSave(end: RunEnd & { readonly status: 'completed' | 'failed' | 'cancelled' }, save: SessionSave, conflict: { readonly code: string; readonly message: string }): Promise<string | null> {
    let revision: string | null = null;
    return this.#serial(async () => {
      const events = this.#takeEvents();
      const result = await this.#query<{ owned: number; revision: string | null }>(END_WITH_SAVE_STATEMENT, [
        this.#runId, this.#attempt, end.status, jsonOrNull(end.result), jsonOrNull(end.error), jsonOrNull(end.reconciliation), true, JSON.stringify(events), this.#base,
        save.id, save.text, save.generation, save.labels, save.revision, JSON.stringify(conflict),
      ]);
      if (Number(result.rows[0]?.owned ?? 0) === 0) throw await this.#lostError();
      this.#base = null;
      revision = result.rows[0]?.revision ?? null;
    }).then(() => revision);
  }

  /** Every write of the attempt: the events timer learns that a write (carrying the pending events) goes out. */
  #query<R>(sql: string, params: readonly unknown[]): Promise<QueryResult<R>> {
    this.#flushTimer.writing();
    return this.#db.query<R>(sql, params);
  }

  /** Writes the pending events alone (one fenced statement), when no step is coming to carry them. */
  #flushEvents(): Promise<void> {
    return this.#serial(async () => {
      const events = this.#takeEvents();
      if (events.length === 0) return;
      const base = this.#base;
      const result = await this.#query<{ owned: number }>(eventsStatement(base), [this.#runId, this.#attempt, JSON.stringify(events), ...(base === null ? [] : [base])]);
      if (Number(result.rows[0]?.owned ?? 0) === 0) throw await this.#lostError();
      if (base !== null) this.#base = null;
    });
  }

  #takeEvents(): SequencedEvent[] {
    this.#flushTimer.cancel();
    return this.#events.drain();
  }

  async #lostError(): Promise<CodeError> {
    const found = await this.#db.query<{ attempts: number; status: string }>('SELECT attempts, status FROM a3s_fleet_runs WHERE run_id = $1', [this.#runId]);
    const row = found.rows[0];
    return new CodeError('QUEUE_ERROR', `run '${this.#runId}': attempt ${this.#attempt} no longer owns the run (now attempt ${row?.attempts ?? '-'}, ${row?.status ?? 'deleted'}); its worker lost the lease`, {
      details: { runId: this.#runId, attempt: this.#attempt, leaseLost: true },
    });
  }

  /** Runs `fn` after every earlier write of this attempt; a lost lease stops every later one. */
  #serial(fn: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(async () => {
      if (this.#lost !== null) throw this.#lost;
      try {
        await fn();
      } catch (error) {
        if (CodeError.hasCode(error, 'QUEUE_ERROR') && error.details['leaseLost'] === true) {
          this.#lost = error;
          this.#onLost(error);
        }
        throw error;
      }
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
