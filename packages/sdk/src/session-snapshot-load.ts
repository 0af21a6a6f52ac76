import { CodeError } from '@a3s-lab/code-core';
import type { SessionSnapshotV1, SessionStore } from '@a3s-lab/code-core';

/**
 * The saved snapshot of `sessionId` in `store`. A store that fails, or has no such session, is
 * SESSION_INITIALIZATION_ERROR (the store's own code kept as `details.cause_code`).
 */
export async function loadSnapshot(store: SessionStore, sessionId: string): Promise<SessionSnapshotV1> {
  let snapshot: SessionSnapshotV1 | null;
  try {
    snapshot = await store.load(sessionId);
  } catch (error) {
    throw initializationError(store, sessionId, error);
  }
  return requireSnapshot(store, sessionId, snapshot);
}

/** Synchronous {@link loadSnapshot}; SESSION_INITIALIZATION_ERROR for a store without synchronous loading. */
export function loadSnapshotSync(store: SessionStore, sessionId: string): SessionSnapshotV1 {
  const loadSync = store.loadSync?.bind(store);
  if (loadSync === undefined || !store.capabilities.synchronousLoad) {
    throw new CodeError('SESSION_INITIALIZATION_ERROR', `store '${store.name}' cannot load synchronously: use resumeSessionAsync()`, { details: { store: store.name, sessionId } });
  }
  let snapshot: SessionSnapshotV1 | null;
  try {
    snapshot = loadSync(sessionId);
  } catch (error) {
    throw initializationError(store, sessionId, error);
  }
  return requireSnapshot(store, sessionId, snapshot);
}

/**
 * Why a loaded `snapshot` could not be opened: SESSION_INITIALIZATION_ERROR naming the session and
 * the store, except a SESSION_CONFIGURATION_ERROR of the options, which is returned as it is.
 */
export function resumeFailure(store: SessionStore, snapshot: SessionSnapshotV1, error: unknown): CodeError {
  if (CodeError.isInstance(error) && error.code === 'SESSION_CONFIGURATION_ERROR') return error;
  return new CodeError('SESSION_INITIALIZATION_ERROR', `cannot resume session '${snapshot.sessionId}' from store '${store.name}': ${error instanceof Error ? error.message : String(error)}`, {
    details: { store: store.name, sessionId: snapshot.sessionId },
    cause: error,
  });
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
