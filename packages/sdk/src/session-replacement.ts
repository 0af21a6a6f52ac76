import { CodeError } from '@a3s-lab/code-core';
import type { SessionOptions, SessionSnapshotV1, SessionStore } from '@a3s-lab/code-core';
import type { Session } from './session.js';
import { sessionRuntime } from './session.js';
import { innerBackend } from './workspace-overlay.js';

/** What `Agent.replaceSessionAsync` resumes the replacement from. */
export interface SessionReplacement {
  /** The session's store (the replacement keeps it). */
  readonly store: SessionStore;
  /** The generation just saved. */
  readonly snapshot: SessionSnapshotV1;
  /** The replacement's options over the saved ones: a host's backend is kept unless replaced. */
  readonly options: SessionOptions;
}

/**
 * Saves an idle persisted `session` for its replacement with `options`. SESSION_CLOSED when it is
 * closed, SESSION_BUSY when it is running (or started during the save), SESSION_ERROR without a
 * store, SESSION_CONFIGURATION_ERROR when `options` would change its id or store.
 */
export async function prepareReplacement(session: Session, options: SessionOptions): Promise<SessionReplacement> {
  if (session.closed) throw new CodeError('SESSION_CLOSED', `session '${session.id}' is closed`, { details: { sessionId: session.id } });
  const core = sessionRuntime(session);
  if (core.currentRun() !== null) throw new CodeError('SESSION_BUSY', `session '${session.id}' is running; replace it when idle`, { details: { sessionId: session.id } });
  const store = core.store;
  if (store === null) throw new CodeError('SESSION_ERROR', `session '${session.id}' has no sessionStore: only persisted sessions can be replaced`, { details: { sessionId: session.id } });
  if (options.sessionId !== undefined && options.sessionId !== session.id) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', 'replaceSessionAsync keeps the session id: sessionId cannot change', { details: { field: 'sessionId' } });
  }
  if (options.sessionStore !== undefined && options.sessionStore !== store) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', 'replaceSessionAsync keeps the session store: sessionStore cannot change', { details: { field: 'sessionStore' } });
  }
  const snapshot = await core.save();
  if (core.currentRun() !== null || session.closed) throw new CodeError('SESSION_BUSY', `session '${session.id}' started an operation during replacement`, { details: { sessionId: session.id } });
  const keepBackend = options.workspaceBackend === undefined && !core.ownsWorkspace ? { workspaceBackend: innerBackend(core.workspace) } : {};
  return { store, snapshot, options: { ...keepBackend, ...options } };
}
