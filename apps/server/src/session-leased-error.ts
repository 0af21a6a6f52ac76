import { ServerError } from './server-error.js';
import type { LeaseRecord } from './session-lease.js';

/** SESSION_LEASED for a session another process holds, remembering (not telling the client) where the holder serves. */
export class SessionLeasedError extends ServerError {
  /** The holder's advertised endpoint (its lease record's), or null when it named none. */
  readonly holderEndpoint: string | null;

  constructor(id: string, holder: LeaseRecord) {
    super('SESSION_LEASED', `session '${id}' is running in another server process; retry shortly`, {
      sessionId: id,
      retryAfterMs: Math.max(0, holder.expiresAtMs - Date.now()),
    });
    this.holderEndpoint = holder.endpoint ?? null;
  }
}
