// After `[DONE]` the request is over: a consumer that stops at message_end (the agent loop does,
// every model call) costs no abort of the request.
import type { LlmStreamEvent } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../src/index.js';

const chunk = (delta: unknown, finish: string | null = null, usage: unknown = null): unknown => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: usage === null ? [{ index: 0, delta, finish_reason: finish }] : [], usage });
const FRAMES = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'done' }), chunk({}, 'stop'), chunk({}, null, { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 })];
const SSE = new TextEncoder().encode(`${FRAMES.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('')}data: [DONE]\n\n`);

describe('the response body after [DONE]', () => {
  it.each([false, true])('is not aborted when the consumer stops at message_end (server keeps the body open: %s)', async (keepOpen) => {
    let signal: AbortSignal | undefined;
    const fetchImpl = async (_input: unknown, init?: RequestInit): Promise<Response> => {
      signal = init?.signal ?? undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(SSE);
          if (!keepOpen) controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const llm = createOpenAIClient({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-test', fetch: fetchImpl as typeof fetch, maxRetries: 0 });
    let end: LlmStreamEvent | undefined;
    for await (const event of llm.stream({ system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] })) {
      if (event.type === 'message_end') {
        end = event;
        break;
      }
    }
    expect(end).toMatchObject({ type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2 } });
    expect(signal?.aborted).toBe(false);
  });
});
