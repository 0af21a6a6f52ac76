import type { Database, Listener } from '../database.js';
import { EVENTS_CHANNEL } from './pg-run-journal-sql.js';

/** How much longer a reader's poll is while the LISTEN connection is up (the poll is then a safety net only). */
export const LISTENING_POLL_FACTOR = 10;

/** The readers of one run in this process: the notifications seen, the readers waiting for the next one. */
interface RunReaders {
  readers: number;
  notified: number;
  readonly waiters: Set<() => void>;
}

/** One reader of a run: what {@link readEvents} waits with (see `EventReader`). */
export interface RunWakeup {
  /** The run's notifications seen so far: taken before a look, passed to {@link wait}. */
  mark(): number;
  /** Resolves at once when the run was notified since `mark`, else on its next notification, after the poll, or on abort. */
  wait(mark: number, signal: AbortSignal | undefined): Promise<void>;
  /** The reader is done (idempotent). */
  release(): void;
}

/**
 * Wakes the readers of fleet runs in one process: one LISTEN on the events channel for all of
 * them, taken by the first reader (a worker never reads events), again after a failure or a lost
 * connection. Every
 * write and status change of a run notifies it; a reader's poll is every `pollMs` x
 * {@link LISTENING_POLL_FACTOR} while that LISTEN connection is live, every `pollMs` once it is lost.
 */
export class RunWakeups {
  readonly #db: Database;
  readonly #pollMs: number;
  readonly #runs = new Map<string, RunReaders>();
  #listener: Promise<Listener> | null = null;
  /** The LISTEN once active. */
  #listening: Listener | null = null;

  constructor(db: Database, pollMs: number) {
    this.#db = db;
    this.#pollMs = pollMs;
  }

  /**
   * The events channel's LISTEN, taken once before a reader's first look, and again after a
   * failure or once its connection was lost (the lost one is given up first, so the new LISTEN
   * gets a fresh connection; readers already waiting poll at `pollMs` until then).
   */
  async listen(): Promise<void> {
    const current = this.#listening;
    if (current !== null && !current.live()) {
      this.#listening = null;
      this.#listener = null;
      await current.unlisten();
    }
    const listening = (this.#listener ??= this.#db.listen(EVENTS_CHANNEL, (runId) => this.#wake(runId)));
    try {
      this.#listening = await listening;
    } catch (error) {
      if (this.#listener === listening) this.#listener = null;
      throw error;
    }
  }

  /** A new reader of `runId`. */
  reader(runId: string): RunWakeup {
    let run = this.#runs.get(runId);
    if (run === undefined) this.#runs.set(runId, (run = { readers: 0, notified: 0, waiters: new Set() }));
    const readers = run;
    readers.readers += 1;
    let released = false;
    return {
      mark: () => readers.notified,
      wait: (mark, signal) => this.#waitFor(readers, mark, signal),
      release: () => {
        if (released) return;
        released = true;
        readers.readers -= 1;
        if (readers.readers === 0 && this.#runs.get(runId) === readers) this.#runs.delete(runId);
      },
    };
  }

  /** Ends the LISTEN and wakes every waiting reader (which then sees the fleet closed). */
  async close(): Promise<void> {
    await (await this.#listener?.catch(() => null))?.unlisten();
    for (const run of this.#runs.values()) for (const wake of run.waiters) wake();
  }

  #wake(runId: string): void {
    const run = this.#runs.get(runId);
    if (run === undefined) return;
    run.notified += 1;
    for (const wake of run.waiters) wake();
  }

  #waitFor(run: RunReaders, mark: number, signal: AbortSignal | undefined): Promise<void> {
    if (run.notified !== mark || signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        run.waiters.delete(done);
        resolve();
      };
      // While the LISTEN connection is up every write of the run wakes its readers (and readers
      // never miss one: see `mark`); the poll then only covers what no notification announces.
      const timer = setTimeout(done, this.#listening?.live() === true ? this.#pollMs * LISTENING_POLL_FACTOR : this.#pollMs);
      signal?.addEventListener('abort', done, { once: true });
      run.waiters.add(done);
    });
  }
}
