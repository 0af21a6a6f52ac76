import type { Session, SessionStore } from '@a3s-lab/code';
import { ServerError } from './server-error.js';
import { SessionLeasedError } from './session-leased-error.js';

/** A confirmation a session waits for (as `Session.pendingConfirmations()` reports it). */
export type PendingConfirmation = Awaited<ReturnType<Session['pendingConfirmations']>>[number];

/** An answer to a confirmation, as `POST .../confirmations/:id` takes it. */
export interface ConfirmationAnswerBody {
  readonly approved: boolean;
  readonly reason?: string;
}

/** Runs `fn` with the live session (resumed under its lease); SESSION_LEASED when another process holds it. */
type UseSession = <T>(fn: (session: Session) => Promise<T>) => Promise<T>;

/**
 * The pending confirmations of session `id`: from the live session when this process can hold
 * it, else (another process runs it) from `store`, where the holder saves each confirmation as it
 * is asked and answered (`remainingMs` counted from that save).
 */
export async function readPendingConfirmations(id: string, use: UseSession, store: SessionStore): Promise<{ confirmations: PendingConfirmation[]; source: 'live' | 'store' }> {
  try {
    return { confirmations: await use((session) => session.pendingConfirmations()), source: 'live' };
  } catch (error) {
    if (!(error instanceof ServerError) || error.code !== 'SESSION_LEASED') throw error;
    const snapshot = await store.load(id);
    if (snapshot === null) throw new ServerError('NOT_FOUND', `no session '${id}'`, { sessionId: id });
    const elapsed = Math.max(0, Date.now() - snapshot.savedAtMs);
    return { confirmations: snapshot.pendingConfirmations.map((p) => ({ ...p, remainingMs: Math.max(0, p.remainingMs - elapsed) })), source: 'store' };
  }
}

/**
 * Answers confirmation `toolId` of session `id` here, or, when another process holds the lease
 * and advertised where it serves, through `forward` to that process (whose answer is the
 * answer: true, or false for a 404). Without `forward` (a request forwarded already is never
 * forwarded again) or an endpoint, SESSION_LEASED stands.
 */
export async function answerPendingConfirmation(id: string, toolId: string, answer: ConfirmationAnswerBody, use: UseSession, forward: ((endpoint: string, path: string, body: unknown) => Promise<Response>) | undefined): Promise<boolean> {
  try {
    return await use((session) => session.confirmToolUse(toolId, answer.approved, answer.reason));
  } catch (error) {
    if (!(error instanceof SessionLeasedError) || error.holderEndpoint === null || forward === undefined) throw error;
    const response = await forward(error.holderEndpoint, `/api/sessions/${encodeURIComponent(id)}/confirmations/${encodeURIComponent(toolId)}`, answer).catch(() => null);
    if (response?.ok === true) return true;
    if (response?.status === 404) return false;
    throw error;
  }
}
