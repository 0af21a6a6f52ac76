import type { Session } from '@a3s-lab/code';
import { streamRunProjection } from '../stream-run-projection.js';
import type { RunProjection } from '../stream-run-projection.js';
import { formatUIMessageChunk, UI_MESSAGE_STREAM_DONE } from './ui-message-chunk.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { UIMessageEncoder } from './ui-message-encoder.js';

const text = (chunks: readonly UIMessageChunk[]): string => chunks.map(formatUIMessageChunk).join('');

/** The UI message stream's {@link RunProjection}: chunks as `data:` lines, `[DONE]` after `finish`. */
export function uiMessageProjection(encoder: UIMessageEncoder): RunProjection {
  return {
    start: () => formatUIMessageChunk(encoder.start()),
    prime: (event, sequence) => void encoder.encode(event, sequence),
    encode: (event, sequence) => text(encoder.encode(event, sequence)),
    gap: (first) => text(encoder.gap(first)),
    pause: (_event, sequence) => text(encoder.pause(sequence)) + UI_MESSAGE_STREAM_DONE,
    finish: (run) => text(encoder.finish(run)) + UI_MESSAGE_STREAM_DONE,
  };
}

/**
 * The UI message stream of run `runId` as SSE text (see {@link streamRunProjection}): one
 * assistant message, `finish` with `tool-calls` at a pending approval (the client answers with
 * its next request), `finish` with usage at the end of the run.
 */
export function streamRunAsUIMessages(session: Session, runId: string, from: number, signal: AbortSignal): AsyncGenerator<string> {
  return streamRunProjection(session, runId, from, signal, uiMessageProjection(new UIMessageEncoder({ runId, sessionId: session.id })));
}
