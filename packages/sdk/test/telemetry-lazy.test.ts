// A host without OpenTelemetry never loads `@opentelemetry/api` (issue 33, import time): a whole
// send with tool calls runs with the API unloaded; passing a provider loads it.
import { otelApi } from '@a3s-lab/code-runtime';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const registered = (): boolean => (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')] !== undefined;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('the OpenTelemetry API is loaded on use', () => {
  it.skipIf(registered() || otelApi() !== null)('is not loaded by a run in a process without OpenTelemetry', async () => {
    h = await startHarness('anthropic', [toolCallResponse('ls', {}), textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir, { planningMode: 'disabled' });
    expect((await session.send('list')).text).toBe('done');
    expect(otelApi()).toBeNull();
    // A provider passed for a session loads it.
    const traced = await h.agent.sessionAsync(h.dir, { planningMode: 'disabled', telemetry: { tracerProvider: { getTracer: () => ({}) as never } } });
    expect(otelApi()).not.toBeNull();
    await traced.closeAsync();
  });
});
