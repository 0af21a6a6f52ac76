import { parseSessionSnapshotText, serializeSessionSnapshot } from './session-snapshot.js';
import type { SessionSnapshotV1 } from './session-snapshot.js';
import { validateSessionId } from './session-store.js';
import type { SessionStore, SessionStoreCapabilities, SessionStoreEntry } from './session-store.js';

/**
 * A process-local {@link SessionStore}. Documents are kept serialised, so a loaded snapshot
 * never aliases the saving session's state and a save is one atomic swap of a string.
 */
export class MemorySessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: true, durable: false });
  readonly #documents = new Map<string, { readonly text: string; readonly updatedAtMs: number }>();

  constructor(name = 'memory') {
    this.name = name;
  }

  async save(snapshot: SessionSnapshotV1): Promise<void> {
    const id = validateSessionId(snapshot.sessionId, this.name);
    this.#documents.set(id, { text: serializeSessionSnapshot(snapshot), updatedAtMs: Date.now() });
  }

  async load(sessionId: string): Promise<SessionSnapshotV1 | null> {
    return this.loadSync(sessionId);
  }

  loadSync(sessionId: string): SessionSnapshotV1 | null {
    const id = validateSessionId(sessionId, this.name);
    const document = this.#documents.get(id);
    return document === undefined ? null : parseSessionSnapshotText(document.text, { store: this.name, sessionId: id });
  }

  async delete(sessionId: string): Promise<boolean> {
    return this.#documents.delete(validateSessionId(sessionId, this.name));
  }

  async list(): Promise<SessionStoreEntry[]> {
    return [...this.#documents.entries()].map(([sessionId, d]) => ({ sessionId, updatedAtMs: d.updatedAtMs })).sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  }

  /**
   * Stores a raw document as it would be found on disk (tests of corrupted or foreign
   * documents, migration of legacy `SessionStateV1` records).
   */
  putRaw(sessionId: string, text: string): void {
    this.#documents.set(validateSessionId(sessionId, this.name), { text, updatedAtMs: Date.now() });
  }
}
