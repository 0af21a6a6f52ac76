import { CodeError } from '@a3s-lab/code-core';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import {
  errorResponse,
  hangResponse,
  malformedToolCallResponse,
  startScriptedModelServer,
  textResponse,
  toolCallResponse,
} from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../src/index.js';

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.close();
});

const API_KEY = 'sk-ant-test-key-0123456789';
const readTool = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };
const simple: LlmRequest = { system: 'You are terse.', messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.ts' }] }], tools: [readTool] };

function client(overrides: { maxRetries?: number; promptCaching?: boolean } = {}): LlmClient {
  return createAnthropicClient({ apiKey: API_KEY, baseURL: server.anthropicBaseUrl, model: 'claude-test', headers: { 'x-team': 'a3s' }, ...overrides });
}

async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function failureOf(llm: LlmClient, request: LlmRequest, options?: LlmCallOptions): Promise<{ error: unknown; events: LlmStreamEvent[] }> {
  const events: LlmStreamEvent[] = [];
  try {
    for await (const event of llm.stream(request, options)) events.push(event);
  } catch (error) {
    return { error, events };
  }
  throw new Error(`expected the stream to fail; got ${JSON.stringify(events)}`);
}

describe('createAnthropicClient against the scripted server', () => {
  it('streams reasoning, text and a tool call with partial JSON, usage incl. cache tokens', async () => {
    server.setScenario([
      {
        reasoning: ['Let me ', 'look.'],
        reasoningSignature: 'sig-abc',
        text: ['I will ', 'read it.'],
        toolCalls: [{ id: 'toolu_1', name: 'read', input: { file_path: 'src/a.ts' } }],
        toolInputChunks: 3,
        usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 40 },
      },
    ]);
    const events = await collect(client().stream(simple));
    const deltas = events.filter((event) => event.type === 'tool_call_delta');
    expect(deltas.length).toBe(3);
    expect(deltas.map((event) => event.partialJson).join('')).toBe('{"file_path":"src/a.ts"}');
    expect(events.filter((event) => event.type !== 'tool_call_delta')).toEqual([
      { type: 'attempt_start', attempt: 1 },
      { type: 'reasoning_delta', text: 'Let me ' },
      { type: 'reasoning_delta', text: 'look.' },
      { type: 'text_delta', text: 'I will ' },
      { type: 'text_delta', text: 'read it.' },
      { type: 'tool_call_start', id: 'toolu_1', name: 'read' },
      { type: 'tool_call_end', id: 'toolu_1', name: 'read', input: { file_path: 'src/a.ts' } },
      {
        type: 'message_end',
        stopReason: 'tool_use',
        usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 40 },
        content: [
          { type: 'reasoning', text: 'Let me look.', signature: 'sig-abc' },
          { type: 'text', text: 'I will read it.' },
          { type: 'tool_call', id: 'toolu_1', name: 'read', input: { file_path: 'src/a.ts' } },
        ],
      },
    ]);
    const [request] = server.requests;
    // SDK 1.x sends the key as a bearer token.
    expect(request?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['x-team']).toBe('a3s');
    expect(server.errors).toEqual([]);
  });

  it('returns redacted thinking as an opaque part that round-trips', async () => {
    server.setScenario([{ redactedReasoning: 'ENCRYPTED==', text: 'done' }, textResponse('again')]);
    const events = await collect(client().stream(simple));
    const end = events.at(-1);
    if (end?.type !== 'message_end') throw new Error('no message_end');
    expect(end.content[0]).toEqual({ type: 'reasoning', text: '', signature: 'ENCRYPTED==', redacted: true });
    await collect(client({ promptCaching: false }).stream({ ...simple, messages: [...simple.messages, { role: 'assistant', content: end.content }, { role: 'user', content: [{ type: 'text', text: 'more' }] }] }));
    const body = server.requests[1]?.body as { messages: { content: unknown[] }[] };
    expect(body.messages[1]?.content[0]).toEqual({ type: 'redacted_thinking', data: 'ENCRYPTED==' });
  });

  it('reports malformed tool input as invalidInput and keeps streaming', async () => {
    server.setScenario([malformedToolCallResponse('read', '{"file_path": "a.ts"', { id: 'toolu_bad' })]);
    const events = await collect(client().stream(simple));
    expect(events.find((event) => event.type === 'tool_call_end')).toEqual({ type: 'tool_call_end', id: 'toolu_bad', name: 'read', input: undefined, invalidInput: '{"file_path": "a.ts"' });
    expect(events.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'tool_use' });
  });

  it('retries a 429 after the retry-after the server asked for', async () => {
    server.setScenario([errorResponse(429, { retryAfterMs: 400 }), textResponse('ok')]);
    const events = await collect(client().stream(simple));
    expect(events.filter((event) => event.type === 'attempt_start')).toEqual([
      { type: 'attempt_start', attempt: 1 },
      { type: 'attempt_start', attempt: 2, retryReason: 'http_429' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', content: [{ type: 'text', text: 'ok' }] });
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    // The wait is the header's, not the 250-500 ms first backoff step: at least ~400 ms apart.
    expect((second?.receivedAtMs ?? 0) - (first?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(350);
  });

  it('retries 529 overloaded and an in-stream overloaded error', async () => {
    server.setScenario([errorResponse(529), { text: 'partial', streamError: { afterEvents: 3 } }, textResponse('fine')]);
    const events = await collect(client().stream(simple));
    expect(events.filter((event) => event.type === 'attempt_start')).toEqual([
      { type: 'attempt_start', attempt: 1 },
      { type: 'attempt_start', attempt: 2, retryReason: 'http_529' },
      { type: 'attempt_start', attempt: 3, retryReason: 'stream_error:overloaded_error' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', content: [{ type: 'text', text: 'fine' }] });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and reports it as LLM_ERROR with status and request id', async () => {
    server.setScenario([errorResponse(400, { message: 'messages: bad' }), textResponse('never')]);
    const { error, events } = await failureOf(client(), simple);
    expect(events).toEqual([{ type: 'attempt_start', attempt: 1 }]);
    expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ provider: 'anthropic', status: 400, retryable: false, attempts: 1, requestId: 'req_scripted_1' });
    expect(server.requests).toHaveLength(1);
    expect(server.remaining()).toBe(1);
  });

  it('flags a prompt-too-long 400 as contextOverflow (so the session can compact and retry); a plain 400 is not', async () => {
    server.setScenario([errorResponse(400, { message: "prompt is too long: 250001 tokens > 200000 maximum" })]);
    const overflow = await failureOf(client(), simple);
    expect((overflow.error as CodeError).details).toMatchObject({ provider: 'anthropic', status: 400, retryable: false, contextOverflow: true });
    server.setScenario([errorResponse(400, { message: 'messages: bad' })]);
    const plain = await failureOf(client(), simple);
    expect((plain.error as CodeError).details['contextOverflow']).toBeUndefined();
  });

  it('gives up after maxRetries and never shows the API key', async () => {
    server.setScenario([errorResponse(500, { message: `upstream echoed ${API_KEY}` }), errorResponse(500), errorResponse(500)]);
    const { error } = await failureOf(client({ maxRetries: 1 }), simple);
    expect((error as CodeError).details).toMatchObject({ status: 500, retryable: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    const first = await failureOf(client({ maxRetries: 0 }), simple);
    expect((first.error as Error).message).not.toContain(API_KEY);
    expect(String(((first.error as Error).cause as Error | undefined)?.message)).not.toContain(API_KEY);
  });

  it('retries a stream cut in the middle of tool input and completes the second attempt', async () => {
    const call = { id: 'toolu_cut', name: 'read', input: { file_path: 'src/very/long/path/name.ts' } };
    server.setScenario([{ toolCalls: [call], toolInputChunks: 6, cutMidToolInput: true }, { toolCalls: [call], toolInputChunks: 6 }]);
    const events = await collect(client().stream(simple));
    const secondStart = events.findIndex((event) => event.type === 'attempt_start' && event.attempt === 2);
    expect(events[secondStart]).toEqual({ type: 'attempt_start', attempt: 2, retryReason: 'stream_interrupted' });
    const firstAttempt = events.slice(0, secondStart);
    expect(firstAttempt.map((event) => event.type)).toContain('tool_call_delta');
    expect(firstAttempt.map((event) => event.type)).not.toContain('tool_call_end');
    const secondAttempt = events.slice(secondStart + 1);
    expect(secondAttempt.filter((event) => event.type === 'tool_call_delta').map((event) => event.partialJson).join('')).toBe(JSON.stringify(call.input));
    expect(secondAttempt.at(-2)).toEqual({ type: 'tool_call_end', id: 'toolu_cut', name: 'read', input: call.input });
    expect(secondAttempt.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'tool_use' });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a hung provider at timeoutMs with LLM_ERROR { timeout: true }', async () => {
    server.setScenario([hangResponse()]);
    const { error } = await failureOf(client(), simple, { timeoutMs: 600 });
    expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ provider: 'anthropic', timeout: true, timeoutMs: 600 });
    expect(server.requests).toHaveLength(1);
  });

  it('ends quietly with an AbortError when the caller aborts mid-stream', async () => {
    server.setScenario([{ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 150 }]);
    const controller = new AbortController();
    const seen: LlmStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of client().stream(simple, { abortSignal: controller.signal })) {
        seen.push(event);
        if (event.type === 'text_delta') controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).name).toBe('AbortError');
    expect(seen.map((event) => event.type)).toEqual(['attempt_start', 'text_delta']);
    expect(server.requests).toHaveLength(1);
  });

  it('sends the exact Messages body for a conversation with tool calls, results and an image', async () => {
    server.setScenario([textResponse('ok')]);
    const request: LlmRequest = {
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in this screenshot?' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Need the file.', signature: 'sig-1' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_call', id: 'toolu_a', name: 'read', input: { file_path: 'a.ts' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: 'toolu_a', content: 'export const a = 1;', isError: false }] },
      ],
      tools: [readTool],
      toolChoice: { type: 'auto' },
      maxTokens: 1000,
      temperature: 0.2,
    };
    await collect(client().stream(request));
    expect(server.requests[0]?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1000,
      stream: true,
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this screenshot?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Need the file.', signature: 'sig-1' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'toolu_a', name: 'read', input: { file_path: 'a.ts' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'export const a = 1;', cache_control: { type: 'ephemeral' } }] },
      ],
      tools: [{ name: 'read', description: 'Read a file', input_schema: readTool.parameters, cache_control: { type: 'ephemeral' } }],
      tool_choice: { type: 'auto' },
      temperature: 0.2,
    });
  });

  it('uses toolCallResponse ids and stop reasons from the server', async () => {
    server.setScenario([toolCallResponse('read', { file_path: 'x' })]);
    const events = await collect(client().stream(simple));
    expect(events.find((event) => event.type === 'tool_call_start')).toEqual({ type: 'tool_call_start', id: 'toolu_scripted_0_0', name: 'read' });
  });
});
