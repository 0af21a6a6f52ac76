import type { AgentEvent, AgentEventOfType, RunRecord, Session } from '@a3s-lab/code';
import { FOLLOW_PAGE_SIZE, followRunEvents } from './follow-run-events.js';
import { ServerError } from './server-error.js';

/**
 * One wire protocol's view of a run, as text: how its stream opens, what each recorded event
 * becomes, how it stops at a pending confirmation, how it ends. The UI message stream and AG-UI
 * are two of these over the same recorded events (the v1 SSE stream sends them as they are).
 */
export interface RunProjection {
  /** The opening text of every stream (after `prime`). */
  start(): string;
  /** Feeds an event the client already has (before the stream's cursor): state only, nothing sent. */
  prime(event: AgentEvent, sequence: number): void;
  /** The text of one recorded event (often empty). */
  encode(event: AgentEvent, sequence: number): string;
  /** Events up to `firstAvailableSequence` were evicted before they were read. */
  gap(firstAvailableSequence: number): string;
  /** The end of a stream stopped at the pending confirmation asked by `event` (the client answers with its next request). */
  pause(event: AgentEvent, sequence: number): string;
  /** The end of the run. */
  finish(run: RunRecord): string;
}

/** True when the confirmation asked by `event` is still waiting for an answer. */
async function stillPending(session: Session, event: AgentEventOfType<'confirmation_required'>, later: readonly { readonly event: AgentEvent }[]): Promise<boolean> {
  const { tool_id: toolId, confirmation_id: confirmationId } = event.payload;
  if (later.some(({ event: e }) => (e.type === 'confirmation_received' || e.type === 'confirmation_timeout') && e.payload.tool_id === toolId)) return false;
  return (await session.pendingConfirmations()).some((p) => (confirmationId === undefined ? p.toolId === toolId : p.confirmationId === confirmationId));
}

/**
 * Run `runId` through `projection`, read from the run store like the v1 stream
 * (`followRunEvents`): events up to sequence `from` only prime the projection (a continuation
 * after an approval: the client has them), later ones are sent. The stream stops after a
 * confirmation that is still pending (`pause`), or at the end of the run (`finish`). Each piece
 * yielded is one page of events. An aborted `signal` (the client went away) ends it quietly:
 * it never touches the run; cancelling is a request of its own.
 */
export async function* streamRunProjection(session: Session, runId: string, from: number, signal: AbortSignal, projection: RunProjection): AsyncGenerator<string> {
  let cursor = 0;
  // Evicted events (a retention gap) are simply not primed: the page starts later.
  priming: while (cursor < from) {
    const page = await session.runEventPage(runId, cursor, FOLLOW_PAGE_SIZE);
    if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    for (const event of page.events) {
      const sequence = Number(event.metadata?.['sequence']);
      if (sequence > from) break priming;
      projection.prime(event, sequence);
      cursor = sequence;
    }
    if (!page.hasMore || page.events.length === 0) break;
  }
  yield projection.start();
  for await (const batch of followRunEvents(session, runId, from, signal)) {
    let out = batch.gap === null ? '' : projection.gap(batch.gap.firstAvailableSequence);
    for (const [i, { sequence, event }] of batch.events.entries()) {
      out += projection.encode(event, sequence);
      if (event.type === 'confirmation_required' && (await stillPending(session, event, batch.events.slice(i + 1)))) {
        yield out + projection.pause(event, sequence);
        return;
      }
    }
    yield out;
  }
  if (signal.aborted) return;
  const run = (await session.runs()).find((r) => r.id === runId);
  if (run === undefined) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
  yield projection.finish(run);
}
