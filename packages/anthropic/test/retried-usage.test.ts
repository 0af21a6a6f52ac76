// The prompt of an attempt that failed after message_start was billed all the same: a retried
// call's usage counts every attempt's tokens, not only the last one's.
import type { LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../src/index.js';

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.close();
});

const usage = { inputTokens: 500, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 20 };
const ok: ScriptedResponse = { text: ['done'], usage };
const cut = (events: number): ScriptedResponse => ({ text: ['partial ', 'answer ', 'that ', 'breaks'], usage, cutAfterEvents: events });
const overloaded: ScriptedResponse = { text: ['x'], usage, streamError: { type: 'overloaded_error', message: 'Overloaded' } };

async function finalUsage(scenario: readonly ScriptedResponse[]): Promise<LlmUsage> {
  server.setScenario(scenario);
  const llm = createAnthropicClient({ apiKey: 'sk-ant-test-0123456789', baseURL: server.anthropicBaseUrl, model: 'claude-test', maxRetries: 3 });
  let end: LlmStreamEvent | undefined;
  for await (const event of llm.stream({ system: 'terse', tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })) if (event.type === 'message_end') end = event;
  if (end?.type !== 'message_end') throw new Error('no message_end');
  return end.usage;
}

describe('usage of retried Anthropic attempts', () => {
  it.each([
    ['one attempt cut after message_start', [cut(2), ok], 2],
    ['one attempt cut mid-text', [cut(5), ok], 2],
    ['two cut attempts', [cut(3), cut(4), ok], 3],
    ['an in-stream overloaded error after message_start', [overloaded, ok], 2],
  ] as const)('%s: every billed prompt is counted', async (_name, scenario, attempts) => {
    const total = await finalUsage(scenario);
    expect(total.inputTokens).toBe(usage.inputTokens * attempts);
    expect(total.cacheReadTokens).toBe(usage.cacheReadTokens * attempts);
    expect(server.requests.length).toBe(attempts);
  });

  it('a first attempt that succeeds reports its own usage only', async () => {
    expect(await finalUsage([ok])).toEqual(usage);
  });
});
