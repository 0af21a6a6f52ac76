import type { LlmClient, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import { llmClientContract, startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
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

describe('createAnthropicClient: the LLM client contract', () => {
  const cases = llmClientContract({
    provider: 'anthropic',
    apiKey: API_KEY,
    createClient: (scripted, options) => createAnthropicClient({ apiKey: API_KEY, baseURL: scripted.anthropicBaseUrl, model: 'claude-test', ...options }),
    toolCallIdPrefix: 'toolu_',
    inStreamErrorReason: 'stream_error:overloaded_error',
    inStreamErrorAfterEvents: 3,
    contextOverflowMessage: 'prompt is too long: 250001 tokens > 200000 maximum',
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.run(server);
  });
});
