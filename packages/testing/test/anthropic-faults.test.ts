import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  errorResponse,
  hangResponse,
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

function client(target: ScriptedModelServer, options: { maxRetries?: number; timeout?: number; apiKey?: string } = {}): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey ?? 'test-key',
    baseURL: target.anthropicBaseUrl,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
}

const ask = { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('Anthropic faults through the real SDK', () => {
  it('429 with retry-after is retried by the SDK itself', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(429, { retryAfterMs: 10 }), textResponse('after retry')] });
    const message = await client(server, { maxRetries: 2 }).messages.stream(ask).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'after retry' }]);
    expect(server.requests.length).toBe(2);
    expect(server.requests.map((request) => request.scenarioIndex)).toEqual([0, 1]);
    // The SDK announces the retry in its own header.
    expect(server.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
  });

  it('sends the retry headers and the Anthropic error body', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(429, { retryAfterMs: 1500, message: 'slow down' })] });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('x-request-id')).toMatch(/^req_scripted_/);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
      request_id: response.headers.get('request-id'),
    });
  });

  it('529 surfaces as an overloaded_error APIError', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(529)] });
    const error = await client(server).messages.stream(ask).finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(apiError.requestID).toMatch(/^req_scripted_/);
  });

  it('x-should-retry: false stops the SDK from retrying a 500', async () => {
    server = await startScriptedModelServer({ scenario: [errorResponse(500, { shouldRetry: false }), textResponse('unused')] });
    const error = await client(server, { maxRetries: 2 }).messages.create(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(server.requests.length).toBe(1);
    expect(server.remaining()).toBe(1);
  });

  it('a stream cut in the middle of tool input is an error after some input_json_delta chunks', async () => {
    server = await startScriptedModelServer({
      scenario: [toolCallResponse('write', { file_path: 'a.ts', content: 'x'.repeat(200) }, { toolInputChunks: 6, cutMidToolInput: true })],
    });
    const stream = client(server).messages.stream(ask);
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    stream.on('error', () => undefined);
    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    // A broken body is a plain AnthropicError ('terminated', cause: undici socket error), not an APIError.
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect(error).not.toBeInstanceOf(Anthropic.APIError);
    expect(partials.length).toBe(3);
    expect(server.errors).toEqual([]);
  });

  it('cutAfterEvents cuts the raw stream after exactly that many events', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse(['a', 'b', 'c'], { cutAfterEvents: 4 })] });
    const raw = await client(server).messages.create({ ...ask, stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of raw) seen.push(event.type);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    // message_start, content_block_start, ping (filtered by the SDK), first text delta.
    expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
  });

  it('an in-stream error event becomes an APIError', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('never finished', { streamError: { afterEvents: 3 } })] });
    const error = await client(server).messages.stream(ask).finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { type: 'overloaded_error' } });
  });

  it('a hanging request times out in the SDK, and its retry gets the next response', async () => {
    server = await startScriptedModelServer({ scenario: [hangResponse(), hangResponse(), textResponse('recovered')] });
    const timedOut = await client(server, { timeout: 300 }).messages.create(ask).catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    // Generous per-attempt timeout: the retry must not time out on a loaded machine.
    const message = await client(server, { timeout: 1500, maxRetries: 1 }).messages.create(ask);
    expect(message.content).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(server.requests.length).toBe(3);
  });

  it('a non-streaming body cut in half is an error', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('x'.repeat(500), { cutAfterEvents: 1 })] });
    const error = await client(server).messages.create(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
  });

  it('latency and per-event delays still deliver the whole message', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse(['slow', ' but ', 'sure'], { latencyMs: 20, chunkDelayMs: 5 })] });
    const message = await client(server).messages.stream(ask).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'slow but sure' }]);
  });

  it('rejects a wrong API key with a 401 authentication_error and consumes nothing', async () => {
    server = await startScriptedModelServer({ apiKey: 'right', scenario: [textResponse('ok')] });
    const error = await client(server, { apiKey: 'wrong' }).messages.create(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(server.remaining()).toBe(1);
    const message = await client(server, { apiKey: 'right' }).messages.create(ask);
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
  });
});
