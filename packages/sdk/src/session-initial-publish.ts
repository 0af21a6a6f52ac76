import type { Session } from './session.js';

/** The generation-0 publication of sessions opened with a store, awaited by the async openers. */
const initialPublish = new WeakMap<Session, Promise<void>>();

/** Records `publishing`, the generation-0 write of the new `session` (its failure is reported as `persistence_failed`). */
export function publishInitially(session: Session, publishing: Promise<void>): void {
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
