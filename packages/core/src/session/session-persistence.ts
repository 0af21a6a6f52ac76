import { toCodeError } from '../errors/to-code-error.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { SessionSnapshotV1 } from './session-snapshot.js';
import type { SessionStore } from './session-store.js';

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

/**
 * Publishes the session's generations to its store, one at a time and in order: a later save
 * never lands before an earlier one. The snapshot is captured when `save()` is called, so it is
 * the state at that instant even if the session moves on while the store writes.
 */
export class SessionPersistence {
  readonly store: SessionStore;
  readonly autoSave: boolean;
  readonly #capture: () => SnapshotDraft;
  readonly #emit: (event: AgentEvent) => void;
  #generation: number;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: SessionPersistenceOptions) {
    this.store = options.store;
    this.autoSave = options.autoSave;
    this.#capture = options.capture;
    this.#emit = options.emit;
    this.#generation = options.generation ?? 0;
  }

  /** The generation of the last captured snapshot. */
  get generation(): number {
    return this.#generation;
  }

  /** Captures now and publishes; rejects with the store's error. */
  save(): Promise<SessionSnapshotV1> {
    this.#generation += 1;
    const snapshot: SessionSnapshotV1 = { ...this.#capture(), generation: this.#generation, savedAtMs: Date.now() };
    const saved = this.#chain.then(() => this.store.save(snapshot)).then(() => snapshot);
    this.#chain = saved.catch(() => undefined);
    return saved;
  }

  /**
   * With `autoSave`, saves after a completed operation. Never rejects: a failed save emits
   * `persistence_failed {operation, code, message, store}` and the operation's result stands.
   */
  async afterOperation(operation: string): Promise<void> {
    if (!this.autoSave) return;
    try {
      await this.save();
    } catch (thrown) {
      const error = toCodeError(thrown, 'IO_ERROR');
      this.#emit(createAgentEvent('persistence_failed', { operation, store: this.store.name, code: error.code, message: error.message }));
    }
  }

  /** Resolves when every save started so far has settled. */
  async flush(): Promise<void> {
    await this.#chain;
  }
}
