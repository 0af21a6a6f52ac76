import { createAgentEvent, toCodeError } from '@a3s-lab/code-core';
import type { AgentEvent, SessionSnapshotV1, SessionStore } from '@a3s-lab/code-core';

/** A snapshot without its generation stamp: what the session captures. */
export type SnapshotDraft = Omit<SessionSnapshotV1, 'generation' | 'savedAtMs'>;

/** What {@link SessionPersistence} works with. */
export interface SessionPersistenceOptions {
  readonly store: SessionStore;
  /** Captures the session's state synchronously (a consistent point between two writes). */
  readonly capture: () => SnapshotDraft;
  /** Receives `persistence_failed`. */
  readonly emit: (event: AgentEvent) => void;
  /** Generation of the snapshot the session was restored from (0 for a new session). */
  readonly generation?: number;
  readonly autoSave: boolean;
}

interface Waiter {
  resolve(snapshot: SessionSnapshotV1): void;
  /** `operations`: the completed operations whose state the failed write held. */
  reject(error: unknown, operations: readonly string[]): void;
}

/** A capture waiting for the writer: later captures replace it (they hold everything it held). */
interface PendingWrite {
  draft: SnapshotDraft;
  /** Publishes generation 0 (a new session's first document) instead of the next generation. */
  initial: boolean;
  readonly waiters: Waiter[];
  readonly operations: string[];
}

/**
 * Publishes the session's generations to its store, one write at a time and in order. State is
 * captured when `save()` / an operation ends, synchronously; the write happens on a single
 * writer. Captures made while a write is in flight are coalesced: the next write publishes the
 * newest state once, so bursts of operations cost one write, never a queue of stale ones.
 * Published generations are consecutive (a failed write does not use up a number).
 */
export class SessionPersistence {
  readonly store: SessionStore;
  readonly autoSave: boolean;
  readonly #capture: () => SnapshotDraft;
  readonly #emit: (event: AgentEvent) => void;
  #generation: number;
  #pending: PendingWrite | null = null;
  #writer: Promise<void> | null = null;
  /** A generation exists in the store (restored from one, or one was written). */
  #published: boolean;

  constructor(options: SessionPersistenceOptions) {
    this.store = options.store;
    this.autoSave = options.autoSave;
    this.#capture = options.capture;
    this.#emit = options.emit;
    this.#generation = options.generation ?? 0;
    this.#published = options.generation !== undefined && options.generation > 0;
  }

  /** The generation of the last published snapshot (0 before the first of a new session). */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Captures now and resolves once a generation holding this state (or a later one) is
   * published; rejects with the store's error.
   */
  save(): Promise<SessionSnapshotV1> {
    return new Promise<SessionSnapshotV1>((resolve, reject) => this.#enqueue({ resolve, reject }, 'save'));
  }

  /**
   * Publishes a new session as generation 0, so it can be resumed before its first operation;
   * later saves are 1, 2... A failed write rejects and emits `persistence_failed` with
   * `operation: 'open'`. Does nothing for a restored session or once anything was published or
   * queued.
   */
  publishInitial(): Promise<void> {
    if (this.#published || this.#pending !== null || this.#writer !== null) return Promise.resolve();
    const background = this.#backgroundWaiter('open');
    return new Promise<void>((resolve, reject) =>
      this.#enqueue(
        {
          resolve: () => resolve(),
          reject: (thrown, operations) => {
            background.reject(thrown, operations);
            reject(thrown);
          },
        },
        'open',
        true,
      ),
    );
  }

  /**
   * With `autoSave`, captures the state after a completed operation and publishes it in the
   * background (see {@link flush}). A failed write emits `persistence_failed {operation,
   * operations, store, code, message}`; the operation's result stands.
   */
  afterOperation(operation: string): void {
    if (!this.autoSave) return;
    this.#enqueue(this.#backgroundWaiter(operation), operation);
  }

  /** A waiter nobody awaits: a failed write is reported as `persistence_failed`. */
  #backgroundWaiter(operation: string): Waiter {
    return {
      resolve: () => undefined,
      reject: (thrown, operations) => {
        const error = toCodeError(thrown, 'IO_ERROR');
        this.#emit(createAgentEvent('persistence_failed', { operation, operations, store: this.store.name, code: error.code, message: error.message }));
      },
    };
  }

  /** Resolves when every capture made so far is published (or has failed). */
  async flush(): Promise<void> {
    while (this.#writer !== null) await this.#writer;
  }

  #enqueue(waiter: Waiter, operation: string, initial = false): void {
    const draft = this.#capture();
    if (this.#pending === null) this.#pending = { draft, initial, waiters: [waiter], operations: [operation] };
    else {
      this.#pending.draft = draft;
      // State captured after the open is a real generation.
      this.#pending.initial = false;
      this.#pending.waiters.push(waiter);
      this.#pending.operations.push(operation);
    }
    this.#writer ??= this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      for (let job = this.#pending; job !== null; job = this.#pending) {
        this.#pending = null;
        const snapshot: SessionSnapshotV1 = { ...job.draft, generation: job.initial ? 0 : this.#generation + 1, savedAtMs: Date.now() };
        try {
          await this.store.save(snapshot);
        } catch (error) {
          for (const w of job.waiters) w.reject(error, job.operations);
          continue;
        }
        this.#generation = snapshot.generation;
        this.#published = true;
        for (const w of job.waiters) w.resolve(snapshot);
      }
    } finally {
      this.#writer = null;
    }
  }
}
