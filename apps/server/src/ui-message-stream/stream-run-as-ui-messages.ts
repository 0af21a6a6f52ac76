import type { AgentEvent, Session } from '@a3s-lab/code';
import { FOLLOW_PAGE_SIZE, followRunEvents } from '../follow-run-events.js';
import { ServerError } from '../server-error.js';
import { formatUIMessageChunk, UI_MESSAGE_STREAM_DONE } from './ui-message-chunk.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { UIMessageEncoder } from './ui-message-encoder.js';

const text = (chunks: readonly UIMessageChunk[]): string => chunks.map(formatUIMessageChunk).join('');

/** True when the confirmation asked by `event` is still waiting for an answer. */
async function stillPending(session: Session, event: AgentEvent, later: readonly { readonly event: AgentEvent }[]): Promise<boolean> {
  const toolId = event.payload['tool_id'];
  const confirmationId = event.payload['confirmation_id'];
  if (later.some(({ event: e }) => (e.type === 'confirmation_received' || e.type === 'confirmation_timeout') && e.payload['tool_id'] === toolId)) return false;
  return (await session.pendingConfirmations()).some((p) => (confirmationId === undefined ? p.toolId === toolId : p.confirmationId === confirmationId));
}

/**
 * The UI message stream of run `runId` as SSE text, read from the run store like the v1 stream
 * (`followRunEvents`): the events up to sequence `from` only build the encoder's state (the
 * client has them: a continuation after an approval), the later ones are sent. The stream stops
 * after a confirmation that is still pending (`finish` with `tool-calls`: the client answers it
 * with its next request), or at the end of the run (`finish` with usage). Each piece yielded is
 * one page of events; an aborted `signal` (the client went away) ends it quietly and never
 * touches the run.
 */
export async function* streamRunAsUIMessages(session: Session, runId: string, from: number, signal: AbortSignal): AsyncGenerator<string> {
  const encoder = new UIMessageEncoder({ runId, sessionId: session.id });
  yield formatUIMessageChunk(encoder.start());
  let cursor = 0;
  while (cursor < from) {
    const page = await session.runEventPage(runId, cursor, FOLLOW_PAGE_SIZE);
    if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
    for (const event of page.events) {
      const sequence = Number(event.metadata?.['sequence']);
      if (sequence > from) break;
      encoder.encode(event, sequence);
      cursor = sequence;
    }
    if (!page.hasMore || page.events.length === 0) break;
  }
  for await (const batch of followRunEvents(session, runId, from, signal)) {
    let out = batch.gap === null ? '' : text(encoder.gap(batch.gap.firstAvailableSequence));
    for (const [i, { sequence, event }] of batch.events.entries()) {
      out += text(encoder.encode(event, sequence));
      if (event.type === 'confirmation_required' && (await stillPending(session, event, batch.events.slice(i + 1)))) {
        yield out + text(encoder.pause(sequence)) + UI_MESSAGE_STREAM_DONE;
        return;
      }
    }
    yield out;
  }
  if (signal.aborted) return;
  const run = (await session.runs()).find((r) => r.id === runId);
  if (run === undefined) throw new ServerError('NOT_FOUND', `no run '${runId}'`, { runId });
  yield text(encoder.finish(run)) + UI_MESSAGE_STREAM_DONE;
}
