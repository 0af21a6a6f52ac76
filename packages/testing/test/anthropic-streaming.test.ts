import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  malformedToolCallResponse,
  reasoningResponse,
  startScriptedModelServer,
  textResponse,
  toolCallResponse,
} from '../src/index.js';
import type { ScriptedModelServer } from '../src/index.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(target: ScriptedModelServer, options: { maxRetries?: number; timeout?: number } = {}): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: target.anthropicBaseUrl, maxRetries: options.maxRetries ?? 0, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) });
}

const ask = { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('Anthropic Messages streaming through the real SDK', () => {
  it('streams text deltas the SDK reassembles', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse(['Hel', 'lo ', 'world'])] });
    const stream = client(server).messages.stream(ask);
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(deltas).toEqual(['Hel', 'lo ', 'world']);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.model).toBe('claude-test');
    expect(server.errors).toEqual([]);
  });

  it('streams thinking with its signature before the text', async () => {
    server = await startScriptedModelServer({
      scenario: [reasoningResponse(['Let me ', 'think.'], 'Answer', { reasoningSignature: 'sig-abc' })],
    });
    const stream = client(server).messages.stream(ask);
    const thinking: string[] = [];
    stream.on('thinking', (delta) => thinking.push(delta));
    const message = await stream.finalMessage();
    expect(thinking).toEqual(['Let me ', 'think.']);
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
      { type: 'text', text: 'Answer' },
    ]);
  });

  it('splits tool input into several input_json_delta chunks that finalMessage() reassembles', async () => {
    const input = { file_path: 'src/deep/nested/file.ts', offset: 10, limit: 200 };
    server = await startScriptedModelServer({
      scenario: [toolCallResponse('read', input, { text: 'Reading.', toolInputChunks: 4 })],
    });
    const stream = client(server).messages.stream(ask);
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();
    expect(partials.length).toBe(4);
    expect(partials.join('')).toBe(JSON.stringify(input));
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'toolu_scripted_0_0', name: 'read', input },
    ]);
  });

  it('reports usage including cache tokens in message_start and message_delta', async () => {
    server = await startScriptedModelServer({
      scenario: [textResponse('ok', { usage: { inputTokens: 12, outputTokens: 34, cacheReadTokens: 56, cacheWriteTokens: 78 } })],
    });
    const events: string[] = [];
    const raw = await client(server).messages.create({ ...ask, stream: true });
    let startUsage: unknown;
    let deltaUsage: unknown;
    for await (const event of raw) {
      events.push(event.type);
      if (event.type === 'message_start') startUsage = event.message.usage;
      if (event.type === 'message_delta') deltaUsage = event.usage;
    }
    expect(events).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(startUsage).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 56, cache_creation_input_tokens: 78 });
    expect(deltaUsage).toMatchObject({ output_tokens: 34 });
    const final = await client(server).messages.stream(ask).finalMessage().catch((error: unknown) => error);
    // The list had one entry: the second call gets a non-retryable "scenario exhausted" error.
    expect(final).toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.errors.map((error) => error.code)).toEqual(['CONFIG_ERROR']);
  });

  it('final usage of the SDK snapshot carries cache tokens', async () => {
    server = await startScriptedModelServer({
      scenario: [textResponse('ok', { usage: { inputTokens: 5, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 3 } })],
    });
    const message = await client(server).messages.stream(ask).finalMessage();
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 3 });
  });

  it('streams malformed tool input verbatim', async () => {
    server = await startScriptedModelServer({ scenario: [malformedToolCallResponse('write', '{"file_path": "a.ts", "content": ')] });
    const raw = await client(server).messages.create({ ...ask, stream: true });
    let json = '';
    for await (const event of raw) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') json += event.delta.partial_json;
    }
    expect(json).toBe('{"file_path": "a.ts", "content": ');
  });
});

describe('Anthropic Messages non-streaming through the real SDK', () => {
  it('returns thinking, text and tool_use blocks with usage in one JSON message', async () => {
    server = await startScriptedModelServer({
      scenario: [
        {
          reasoning: 'plan',
          text: 'Calling.',
          toolCalls: [{ id: 'toolu_fixed', name: 'bash', input: { command: 'ls' } }],
          usage: { inputTokens: 9, outputTokens: 8, cacheReadTokens: 7, cacheWriteTokens: 6 },
        },
      ],
    });
    const message = await client(server).messages.create(ask);
    expect(message).toMatchObject({
      id: 'msg_scripted_0',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 8, cache_read_input_tokens: 7, cache_creation_input_tokens: 6 },
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'plan', signature: 'sig_scripted_0' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_fixed', name: 'bash', input: { command: 'ls' } },
    ]);
  });

  it('maps stop reasons and emits redacted thinking first', async () => {
    server = await startScriptedModelServer({ scenario: [{ redactedReasoning: 'opaque', text: 'cut', stopReason: 'max_tokens' }] });
    const message = await client(server).messages.stream(ask).finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.content).toEqual([
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'cut' },
    ]);
  });
});
