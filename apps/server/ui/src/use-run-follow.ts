// How a tab keeps up with a run it is not streaming: the run's next event after a pending
// approval (answered in any tab, timed out, cancelled), a stream cut mid-run, and a prompt run
// from another tab or host. Each ends in `resumeStream()` of the run concerned (a replay).
import type { UIMessage } from 'ai';
import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { getJson, sessionPath } from './api.js';
import { waitForRunEvent } from './run-watch.js';

/** Times a broken stream of a running run is resumed before the error stays on screen. */
const MAX_RESUME_RETRIES = 5;

/** The metadata the host puts on an assistant message (`start` / `finish` chunks). */
export interface RunMetadata {
  readonly runId?: string;
  readonly status?: string;
  readonly lastSequence?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The run metadata of `message` (empty for a user message or one without metadata). */
export function metadataOf(message: UIMessage | undefined): RunMetadata {
  const record: unknown = message?.role === 'assistant' ? message.metadata : undefined;
  if (!isRecord(record)) return {};
  return {
    ...(typeof record['runId'] === 'string' ? { runId: record['runId'] } : {}),
    ...(typeof record['status'] === 'string' ? { status: record['status'] } : {}),
    ...(typeof record['lastSequence'] === 'number' ? { lastSequence: record['lastSequence'] } : {}),
  };
}

/** What {@link useRunFollow} reads from the conversation. */
export interface RunFollowOptions {
  readonly token: string;
  readonly sessionId: string;
  readonly status: 'submitted' | 'streaming' | 'ready' | 'error';
  readonly messages: readonly UIMessage[];
  /** Metadata of the last message. */
  readonly meta: RunMetadata;
  /** The stream stopped at a pending approval (the run did not). */
  readonly waiting: boolean;
  readonly runningRunId: string | null;
  readonly updatedAtMs: number | null;
  /** The run the next resume replays (read by the transport's reconnect request). */
  readonly resumeRun: RefObject<string | null>;
  readonly resumeStream: () => Promise<void>;
  readonly clearError: () => void;
  readonly setMessages: (messages: UIMessage[]) => void;
}

/** The effects that resume the stream when the run moved without this tab. */
export function useRunFollow({ token, sessionId, status, messages, meta, waiting, runningRunId, updatedAtMs, resumeRun, resumeStream, clearError, setMessages }: RunFollowOptions): void {
  // Waiting on an approval: the next event of the run (an answer from any tab, a timeout, a
  // cancel) resumes the stream, which replays the run and shows what happened.
  useEffect(() => {
    const runId = meta.runId;
    if (!waiting || runId === undefined || meta.lastSequence === undefined) return;
    const abort = new AbortController();
    void waitForRunEvent(token, sessionId, runId, meta.lastSequence, abort.signal).then((moved) => {
      if (!moved || abort.signal.aborted) return;
      resumeRun.current = runId;
      void resumeStream();
    });
    return () => abort.abort();
  }, [waiting, meta.runId, meta.lastSequence, token, sessionId, resumeStream]);

  // The stream broke mid-run (network, a proxy): the run goes on on the server, so replay it
  // after a pause, a few times with growing pauses; a stream that flows again resets the count.
  const retries = useRef(0);
  if (status === 'streaming') retries.current = 0;
  useEffect(() => {
    const runId = meta.runId;
    if (status !== 'error' || runId === undefined || (meta.status !== undefined && meta.status !== 'running') || retries.current >= MAX_RESUME_RETRIES) return;
    const timer = setTimeout(() => {
      retries.current += 1;
      resumeRun.current = runId;
      clearError();
      void resumeStream();
    }, 500 * 2 ** retries.current);
    return () => clearTimeout(timer);
  }, [status, meta.runId, meta.status, clearError, resumeStream]);

  // Idle here while the session changed elsewhere (another tab or host ran a prompt; the
  // session list saw a newer save): read the conversation again, prompts included, and follow
  // the run when it still runs.
  const idle = (status === 'ready' || status === 'error') && !waiting;
  const idleRef = useRef(idle);
  idleRef.current = idle;
  const seenSave = useRef(updatedAtMs);
  const countRef = useRef(messages.length);
  countRef.current = messages.length;
  useEffect(() => {
    if (!idle || updatedAtMs === null || seenSave.current === updatedAtMs) return;
    seenSave.current = updatedAtMs;
    void getJson<{ messages: UIMessage[] }>(token, sessionPath(sessionId, '/messages')).then(
      (body) => {
        // Only runs this tab has not seen (a run is two messages): never trade a message this
        // tab streamed to its end for a copy read a moment before that end was saved.
        if (!idleRef.current || body.messages.length <= countRef.current) return;
        setMessages(body.messages);
        const latest = metadataOf(body.messages.at(-1));
        const running = runningRunId ?? (latest.status === 'running' ? latest.runId ?? null : null);
        if (running === null) return;
        resumeRun.current = running;
        void resumeStream();
      },
      () => undefined,
    );
  }, [idle, updatedAtMs, runningRunId, token, sessionId, setMessages, resumeStream]);

}
