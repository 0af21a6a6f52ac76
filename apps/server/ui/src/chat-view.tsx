// The conversation of one session on the AI SDK UI message stream: useChat with
// DefaultChatTransport pointed at the host's `POST /api/sessions/:id/chat`, resumed on open (a
// second tab sees the running run, pending approval included), approvals answered through the
// protocol's approval parts, Stop as a server-side cancel (closing the tab never cancels).
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError, describeError, getJson, postJson, sessionPath } from './api.js';
import type { RunSummary } from './api.js';
import { Composer } from './composer.js';
import { MessageView } from './message-view.js';
import type { AnswerApproval } from './tool-card.js';
import { metadataOf, useRunFollow } from './use-run-follow.js';

/** Props of {@link ChatView}. */
export interface ChatViewProps {
  readonly token: string;
  readonly sessionId: string;
  /** A prompt to send as soon as the session is open (Send pressed before it existed). */
  readonly initialPrompt: string | null;
  /** The run the session list says is running (started by another tab or host), or null. */
  readonly runningRunId: string | null;
  /** When the session list last saw the session saved (a change made anywhere), or null. */
  readonly updatedAtMs: number | null;
  /** Something changed that the session list shows (a run started or ended). */
  readonly onActivity: () => void;
  /** `initialPrompt` was sent (so a later visit does not send it again). */
  readonly onInitialPromptSent: () => void;
  readonly onUnauthorized: () => void;
}

