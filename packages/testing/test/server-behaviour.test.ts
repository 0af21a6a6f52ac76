import Anthropic from '@anthropic-ai/sdk';
import { CodeError } from '@a3s-lab/code-core';
import { afterEach, describe, expect, it } from 'vitest';
import { hangResponse, startScriptedModelServer, textResponse, toolCallResponse } from '../src/index.js';
import type { ScriptedModelServer, ScriptedResponse } from '../src/index.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };

function post(target: ScriptedModelServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('scripted model server behaviour', () => {
  it('records every request with its exact bytes, headers and parsed body', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('one')] });
    const anthropic = new Anthropic({ apiKey: 'k-123', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    await anthropic.messages.create({ ...ask, system: 'be brief' });
    const [request] = server.requests;
    expect(request?.protocol).toBe('anthropic');
    expect(request?.path).toBe('/v1/messages');
    // SDK 1.14 sends the key as a bearer token (older versions used x-api-key; both are accepted).
    expect(request?.headers['authorization']).toBe('Bearer k-123');
    expect(request?.headers['anthropic-version']).toBeDefined();
    expect(request?.stream).toBe(false);
    expect(request?.body).toEqual({ ...ask, system: 'be brief' });
    expect(JSON.parse(new TextDecoder().decode(request?.rawBytes))).toEqual(request?.body);
    expect(request?.rawBytes.length).toBe(Number(request?.headers['content-length']));
    expect(typeof request?.receivedAtMs).toBe('number');
  });

  it('counts down remaining(), restarts on setScenario, and reports exhaustion', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('a'), textResponse('b')] });
    expect(server.remaining()).toBe(2);
    expect((await post(server, '/v1/messages', ask)).status).toBe(200);
    expect(server.remaining()).toBe(1);
    server.setScenario([textResponse('c')]);
    const body = (await (await post(server, '/v1/messages', ask)).json()) as { content: unknown };
    expect(body.content).toEqual([{ type: 'text', text: 'c' }]);
    const exhausted = await post(server, '/v1/messages', ask);
    expect(exhausted.status).toBe(400);
    expect(exhausted.headers.get('x-should-retry')).toBe('false');
    expect(server.errors).toHaveLength(1);
    expect(server.errors[0]?.code).toBe('CONFIG_ERROR');
    expect(server.requests.map((request) => request.scenarioIndex)).toEqual([0, 0, undefined]);
    server.setScenario(() => textResponse('dynamic'));
    expect(server.remaining()).toBe(Number.POSITIVE_INFINITY);
    server.clearRequests();
    expect(server.requests).toHaveLength(0);
    expect(server.errors).toHaveLength(0);
  });

  it('answers unknown routes with 404 and bad bodies with 400, consuming nothing', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('kept')] });
    const notFound = await post(server, '/v1/complete', ask);
    expect(notFound.status).toBe(404);
    const badJson = await post(server, '/v1/chat/completions', '{not json');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const missingMessages = await post(server, '/v1/messages', { model: 'm' });
    expect(missingMessages.status).toBe(400);
    expect(await missingMessages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(server.remaining()).toBe(1);
    expect(server.requests).toHaveLength(3);
  });

  it('reports a scenario function that throws and answers with a non-retryable 500', async () => {
    server = await startScriptedModelServer({
      scenario: () => {
        throw new Error('script bug');
      },
    });
    const response = await post(server, '/v1/chat/completions', { model: 'm', messages: [] });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(server.errors[0]?.cause).toBeInstanceOf(Error);
  });

  it('reports cutMidToolInput without a tool call as a scenario error', async () => {
    server = await startScriptedModelServer({ scenario: [textResponse('no tools', { cutMidToolInput: true })] });
    const response = await post(server, '/v1/messages', { ...ask, stream: true });
    expect(response.status).toBe(500);
    expect(server.errors[0]?.details).toEqual({ scenarioIndex: 0 });
  });

  it('gives tool calls ids that stay unique across setScenario', async () => {
    const script: ScriptedResponse[] = [toolCallResponse('ls', {})];
    server = await startScriptedModelServer({ scenario: script });
    const first = (await (await post(server, '/v1/messages', ask)).json()) as { content: { id: string }[] };
    server.setScenario(script);
    const second = (await (await post(server, '/v1/messages', ask)).json()) as { content: { id: string }[] };
    expect(first.content[0]?.id).toBe('toolu_scripted_0_0');
    expect(second.content[0]?.id).toBe('toolu_scripted_1_0');
  });

  it('close() drops hanging requests and is idempotent', async () => {
    server = await startScriptedModelServer({ scenario: [hangResponse()] });
    const pending = post(server, '/v1/messages', ask).catch((caught: unknown) => caught);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([server.close(), server.close()]);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('rejects invalid options with CONFIG_ERROR and a taken port with IO_ERROR', async () => {
    await expect(startScriptedModelServer({ port: 70_000 })).rejects.toSatisfy((error) => CodeError.hasCode(error, 'CONFIG_ERROR'));
    await expect(startScriptedModelServer({ scenario: 'nope' as never })).rejects.toSatisfy((error) => CodeError.hasCode(error, 'CONFIG_ERROR'));
    server = await startScriptedModelServer();
    await expect(startScriptedModelServer({ port: server.port })).rejects.toSatisfy((error) => CodeError.hasCode(error, 'IO_ERROR'));
  });

  it('serves the Anthropic model list to Anthropic clients', async () => {
    server = await startScriptedModelServer({ models: ['claude-a'] });
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const page = await anthropic.models.list();
    expect(page.data.map((model) => model.id)).toEqual(['claude-a']);
    expect(server.requests[0]?.protocol).toBe('anthropic');
  });
});
