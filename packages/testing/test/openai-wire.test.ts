import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  errorResponse,
  hangResponse,
  reasoningResponse,
  startScriptedModelServer,
  textResponse,
  toolCallResponse,
  toolCallsResponse,
} from '../src/index.js';
import type { ScriptedModelServer } from '../src/index.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(target: ScriptedModelServer, options: { maxRetries?: number; timeout?: number } = {}): OpenAI {
  return new OpenAI({
    apiKey: 'test-key',
    baseURL: target.openaiBaseUrl,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
}

const ask = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('OpenAI Chat Completions through the real SDK', () => {
  it('streams content deltas, a finish chunk, the usage chunk and [DONE]', async () => {
    server = await startScriptedModelServer({
      scenario: [textResponse(['Hel', 'lo'], { usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 30 } })],
    });
    const stream = await client(server).chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual(['', 'Hel', 'lo', null, null]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 2, total_tokens: 42, prompt_tokens_details: { cached_tokens: 30 } });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks[0]?.model).toBe('gpt-test');
  });

  it('sends no usage chunk unless include_usage is set', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('x')] });
    const stream = await client(server).chat.completions.create({ ...ask, stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.usage === undefined && chunk.choices.length === 1)).toBe(true);
  });

  it('streams tool_calls deltas that the SDK reassembles', async () => {
    const first = { file_path: 'src/a.ts' };
    const second = { pattern: 'TODO', path: 'src', output_mode: 'files_with_matches' };
    server = await startScriptedModelServer({
      scenario: [toolCallsResponse([{ name: 'read', input: first }, { id: 'call_custom', name: 'grep', input: second }], { toolInputChunks: 4 })],
    });
    const raw = await client(server).chat.completions.create({ ...ask, stream: true });
    const argumentPieces: string[] = [];
    for await (const chunk of raw) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (call.index === 1 && call.function?.arguments) argumentPieces.push(call.function.arguments);
      }
    }
    expect(argumentPieces.length).toBe(4);
    expect(argumentPieces.join('')).toBe(JSON.stringify(second));

    server.setScenario([toolCallsResponse([{ name: 'read', input: first }, { id: 'call_custom', name: 'grep', input: second }])]);
    const completion = await client(server).chat.completions.stream(ask).finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_scripted_1_0', type: 'function', function: { name: 'read', arguments: JSON.stringify(first) } },
      { id: 'call_custom', type: 'function', function: { name: 'grep', arguments: JSON.stringify(second) } },
    ]);
  });

  it('streams reasoning as delta.reasoning_content', async () => {
    server = await startScriptedModelServer({ scenario: [reasoningResponse('thinking...', 'done')] });
    const stream = await client(server).chat.completions.create({ ...ask, stream: true });
    const reasoning: unknown[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      if (delta?.reasoning_content !== undefined) reasoning.push(delta.reasoning_content);
    }
    expect(reasoning).toEqual(['thinking...']);
  });

  it('answers non-streaming requests with a chat.completion and usage', async () => {
    server = await startScriptedModelServer({
      scenario: [toolCallResponse('bash', { command: 'ls' }, { text: 'Listing.', usage: { inputTokens: 3, outputTokens: 4 } })],
    });
    const completion = await client(server).chat.completions.create(ask);
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message).toMatchObject({
      role: 'assistant',
      content: 'Listing.',
      tool_calls: [{ id: 'call_scripted_0_0', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('429 with retry-after-ms is retried by the SDK itself', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(429, { retryAfterMs: 10 }), textResponse('ok')] });
    const completion = await client(server, { maxRetries: 2 }).chat.completions.create(ask);
    expect(completion.choices[0]?.message.content).toBe('ok');
    expect(server.requests.length).toBe(2);
  });

  it('errors carry the OpenAI error body', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(429, { message: 'quota' })] });
    const error = await client(server).chat.completions.create(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(apiError.code).toBe('rate_limit_exceeded');
    expect(apiError.message).toContain('quota');
    expect(apiError.requestID).toMatch(/^req_scripted_/);
  });

  it('5xx errors (529 included) are InternalServerErrors, 401 an AuthenticationError', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(529), errorResponse(401)] });
    const overloaded = await client(server).chat.completions.create(ask).catch((caught: unknown) => caught);
    expect(overloaded).toBeInstanceOf(OpenAI.InternalServerError);
    expect((overloaded as InstanceType<typeof OpenAI.APIError>).status).toBe(529);
    const unauthorized = await client(server).chat.completions.create(ask).catch((caught: unknown) => caught);
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauthorized as InstanceType<typeof OpenAI.APIError>).code).toBe('invalid_api_key');
  });

  it('a stream cut in the middle of tool arguments is an error', async () => {
    server = await startScriptedModelServer({
      scenario: [toolCallResponse('write', { file_path: 'a', content: 'y'.repeat(100) }, { toolInputChunks: 4, cutMidToolInput: true })],
    });
    const raw = await client(server).chat.completions.create({ ...ask, stream: true });
    let argumentsSoFar = '';
    const error = await (async () => {
      for await (const chunk of raw) argumentsSoFar += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    })().catch((caught: unknown) => caught);
    // Raw iteration surfaces undici's TypeError('terminated'); the stream helpers wrap it in OpenAIError.
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(OpenAI.APIError);
    expect(argumentsSoFar.length).toBeGreaterThan(0);
    expect(argumentsSoFar.length).toBeLessThan(JSON.stringify({ file_path: 'a', content: 'y'.repeat(100) }).length);
  });

  it('an in-stream error object becomes an APIError', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse(['a', 'b'], { streamError: { afterEvents: 2, message: 'backend died' } })] });
    const error = await client(server).chat.completions.stream(ask).finalChatCompletion().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('backend died');
  });

  it('a hanging request times out in the SDK', async () => {
    server = await startScriptedModelServer({ scenario: [hangResponse()] });
    const error = await client(server, { timeout: 300 }).chat.completions.create(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('lists models', async () => {
    server = await startScriptedModelServer({ models: ['gpt-a', 'gpt-b'] });
    const page = await client(server).models.list();
    expect(page.data.map((model) => model.id)).toEqual(['gpt-a', 'gpt-b']);
    expect(server.requests[0]).toMatchObject({ protocol: 'openai', method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.scenarioIndex).toBeUndefined();
  });
});