/** Loads the session's messages, then shows the conversation. */
export function ChatView(props: ChatViewProps): ReactNode {
  const { token, sessionId, onUnauthorized } = props;
  const [history, setHistory] = useState<UIMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setHistory(null);
    setError(null);
    getJson<{ messages: UIMessage[] }>(token, sessionPath(sessionId, '/messages')).then(
      (body) => live && setHistory(body.messages),
      (reason: unknown) => {
        if (!live) return;
        if (reason instanceof ApiError && reason.code === 'UNAUTHORIZED') onUnauthorized();
        setError(reason instanceof ApiError && reason.code === 'NOT_FOUND' ? `There is no session ${sessionId} on this host (deleted, or the link is from another host). Pick one from the list or start a new one.` : describeError(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [token, sessionId, onUnauthorized]);
  if (error !== null) return <div className="conversation"><p className="error" role="alert">{error}</p></div>;
  if (history === null) return <div className="conversation"><p className="note" aria-busy="true">Loading the session…</p></div>;
  return <Conversation {...props} history={history} />;
}

function Conversation({ token, sessionId, initialPrompt, runningRunId, updatedAtMs, onActivity, onInitialPromptSent, onUnauthorized, history }: ChatViewProps & { readonly history: UIMessage[] }): ReactNode {
  // The run a resume must replay: set when this tab knows which run moved (it may have ended by
  // the time the request arrives, and the session's resume answers 204 once nothing runs).
  const resumeRun = useRef<string | null>(null);
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: sessionPath(sessionId, '/chat'),
        headers: () => ({ authorization: `Bearer ${token}` }),
        prepareReconnectToStreamRequest: ({ api, id }) => {
          const streamId = resumeRun.current ?? id;
          resumeRun.current = null;
          return { api: `${api}/${encodeURIComponent(streamId)}/stream` };
        },
        // The host reads only the last message (the prompt, or the approval answers): send only it.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({ body: { id, messages: messages.slice(-1), trigger, ...(messageId === undefined ? {} : { messageId }) } }),
      }),
    [token, sessionId],
  );
  const [notice, setNotice] = useState<string | null>(null);
  // Fixed at mount: a new session has nothing to resume (and its prompt goes out at once).
  const [resume] = useState(initialPrompt === null);
  const chat = useChat({
    id: sessionId,
    messages: history,
    transport,
    // A run already going (started by another tab, or before a reload) is replayed and followed.
    resume,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => onActivity(),
    onError: (error) => {
      if (error.message.includes('UNAUTHORIZED')) onUnauthorized();
    },
  });
  const { messages, status, sendMessage, resumeStream, addToolApprovalResponse, error, clearError, setMessages } = chat;
  const last = messages.at(-1);
  const meta = metadataOf(last);
  const streaming = status === 'submitted' || status === 'streaming';
  // Stopped at a pending approval: the stream ended, the run did not.
  const waiting = !streaming && meta.status === 'running';
  const busy = streaming || waiting;

  // Send pressed before the session existed: send it now, once.
  const sent = useRef(false);
  useEffect(() => {
    if (initialPrompt === null || sent.current) return;
    sent.current = true;
    void sendMessage({ text: initialPrompt });
    onInitialPromptSent();
    onActivity();
  }, [initialPrompt, sendMessage, onActivity, onInitialPromptSent]);

  useRunFollow({ token, sessionId, status, messages, meta, waiting, runningRunId, updatedAtMs, resumeRun, resumeStream, clearError, setMessages });

  const answer: AnswerApproval = useCallback(
    async (part, approved) => {
      if (part.state !== 'approval-requested') return;
      await addToolApprovalResponse({ id: part.approval.id, approved, ...(approved ? {} : { reason: 'denied in the browser UI' }) });
    },
    [addToolApprovalResponse],
  );

  const stop = useCallback(async () => {
    setNotice(null);
    try {
      let runId = meta.runId;
      if (runId === undefined) {
        const { runs } = await getJson<{ runs: RunSummary[] }>(token, sessionPath(sessionId, '/runs'));
        runId = runs.find((run) => run.status === 'running')?.id;
      }
      if (runId === undefined) {
        setNotice('Nothing to stop: no run is running.');
        return;
      }
      // Server-side cancel: the stream then ends by itself with the run's status.
      const { cancelled } = await postJson<{ cancelled: boolean }>(token, sessionPath(sessionId, `/runs/${encodeURIComponent(runId)}/cancel`));
      setNotice(cancelled ? 'Stopping the run…' : 'The run had already ended.');
    } catch (reason) {
      setNotice(`Could not stop the run: ${describeError(reason)}`);
    }
  }, [meta.runId, token, sessionId]);

  const send = useCallback(
    (text: string): string | null => {
      if (busy) return 'A run is in progress: wait for it, or press Esc to stop it.';
      clearError();
      setNotice(null);
      void sendMessage({ text });
      onActivity();
      return null;
    },
    [busy, clearError, sendMessage, onActivity],
  );

  // Follow the stream while the reader is at the bottom; leave them be once they scrolled up.
  const bottom = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useEffect(() => {
    if (stick.current) bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages, status]);

  return (
    <>
      <div
        className="conversation"
        role="log"
        aria-label="Conversation"
        onScroll={(event) => {
          const box = event.currentTarget;
          stick.current = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
        }}
        data-status={status} data-run-status={meta.status ?? ''} data-run-id={meta.runId ?? ''} data-last-sequence={meta.lastSequence ?? ''}>
        {messages.length === 0 ? (
          <div className="empty">
            <p><strong>This session has no runs yet.</strong></p>
            <p>Ask for something below, e.g. “Run the tests and fix what fails”. Tools that change files or run commands ask for your approval first.</p>
          </div>
        ) : (
          messages.map((message, index) => <MessageView key={message.id} message={message} ended={message.role === 'assistant' && (index < messages.length - 1 || (!busy && metadataOf(message).status !== undefined))} answer={answer} />)
        )}
        {status === 'submitted' ? <p className="note" aria-busy="true">Waiting for the model…</p> : null}
        {error === undefined ? null : (
          <p className="error" role="alert">
            {humanError(error)}
          </p>
        )}
        {notice === null ? null : <p className="note" role="status">{notice}</p>}
        <div ref={bottom} />
      </div>
      <Composer busy={busy} onSend={send} onStop={() => void stop()} />
    </>
  );
}

/** The transport's error as a sentence (the host's body is `{ error: { code, message } }`). */
function humanError(error: Error): string {
  let body: unknown = null;
  try {
    body = JSON.parse(error.message);
  } catch {
    // Not the host's JSON: the message as it is.
  }
  const inner = typeof body === 'object' && body !== null && 'error' in body ? body.error : null;
  if (typeof inner === 'object' && inner !== null && 'message' in inner && typeof inner.message === 'string') {
    const code = 'code' in inner && typeof inner.code === 'string' ? inner.code : 'ERROR';
    return `${code}: ${inner.message}`;
  }
  return error.message;
}
