import { Hono } from 'hono';
import type { Context } from 'hono';
import { answerConfirmations } from '../answer-confirmations.js';
import { knownQuery, traceparentOf } from '../request-input.js';
import { ServerError } from '../server-error.js';
import type { SessionHandle, SessionHost } from '../session-host.js';
import { streamSseText } from '../stream-sse-text.js';
import { chatIntentOf, readChatRequest } from './chat-request.js';
import { runMessages } from './run-messages.js';
import { streamRunAsUIMessages } from './stream-run-as-ui-messages.js';
import { UI_MESSAGE_STREAM_HEADERS } from './ui-message-chunk.js';

/** Streams run `runId` of the held session as the UI message stream; releases the handle when done. */
function uiMessageStream(c: Context, handle: SessionHandle, runId: string, from: number): Response {
  // A closed connection stops this stream only: the run goes on (cancel is its own request).
  return streamSseText(c, { headers: UI_MESSAGE_STREAM_HEADERS, release: () => handle.release() }, async (stream, signal) => {
    for await (const text of streamRunAsUIMessages(handle.session, runId, from, signal)) await stream.write(text);
  });
}

/**
 * The AI SDK UI message stream endpoints (`useChat` with `DefaultChatTransport`, chat id = the
 * session id): `POST /sessions/:id/chat` starts a run of the last user message, or answers the
 * approvals of the last assistant message and continues its run; `GET
 * /sessions/:id/chat/:streamId/stream` is the transport's resume request (204 when no run is
 * running), a replay of the run from its recorded events; `POST /sessions/:id/chat/:streamId/cancel`
 * cancels that run (the protocol's stop, server-side); `GET /sessions/:id/messages` is the
 * conversation as `UIMessage[]` (history for a reloaded page or another tab).
 */
export function createChatRoutes(host: SessionHost): Hono {
  const chat = new Hono();

  chat.post('/sessions/:id/chat', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const body = await readChatRequest(c, sessionId);
    const intent = chatIntentOf(body);
    if (intent.kind === 'prompt') {
      const run = await host.startRun(sessionId, intent.prompt, traceparentOf(c));
      return uiMessageStream(c, await host.open(sessionId), run.id, 0);
    }
    const handle = await host.open(sessionId);
    try {
      if (!(await handle.session.runs()).some((r) => r.id === intent.runId)) throw new ServerError('NOT_FOUND', `no run '${intent.runId}' (the assistant message id is its run id)`, { runId: intent.runId });
      const from = await answerConfirmations(handle.session, intent.runId, intent.answers);
      return uiMessageStream(c, handle, intent.runId, from);
    } catch (error) {
      handle.release();
      throw error;
    }
  });

  chat.get('/sessions/:id/chat/:streamId/stream', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const streamId = c.req.param('streamId');
    const handle = await host.open(sessionId);
    try {
      let runId: string | null = null;
      if (streamId === sessionId) {
        const current = await handle.session.currentRun();
        runId = current !== null && current.status === 'running' ? current.id : null;
      } else {
        if (!(await handle.session.runs()).some((r) => r.id === streamId)) throw new ServerError('NOT_FOUND', `no run '${streamId}' in session '${sessionId}'`, { runId: streamId });
        runId = streamId;
      }
      if (runId === null) {
        handle.release();
        return c.body(null, 204);
      }
      return uiMessageStream(c, handle, runId, 0);
    } catch (error) {
      handle.release();
      throw error;
    }
  });

  // The protocol's stop, server-side: useChat's stop() only aborts its request (a disconnect);
  // a front end that means "stop the run" posts here too. Same ids as the resume request.
  chat.post('/sessions/:id/chat/:streamId/cancel', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const streamId = c.req.param('streamId');
    const cancelled = await host.use(sessionId, async (session) => {
      if (streamId !== sessionId && !(await session.runs()).some((r) => r.id === streamId)) throw new ServerError('NOT_FOUND', `no run '${streamId}' in session '${sessionId}'`, { runId: streamId });
      const runId = streamId === sessionId ? (await session.currentRun())?.id : streamId;
      return runId === undefined ? false : session.cancelRun(runId);
    });
    return c.json({ cancelled });
  });

  chat.get('/sessions/:id/messages', async (c) => {
    knownQuery(c, []);
    return c.json({ messages: await host.use(c.req.param('id'), (session) => runMessages(session)) });
  });

  return chat;
}
