// Options that shape a process's hold on sessions and streams: idleReleaseMs keeps an idle
// session live (and leased) for a while; maxStreamMs ends event streams without `end`, so a
// client resumes with Last-Event-ID and sees every event once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hangResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { collectSse, sequences, startServerHarness } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness({ idleReleaseMs: 60_000, maxStreamMs: 300 });
});
afterAll(async () => {
  await h.cleanup();
});

it('idleReleaseMs keeps an idle session live until it is closed', async () => {
  const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
  await h.json(`/api/sessions/${id}`);
  expect(h.server.sessions.liveSessionIds()).toContain(id);
  await h.json(`/api/sessions/${id}`, { method: 'DELETE' });
  expect(h.server.sessions.liveSessionIds()).not.toContain(id);
});

it('maxStreamMs ends a stream without `end`; resuming from the last id loses and repeats nothing', async () => {
  h.model.setScenario([toolCallResponse('bash', { command: 'echo cut' }), textResponse('Cut and resumed.')]);
  const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
  const run = await h.json<RunRecord>(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'echo cut' }) });
  // The run waits for a confirmation longer than the stream may live: the server ends the stream.
  // Streams are cut every 300 ms: on a loaded machine the confirmation may come after the first
  // cut, so reconnect from the last id until it arrives (never an `end` before it is answered).
  const first = await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`), () => false);
  while (!first.some((m) => m.event === 'confirmation_required')) {
    const last = [...first].reverse().find((m) => m.id !== null)?.id ?? '0';
    first.push(...(await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`, { headers: { 'last-event-id': last } }), () => false)));
  }
  expect(first.map((m) => m.event)).not.toContain('end');
  const toolId = String((JSON.parse(first.find((m) => m.event === 'confirmation_required')?.data ?? '{}') as { payload: { tool_id: string } }).payload.tool_id);
  await h.json(`/api/sessions/${id}/confirmations/${toolId}`, { method: 'POST', body: JSON.stringify({ approved: true }) });
  const all = [...first];
  while (all.at(-1)?.event !== 'end') {
    const last = [...all].reverse().find((m) => m.id !== null)?.id ?? '0';
    all.push(...(await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`, { headers: { 'last-event-id': last } }), (m) => m.event === 'end')));
  }
  const seqs = sequences(all);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  expect(JSON.parse(all.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
});

it('a hanging run is cancelled by DELETE of its session', async () => {
  h.model.setScenario([hangResponse()]);
  const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
  const run = await h.json<RunRecord>(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'hang' }) });
  await h.json(`/api/sessions/${id}`, { method: 'DELETE' });
  const runs = await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`);
  expect(runs.runs.find((r) => r.id === run.id)?.status).toBe('cancelled');
});
