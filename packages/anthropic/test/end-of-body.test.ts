// What happens to the HTTP body after message_stop: read to its end when it already arrived (no
// abort on the hot path of the agent loop), cancelled when the server keeps it open, and never a
// delay of message_end on the network.
import type { LlmStreamEvent } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../src/index.js';

const EVENTS: readonly (readonly [string, unknown])[] = [
  ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }],
  ['message_stop', { type: 'message_stop' }],
];
const SSE = new TextEncoder().encode(EVENTS.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''));

interface BodyProbe {
  readonly fetch: typeof fetch;
  /** True once the body's reader was cancelled (the stream closed early by its reader). */
  cancelled(): boolean;
  /** The request's abort signal as fetch received it. */
  signal(): AbortSignal | undefined;
}

/** A fetch answering with the SSE events; `keepOpen` leaves the body open after message_stop. */
function probe(keepOpen: boolean): BodyProbe {
  let cancelled = false;
  let signal: AbortSignal | undefined;
  const fetchImpl = async (_input: unknown, init?: RequestInit): Promise<Response> => {
    signal = init?.signal ?? undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(SSE);
        if (!keepOpen) controller.close();
        // Like a real fetch: aborting the request errors its body.
        signal?.addEventListener('abort', () => controller.error(signal?.reason), { once: true });
      },
      cancel() {
        cancelled = true;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'request-id': 'req_1' } });
  };
  return { fetch: fetchImpl as typeof fetch, cancelled: () => cancelled, signal: () => signal };
}

async function runToMessageEnd(body: BodyProbe): Promise<LlmStreamEvent[]> {
  const llm = createAnthropicClient({ apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9', model: 'claude-test', fetch: body.fetch, maxRetries: 0 });
  const events: LlmStreamEvent[] = [];
  // Stops at message_end like the agent loop does.
  for await (const event of llm.stream({ system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] })) {
    events.push(event);
    if (event.type === 'message_end') break;
  }
  return events;
}

describe('the response body after message_stop', () => {
  it('is read to its end when it already arrived: the request is not aborted', async () => {
    const body = probe(false);
    const events = await runToMessageEnd(body);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'end_turn', content: [{ type: 'text', text: 'done' }] });
    expect(body.cancelled()).toBe(false);
    expect(body.signal()?.aborted).toBe(false);
  });

  it('is abandoned (request aborted), without waiting, when the server keeps it open after message_stop', async () => {
    const body = probe(true);
    const events = await runToMessageEnd(body);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'end_turn' });
    expect(body.signal()?.aborted).toBe(true);
  });
});
