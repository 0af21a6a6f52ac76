import type { SessionStore } from '@a3s-lab/code-core';
import type { AgentSession } from '@a3s-lab/code-runtime';
import type { Session } from './session.js';

/** The generation-0 publication of sessions opened with a store, awaited by the async openers. */
const initialPublish = new WeakMap<Session, Promise<void>>();

/**
 * Starts publishing a new `session` (runtime `core`, its `store`) as generation 0 when a store is
 * set (the `sessionStore` option, `autoSave`, or a durable store such as the ACL
 * `storage_backend`), so it can be resumed before its first operation.
 */
export function publishInitially(session: Session, core: AgentSession, store: SessionStore): void {
  if (core.options.sessionStore === undefined && core.options.autoSave !== true && !store.capabilities.durable) return;
  const publishing = core.publishInitial();
  publishing.catch(() => undefined); // reported as persistence_failed
  initialPublish.set(session, publishing);
}

/**
 * `session` once its generation 0 is in its store. A store that refuses it does not fail the
 * open (a failing store never breaks an operation): the write is reported as
 * `persistence_failed` (`operation: 'open'`) and the next save publishes the session.
 */
export async function opened(session: Session): Promise<Session> {
  await initialPublish.get(session)?.catch(() => undefined);
  return session;
}
