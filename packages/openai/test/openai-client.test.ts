import { CodeError } from '@a3s-lab/code-core';
import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import { errorResponse, llmClientContract, startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../src/index.js';

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.close();
});

const API_KEY = 'sk-proj-test-key-0123456789';
const readTool = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };
const simple: LlmRequest = { system: 'You are terse.', messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.ts' }] }], tools: [readTool] };

function client(overrides: { maxRetries?: number; maxTokens?: number } = {}): LlmClient {
  return createOpenAIClient({ apiKey: API_KEY, baseURL: server.openaiBaseUrl, model: 'gpt-test', headers: { 'x-team': 'a3s' }, organization: 'org-a3s', ...overrides });
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

describe('createOpenAIClient against the scripted server', () => {
  it('streams reasoning, text and a tool call with partial JSON, usage incl. cached tokens', async () => {
    server.setScenario([
      {
        reasoning: ['Let me ', 'look.'],
        text: ['I will ', 'read it.'],
        toolCalls: [{ id: 'call_1', name: 'read', input: { file_path: 'src/a.ts' } }],
        toolInputChunks: 3,
        usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900 },
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
      { type: 'tool_call_start', id: 'call_1', name: 'read' },
      { type: 'tool_call_end', id: 'call_1', name: 'read', input: { file_path: 'src/a.ts' } },
      {
        type: 'message_end',
        stopReason: 'tool_use',
        usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900 },
        content: [
          { type: 'reasoning', text: 'Let me look.' },
          { type: 'text', text: 'I will read it.' },
          { type: 'tool_call', id: 'call_1', name: 'read', input: { file_path: 'src/a.ts' } },
        ],
      },
    ]);
    const [request] = server.requests;
    expect(request?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['x-team']).toBe('a3s');
    expect(request?.headers['openai-organization']).toBe('org-a3s');
    expect(server.errors).toEqual([]);
  });

  it('obeys x-should-retry: false and never shows the API key', async () => {
    server.setScenario([errorResponse(503, { shouldRetry: false, message: `proxy echoed ${API_KEY}` }), textResponse('never')]);
    const { error } = await failureOf(client(), simple);
    expect((error as CodeError).details).toMatchObject({ status: 503, retryable: false });
    expect((error as Error).message).not.toContain(API_KEY);
    expect(String(((error as Error).cause as Error | undefined)?.message)).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('sends the exact Chat Completions body for a conversation with tool calls, results and an image', async () => {
    server.setScenario([textResponse('ok')]);
    const request: LlmRequest = {
      system: 'You are a coding agent.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in this screenshot?' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Need the file.' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_call', id: 'call_a', name: 'read', input: { file_path: 'a.ts' } },
            { type: 'tool_call', id: 'call_b', name: 'read', input: { file_path: 'b.ts' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: 'call_a', content: 'export const a = 1;', isError: false },
            { type: 'tool_result', toolCallId: 'call_b', content: 'not found: b.ts', isError: true },
          ],
        },
      ],
      tools: [readTool],
      toolChoice: { type: 'auto' },
      temperature: 0.2,
    };
    await collect(client({ maxTokens: 1000 }).stream(request));
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this screenshot?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"file_path":"a.ts"}' } },
            { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"file_path":"b.ts"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'export const a = 1;' },
        { role: 'tool', tool_call_id: 'call_b', content: 'not found: b.ts' },
      ],
      tools: [{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: readTool.parameters } }],
      tool_choice: 'auto',
      max_tokens: 1000,
      temperature: 0.2,
    });
  });
});

describe('createOpenAIClient: the LLM client contract', () => {
  const cases = llmClientContract({
    provider: 'openai',
    apiKey: API_KEY,
    createClient: (scripted, options) => createOpenAIClient({ apiKey: API_KEY, baseURL: scripted.openaiBaseUrl, model: 'gpt-test', ...options }),
    toolCallIdPrefix: 'call_',
    inStreamErrorReason: 'stream_error:server_error',
    inStreamErrorAfterEvents: 2,
    contextOverflowMessage: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.run(server);
  });
});
