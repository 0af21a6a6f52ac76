// W3C trace context over HTTP (issue 33): a run started with a `traceparent` header has its
// `invoke_agent` span in the caller's trace, as a child of the caller's span; a malformed header
// is ignored (the run starts as a root). The spans go to a global in-memory tracer provider, the
// SDK's default when a host registers one.
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { startServerHarness } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

const exporter = new InMemorySpanExporter();
let h: ServerHarness;
beforeAll(async () => {
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  h = await startServerHarness();
});
afterAll(async () => {
  await h.cleanup();
  trace.disable();
});

async function runTo(end: (runId: string) => boolean, headers: Record<string, string>): Promise<RunRecord> {
  const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
  const response = await h.api(`/api/sessions/${id}/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'hello' }) });
  expect(response.status).toBe(202);
  const run = (await response.json()) as RunRecord;
  const deadline = Date.now() + 10_000;
  while (!end(run.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return run;
}

const runSpan = (runId: string) => exporter.getFinishedSpans().find((s) => s.name.startsWith('invoke_agent') && s.attributes['a3s_code.run.id'] === runId);

describe('traceparent on POST /api/sessions/:id/runs', () => {
  it("continues the caller's trace", async () => {
    h.model.setScenario([textResponse('hi')]);
    const run = await runTo((runId) => runSpan(runId) !== undefined, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    const span = runSpan(run.id)!;
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('ignores a malformed traceparent', async () => {
    h.model.setScenario([textResponse('hi')]);
    const run = await runTo((runId) => runSpan(runId) !== undefined, { traceparent: 'not-a-trace' });
    const span = runSpan(run.id)!;
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes['a3s_code.run.status']).toBe('completed');
  });
});
