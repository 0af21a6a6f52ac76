import { randomUUID } from 'node:crypto';

/** What a session id may look like; any other id names no session (NOT_FOUND without a store read). */
export const SESSION_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** A fresh id for a session a host creates (`s_<uuid>`). */
export function newSessionId(): string {
  return `s_${randomUUID()}`;
}
