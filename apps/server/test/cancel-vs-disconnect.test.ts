// Closing a stream never cancels a run, on every stream kind (v1 SSE, the UI message stream, AG-UI):
// the client's own "stop" in both protocols (useChat's stop(), HttpAgent.abortRun()) is an abort of
// its request, a disconnect. POST .../runs/:runId/cancel cancels, and every stream still open reports
// it with its protocol's terminal: v1 `end { status: cancelled }`, UI `abort` + `finish`, AG-UI
// RUN_FINISHED with the cancelled outcome; so do the protocols' server-side stops
// (POST .../chat/:id/cancel, POST /api/agui/cancel).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/client';
import { hangResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { collectSse, startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness();
});
afterAll(async () => {
  await h.cleanup();
});

async function newSession(): Promise<string> {
  return (await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) })).id;
}

const runsOf = async (id: string): Promise<RunRecord[]> => (await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`)).runs;

/** Reads `response` until `text` has arrived, then drops the connection. */
async function readUntilThenDrop(response: Response, abort: AbortController, text: string): Promise<void> {
  const reader = response.body!.getReader();
  let seen = '';
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before '${text}'`);
    seen += new TextDecoder().decode(value);
  }
  abort.abort();
  await reader.cancel().catch(() => undefined);
}

/** Every UI message stream chunk type of a response, in order. */
async function uiChunkTypes(response: Response): Promise<{ type: string; messageMetadata?: { status?: string } }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('data: ') && b !== 'data: [DONE]')
    .map((b) => JSON.parse(b.slice(6)) as { type: string });
}

describe('cancel is a request of its own; a closed stream is only a disconnect', () => {
  it('UI message stream and v1 SSE: dropping them leaves the run running; cancel ends every open stream as cancelled', async () => {
    h.model.setScenario([hangResponse()]);
    const id = await newSession();
    const chatAbort = new AbortController();
    const chat = await h.api(`/api/sessions/${id}/chat`, { method: 'POST', signal: chatAbort.signal, body: JSON.stringify({ id, trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hang' }] }] }) });
    // useChat's stop() is exactly this: the fetch aborted.
    await readUntilThenDrop(chat, chatAbort, '"start-step"');
    const [run] = await runsOf(id);
    const v1Abort = new AbortController();
    await readUntilThenDrop(await h.api(`/api/sessions/${id}/runs/${run!.id}/stream`, { signal: v1Abort.signal }), v1Abort, 'turn_start');
    const resumeAbort = new AbortController();
    await readUntilThenDrop(await h.api(`/api/sessions/${id}/chat/${id}/stream`, { signal: resumeAbort.signal }), resumeAbort, '"start"');

    // Still running: a new follower of each kind picks it up (the resume request finds it running).
    const v1 = collectSse(await h.api(`/api/sessions/${id}/runs/${run!.id}/stream`));
    const resumed = await h.api(`/api/sessions/${id}/chat/${id}/stream`);
    expect(resumed.status).toBe(200);
    const ui = uiChunkTypes(resumed);
    expect((await runsOf(id))[0]?.status).toBe('running');

    // The UI protocol's stop, server-side (same ids as its resume request): a cancel, not a disconnect.
    expect(await h.json(`/api/sessions/${id}/chat/${id}/cancel`, { method: 'POST' })).toEqual({ cancelled: true });
    expect(JSON.parse((await v1).at(-1)?.data ?? '{}')).toEqual({ runId: run!.id, status: 'cancelled' });
    const chunks = await ui;
    expect(chunks.slice(-2)).toMatchObject([{ type: 'abort' }, { type: 'finish', finishReason: 'other', messageMetadata: { status: 'cancelled' } }]);
    expect((await runsOf(id))[0]?.status).toBe('cancelled');
    expect(await h.json(`/api/sessions/${id}/chat/${id}/cancel`, { method: 'POST' })).toEqual({ cancelled: false });
  });

  it('AG-UI: HttpAgent.abortRun() leaves the run running; cancel ends a connected AG-UI run with the cancelled outcome', async () => {
    h.model.setScenario([hangResponse()]);
    const id = await newSession();
    const agent = new HttpAgent({ url: `${h.server.url}/api/agui`, headers: { authorization: `Bearer ${TEST_TOKEN}` }, threadId: id, initialMessages: [{ id: 'm1', role: 'user', content: 'hang' }] });
    const aborted = agent.runAgent({}, { onStepStartedEvent: () => agent.abortRun() });
    await aborted.catch(() => undefined);
    const [run] = await runsOf(id);
    expect(run?.status).toBe('running');
    await h.json(`/api/sessions/${id}/runs/${run!.id}/cancel`, { method: 'POST' });
    await expect.poll(async () => (await runsOf(id))[0]?.status).toBe('cancelled');

    // A connected AG-UI run, cancelled: its stream ends with the cancelled outcome.
    h.model.setScenario([hangResponse()]);
    const next = new HttpAgent({ url: `${h.server.url}/api/agui`, headers: { authorization: `Bearer ${TEST_TOKEN}` }, threadId: id, initialMessages: [{ id: 'm2', role: 'user', content: 'hang again' }] });
    const events: BaseEvent[] = [];
    await next.runAgent({}, {
      onEvent: ({ event }) => void events.push(event),
      // AG-UI has no stop request; the host's is POST /api/agui/cancel { threadId }.
      onStepStartedEvent: () => void h.json('/api/agui/cancel', { method: 'POST', body: JSON.stringify({ threadId: id }) }),
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: id, outcome: { type: 'cancelled' } });
    expect((await runsOf(id)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  });
});
