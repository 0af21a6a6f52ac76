import type { LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import { propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicClient, toAnthropicRequest } from '../src/index.js';

// The class the client sends through (load-anthropic-sdk.ts imports anthropic-sdk-entry.ts, and so this, from the sources).

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  vi.restoreAllMocks();
  trace.disable();
  propagation.disable();
  await server.close();
});

const readTool = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };
const settings = { model: 'claude-test', maxTokens: 8192, promptCaching: true };

/** A three-turn conversation through one client; returns the raw bodies the server received. */
async function conversation(): Promise<{ bodies: string[]; requests: LlmRequest[] }> {
  server.setScenario([toolCallResponse('read', { file_path: 'a.ts' }), toolCallResponse('read', { file_path: 'b.ts' }), textResponse('done')]);
  const client = createAnthropicClient({ apiKey: 'sk-ant-test-key-0123456789', baseURL: server.anthropicBaseUrl, model: 'claude-test' });
  const requests: LlmRequest[] = [];
  let messages: LlmRequest['messages'] = [{ role: 'user', content: [{ type: 'text', text: 'read both' }] }];
  for (let turn = 0; turn < 3; turn += 1) {
    const request: LlmRequest = { system: 'You are terse.', messages, tools: [readTool] };
    requests.push(request);
    const events: LlmStreamEvent[] = [];
    for await (const event of client.stream(request)) events.push(event);
    const end = events.at(-1);
    if (end?.type !== 'message_end') throw new Error('no message_end');
    const call = end.content.find((part) => part.type === 'tool_call');
    messages = [...messages, { role: 'assistant', content: end.content }, ...(call?.type === 'tool_call' ? [{ role: 'user' as const, content: [{ type: 'tool_result' as const, toolCallId: call.id, content: `text of ${turn}`, isError: false }] }] : [])];
  }
  return { bodies: server.requests.map((request) => Buffer.from(request.rawBytes).toString('utf8')), requests };
}

describe('request bodies', () => {
  it('are byte for byte what messages.create encodes, turn after turn (the pre-encoded path)', async () => {
    const create = vi.spyOn(Messages.prototype, 'create');
    const { bodies, requests } = await conversation();
    expect(create).not.toHaveBeenCalled();
    expect(bodies).toHaveLength(3);
    expect(bodies).toEqual(requests.map((request) => JSON.stringify(toAnthropicRequest(request, settings))));
    expect(server.requests.every((request) => request.headers['content-type'] === 'application/json')).toBe(true);
    expect(server.errors).toEqual([]);
  });

  it('go through messages.create, with its span, once an OpenTelemetry tracer provider is registered', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    const create = vi.spyOn(Messages.prototype, 'create');
    const { bodies, requests } = await conversation();
    expect(create).toHaveBeenCalledTimes(3);
    expect(bodies).toEqual(requests.map((request) => JSON.stringify(toAnthropicRequest(request, settings))));
    // The vendor SDK's own span of each call: what a host that registered a provider sees.
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['anthropic.messages.create', 'anthropic.messages.create', 'anthropic.messages.create']);
  });
});
