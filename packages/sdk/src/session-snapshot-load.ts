import { CodeError } from '@a3s-lab/code-core';
import type { SessionSnapshotV1, SessionStore } from '@a3s-lab/code-core';

/**
 * The snapshot of `sessionId` that `load` reads from `store`. A store that fails, or has no such
 * session, is SESSION_INITIALIZATION_ERROR (the store's own code kept as `details.cause_code`).
 */
export async function loadSnapshot(store: SessionStore, sessionId: string, load: () => Promise<SessionSnapshotV1 | null>): Promise<SessionSnapshotV1> {
  let snapshot: SessionSnapshotV1 | null;
  try {
    snapshot = await load();
  } catch (error) {
    throw initializationError(store, sessionId, error);
  }
  return requireSnapshot(store, sessionId, snapshot);
}

/** Synchronous {@link loadSnapshot}, for stores with synchronous loading. */
export function loadSnapshotSync(store: SessionStore, sessionId: string, load: () => SessionSnapshotV1 | null): SessionSnapshotV1 {
  let snapshot: SessionSnapshotV1 | null;
  try {
    snapshot = load();
  } catch (error) {
    throw initializationError(store, sessionId, error);
  }
  return requireSnapshot(store, sessionId, snapshot);
}

function initializationError(store: SessionStore, sessionId: string, error: unknown): CodeError {
  return new CodeError('SESSION_INITIALIZATION_ERROR', `cannot resume session '${sessionId}' from store '${store.name}': ${error instanceof Error ? error.message : String(error)}`, {
    details: { store: store.name, sessionId, ...(CodeError.isInstance(error) ? { cause_code: error.code } : {}) },
    cause: error,
  });
}

function requireSnapshot(store: SessionStore, sessionId: string, snapshot: SessionSnapshotV1 | null): SessionSnapshotV1 {
  if (snapshot === null) {
    throw new CodeError('SESSION_INITIALIZATION_ERROR', `no saved session '${sessionId}' in store '${store.name}'`, { details: { store: store.name, sessionId } });
  }
  return snapshot;
}
