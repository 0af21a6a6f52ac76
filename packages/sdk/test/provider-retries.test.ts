// One retry test for every provider client: both adapters implement one attempt and run through
// core's shared retry wrapper, so the same scripted failures over real HTTP must give the same
// attempts, the same honoured Retry-After, the same abort and the same billed usage.
import { createAnthropicClient } from '@a3s-lab/code-anthropic';
import type { LlmClient, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import { createOpenAIClient } from '@a3s-lab/code-openai';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface Subject {
  readonly provider: string;
  create(server: ScriptedModelServer, fetchImpl?: typeof fetch): LlmClient;
}

const SUBJECTS: readonly Subject[] = [
  {
    provider: 'anthropic',
    create: (server, fetchImpl) =>
      createAnthropicClient({ apiKey: 'sk-ant-test-0123456789', baseURL: server.anthropicBaseUrl, model: 'claude-test', maxRetries: 4, ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }) }),
  },
  {
    provider: 'openai',
    create: (server, fetchImpl) =>
      createOpenAIClient({ apiKey: 'sk-oai-test-0123456789', baseURL: server.openaiBaseUrl, model: 'gpt-test', maxRetries: 4, ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }) }),
  },
];

const request = { system: 'terse', tools: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
// No cache writes: the OpenAI wire has no field for them (they are part of prompt_tokens).
const usage = { inputTokens: 400, outputTokens: 9, cacheReadTokens: 120 };
const RETRY_AFTER_MS = 150;

// A stream cut after the provider reported its usage (Anthropic's message_start; every chunk on
// an OpenAI server with continuous usage stats): that prompt was billed.
const cutAfterUsage: ScriptedResponse = { text: ['partial ', 'answer ', 'that ', 'breaks'], usage, usageInEveryChunk: true, cutAfterEvents: 3 };
const overloaded: ScriptedResponse = { error: { status: 529, retryAfterMs: RETRY_AFTER_MS, type: 'overloaded_error' } };
const serverError: ScriptedResponse = { error: { status: 500, retryAfterMs: 1 } };
const ok: ScriptedResponse = { text: ['done'], usage, usageInEveryChunk: true };

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.close();
});

// Anthropic's wire always reports cache writes, OpenAI's has no such field: 0 either way.
function tokens(usage: LlmUsage | undefined): LlmUsage | undefined {
  return usage === undefined ? undefined : { ...usage, cacheWriteTokens: usage.cacheWriteTokens ?? 0 };
}

async function run(llm: LlmClient, abortSignal?: AbortSignal): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of llm.stream(request, abortSignal === undefined ? {} : { abortSignal })) events.push(event);
  return events;
}

describe.each(SUBJECTS)('retries of the $provider client (core retry wrapper)', (subject) => {
  it('a cut stream, a 529 and a 500, then success: one response whose usage adds the billed attempt; Retry-After honoured', async () => {
    server.setScenario([cutAfterUsage, overloaded, serverError, ok]);
    const events = await run(subject.create(server));
    const starts = events.filter((event) => event.type === 'attempt_start');
    expect(starts.map((event) => event.attempt)).toEqual([1, 2, 3, 4]);
    expect(starts.slice(2).map((event) => event.retryReason)).toEqual(['http_529', 'http_500']);
    const ends = events.filter((event) => event.type === 'message_end');
    expect(ends).toHaveLength(1);
    // The cut attempt billed its prompt (and Anthropic's message_start output token); the two
    // HTTP errors billed nothing.
    expect(tokens(ends[0]?.usage)).toEqual({ inputTokens: usage.inputTokens * 2, outputTokens: usage.outputTokens + 1, cacheReadTokens: usage.cacheReadTokens * 2, cacheWriteTokens: 0 });
    expect(server.requests.length).toBe(4);
    // The retry after the 529 went out no earlier than its Retry-After said (ms clock granularity).
    const [, afterCut, after529] = server.requests.map((recorded) => recorded.receivedAtMs);
    expect(after529).toBeGreaterThanOrEqual((afterCut ?? Number.NaN) + RETRY_AFTER_MS - 1);
  });

  it('an abort while waiting out a long Retry-After ends the call with an AbortError and no further request', async () => {
    // 30 s of Retry-After: if the abort did not end the wait, the test would time out.
    server.setScenario([{ error: { status: 529, retryAfterMs: 30_000 } }, ok]);
    const controller = new AbortController();
    const answered = Promise.withResolvers<void>();
    const observingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // Abort once the 529's body has arrived: the client is then classifying it or waiting.
      void response.clone().text().then(() => answered.resolve());
      return response;
    };
    const call = run(subject.create(server, observingFetch), controller.signal);
    await answered.promise;
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests.length).toBe(1);
  }, 5_000);
});

it('both providers give the same attempts and the same usage for the same failures', async () => {
  const outcomes: unknown[] = [];
  for (const subject of SUBJECTS) {
    server.setScenario([cutAfterUsage, serverError, ok]);
    const events = await run(subject.create(server));
    outcomes.push(events.filter((event) => event.type === 'attempt_start' || event.type === 'message_end').map((event) => (event.type === 'message_end' ? { usage: tokens(event.usage) } : event)));
  }
  expect(outcomes[1]).toEqual(outcomes[0]);
});
