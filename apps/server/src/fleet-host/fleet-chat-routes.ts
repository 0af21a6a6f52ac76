import { Hono } from 'hono';
import type { Context } from 'hono';
import { knownQuery } from '../request-input.js';
import { streamSseText } from '../stream-sse-text.js';
import { foldUIMessage } from '../ui-message-stream/fold-ui-message.js';
import type { UIMessage } from '../ui-message-stream/fold-ui-message.js';
import { chatIntentOf, readChatRequest } from '../ui-message-stream/chat-request.js';
import type { UIMessageChunk } from '../ui-message-stream/ui-message-chunk.js';
import { UI_MESSAGE_STREAM_HEADERS } from '../ui-message-stream/ui-message-chunk.js';
import { UIMessageEncoder } from '../ui-message-stream/ui-message-encoder.js';
import { uiMessageProjection } from '../ui-message-stream/stream-run-as-ui-messages.js';
import { answerFleetApprovals } from './answer-fleet-approvals.js';
import { refuseTraceparent } from './fleet-api-routes.js';
import type { FleetHost } from './fleet-host.js';
import { addEventUsage, emptyFleetUsage, fleetRunRecord } from './fleet-run-record.js';
import { fleetProjectionEvent, streamFleetProjection } from './stream-fleet-projection.js';

/** Streams fleet run `runId` as the UI message stream, from the run journal's events. */
function uiMessageStream(c: Context, host: FleetHost, sessionId: string, runId: string, from: number): Response {
  // A closed connection stops this stream only: the run goes on (cancel is its own request).
  return streamSseText(c, { headers: UI_MESSAGE_STREAM_HEADERS }, async (stream, signal) => {
    const projection = uiMessageProjection(new UIMessageEncoder({ runId, sessionId }));
    for await (const text of streamFleetProjection(host, sessionId, runId, from, signal, projection)) await stream.write(text);
  });
}

/** The session's conversation as UI messages: per fleet run its prompt and, once it is over, the assistant message its events build (a running run's comes from the resume stream). */
async function fleetRunMessages(host: FleetHost, sessionId: string): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for (const run of await host.fleet.sessionRuns(sessionId)) {
    messages.push({ id: `${run.runId}:prompt`, role: 'user', parts: [{ type: 'text', text: run.prompt }] });
    if (run.status === 'queued' || run.status === 'running') continue;
    const encoder = new UIMessageEncoder({ runId: run.runId, sessionId });
    const chunks: UIMessageChunk[] = [encoder.start()];
    const usage = emptyFleetUsage();
    let last = 0;
    for await (const recorded of host.events(run.runId, 0)) {
      const event = fleetProjectionEvent(recorded);
      last = Number(event.metadata?.['sequence']);
      addEventUsage(usage, event);
      chunks.push(...encoder.encode(event, last));
    }
    chunks.push(...encoder.finish(fleetRunRecord(run, usage, last)));
    messages.push(foldUIMessage(chunks));
  }
  return messages;
}

/**
 * The AI SDK UI message stream endpoints of a fleet-backed API process (same paths and bodies as
 * the single-host ones, see `createChatRoutes`): `POST /sessions/:id/chat` submits a fleet run of
 * the last user message (or answers its approvals) and streams it from the run journal, so the
 * stream goes on unchanged when the worker running it dies and another resumes it; `GET
 * .../chat/:streamId/stream` replays the running run (204 when none); `POST .../cancel` cancels it;
 * `GET /sessions/:id/messages` is the conversation.
 */
export function createFleetChatRoutes(host: FleetHost): Hono {
  const chat = new Hono();

  chat.post('/sessions/:id/chat', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const body = await readChatRequest(c, sessionId);
    refuseTraceparent(c);
    const intent = chatIntentOf(body);
    if (intent.kind === 'prompt') {
      const run = await host.startRun(sessionId, intent.prompt);
      return uiMessageStream(c, host, sessionId, run.id, 0);
    }
    const from = await answerFleetApprovals(host, sessionId, intent.runId, intent.answers);
    return uiMessageStream(c, host, sessionId, intent.runId, from);
  });

  chat.get('/sessions/:id/chat/:streamId/stream', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const streamId = c.req.param('streamId');
    let runId: string | null;
    if (streamId === sessionId) {
      const runs = await host.runs(sessionId);
      runId = runs.find((r) => r.status === 'running')?.id ?? null;
    } else {
      runId = (await host.fleetRun(sessionId, streamId)).runId;
    }
    if (runId === null) return c.body(null, 204);
    return uiMessageStream(c, host, sessionId, runId, 0);
  });

  chat.post('/sessions/:id/chat/:streamId/cancel', async (c) => {
    knownQuery(c, []);
    const sessionId = c.req.param('id');
    const streamId = c.req.param('streamId');
    const runId = streamId === sessionId ? ((await host.runs(sessionId)).find((r) => r.status === 'running')?.id ?? null) : streamId;
    return c.json({ cancelled: runId === null ? false : await host.cancel(sessionId, runId) });
  });

  chat.get('/sessions/:id/messages', async (c) => {
    knownQuery(c, []);
    await host.session(c.req.param('id'));
    return c.json({ messages: await fleetRunMessages(host, c.req.param('id')) });
  });

  return chat;
}
