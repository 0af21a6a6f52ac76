// The HTTP + SSE API against a real server, a real agent and the scripted model server: runs
// streamed over SSE (id = run event sequence), Last-Event-ID resume, confirmations answered over
// HTTP, cancel, runs, event pages, artifacts and tools. One server for the whole file.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, RunEventPage, RunRecord } from '@a3s-lab/code';
import { collectSse, sequences, startServerHarness } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness();
  writeFileSync(join(h.repo, 'big.txt'), `${'0123456789abcdef'.repeat(4)}\n`.repeat(3000));
});
afterAll(async () => {
  await h.cleanup();
});

async function newSession(): Promise<string> {
  const created = await h.json<{ id: string; workspace: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
  expect(created.workspace).toBe(h.repo);
  return created.id;
}

async function startRun(id: string, prompt: string): Promise<RunRecord> {
  const response = await h.api(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt }) });
  expect(response.status).toBe(202);
  return (await response.json()) as RunRecord;
}

const envelope = (data: string): AgentEvent => JSON.parse(data) as AgentEvent;

describe('runs over HTTP + SSE', () => {
  it('streams v1 envelopes with id = sequence; a confirmation answered over HTTP; runs, pages, artifacts and tools', async () => {
    h.model.setScenario([toolCallResponse('bash', { command: 'cat big.txt' }), textResponse('It is big.')]);
    const id = await newSession();
    const run = await startRun(id, 'How big is big.txt?');
    expect(run).toMatchObject({ status: 'running', sessionId: id, prompt: 'How big is big.txt?' });
    const stream = await h.api(`/api/sessions/${id}/runs/${run.id}/stream`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const messages = await collectSse(stream, (m) => {
      if (m.event === 'confirmation_required') {
        const toolId = String(envelope(m.data).payload['tool_id']);
        void h.api(`/api/sessions/${id}/confirmations/${toolId}`, { method: 'POST', body: JSON.stringify({ approved: true, reason: 'ok' }) }).then((r) => expect(r.status).toBe(200));
      }
      return m.event === 'end';
    });
    const seqs = sequences(messages);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    for (const m of messages.filter((x) => x.id !== null)) {
      const event = envelope(m.data);
      expect(event.version).toBe(1);
      expect(event.type).toBe(m.event);
      expect(event.metadata?.['sequence']).toBe(Number(m.id));
      expect(event.metadata?.['run_id']).toBe(run.id);
    }
    expect(messages.map((m) => m.event)).toEqual(expect.arrayContaining(['agent_start', 'confirmation_required', 'tool_start', 'tool_end', 'agent_end']));
    expect(JSON.parse(messages.at(-1)?.data ?? '{}')).toEqual({ runId: run.id, status: 'completed' });

    const runs = await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`);
    expect(runs.runs.map((r) => [r.id, r.status, r.text])).toEqual([[run.id, 'completed', 'It is big.']]);
    expect(await h.json<RunRecord>(`/api/sessions/${id}/runs/${run.id}`)).toMatchObject({ status: 'completed', lastSequence: seqs.length });

    const page = await h.json<RunEventPage>(`/api/sessions/${id}/runs/${run.id}/events?after=2&limit=2`);
    expect(page.events.map((e) => e.metadata?.['sequence'])).toEqual([3, 4]);
    expect(page).toMatchObject({ nextAfterSequence: 4, hasMore: true, retentionGap: false });

    const toolEnd = messages.map((m) => envelope(m.data)).find((e) => e.type === 'tool_end');
    const uri = (toolEnd?.payload['artifacts'] as string[] | undefined)?.[0] ?? '';
    expect(uri).toMatch(/^a3s:\/\/tool-output\/bash\//);
    const artifact = await h.json<{ content: string; uri: string }>(`/api/sessions/${id}/artifacts?uri=${encodeURIComponent(uri)}`);
    expect(artifact.content.length).toBeGreaterThan(100_000);
    expect((await h.api(`/api/sessions/${id}/artifacts?uri=a3s%3A%2F%2Fnope`)).status).toBe(404);

    const tools = await h.json<{ tools: { name: string }[] }>(`/api/sessions/${id}/tools`);
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read', 'write', 'bash']));
    const sessions = await h.json<{ sessions: { id: string }[] }>('/api/sessions');
    expect(sessions.sessions.map((s) => s.id)).toContain(id);
  });

  it('children of task ask the same human (inherit_parent by default here): approving task does not approve the child write', async () => {
    h.model.setScenario([
      toolCallResponse('task', { agent: 'general', description: 'note', prompt: 'Write child.txt.' }),
      toolCallResponse('write', { file_path: 'child.txt', content: 'x' }),
      textResponse('child could not write'),
      textResponse('Delegated.'),
    ]);
    const id = await newSession();
    const run = await startRun(id, 'delegate a write');
    const asked: AgentEvent[] = [];
    await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`), (m) => {
      if (m.event === 'confirmation_required') {
        const event = envelope(m.data);
        asked.push(event);
        const approved = event.payload['tool_name'] === 'task';
        void h.api(`/api/sessions/${id}/confirmations/${encodeURIComponent(String(event.payload['confirmation_id']))}`, { method: 'POST', body: JSON.stringify({ approved }) });
      }
      return m.event === 'end';
    });
    expect(asked.map((e) => e.payload['tool_name'])).toEqual(['task', 'write']);
    expect(asked[0]?.payload['notice']).toContain("subagent 'general' (confirmationInheritance: inherit_parent) asks you");
    expect(existsSync(join(h.repo, 'child.txt'))).toBe(false);
  });

  it('a denied confirmation leaves the workspace unchanged and the model is told', async () => {
    h.model.setScenario([toolCallResponse('write', { file_path: 'evil.txt', content: 'x' }), textResponse('Not written.')]);
    const id = await newSession();
    const run = await startRun(id, 'write evil.txt');
    const messages = await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`), (m) => {
      if (m.event === 'confirmation_required') {
        void h.api(`/api/sessions/${id}/confirmations/${String(envelope(m.data).payload['tool_id'])}`, { method: 'POST', body: JSON.stringify({ approved: false }) });
      }
      return m.event === 'end';
    });
    const toolEnd = messages.map((m) => envelope(m.data)).find((e) => e.type === 'tool_end');
    expect(toolEnd?.payload['exit_code']).not.toBe(0);
    expect(await import('node:fs').then((fs) => fs.existsSync(join(h.repo, 'evil.txt')))).toBe(false);
    // A confirmation that is no longer pending is a 404, not a silent success.
    const again = await h.api(`/api/sessions/${id}/confirmations/${String(toolEnd?.payload['tool_id'])}`, { method: 'POST', body: JSON.stringify({ approved: true }) });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('Last-Event-ID resumes a dropped stream mid-run without duplicates or gaps', async () => {
    h.model.setScenario([toolCallResponse('bash', { command: 'echo one' }), textResponse('Done.')]);
    const id = await newSession();
    const run = await startRun(id, 'echo one');
    const abort = new AbortController();
    const first = await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`, { signal: abort.signal }), (m) => m.event === 'confirmation_required');
    abort.abort();
    const lastId = first.at(-1)?.id ?? '';
    const toolId = String(envelope(first.at(-1)?.data ?? '{}').payload['tool_id']);
    // The run goes on while nobody listens.
    await h.json(`/api/sessions/${id}/confirmations/${toolId}`, { method: 'POST', body: JSON.stringify({ approved: true }) });
    const second = await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`, { headers: { 'last-event-id': lastId } }));
    const all = [...sequences(first), ...sequences(second)];
    expect(all).toEqual(all.map((_, i) => i + 1));
    expect(Number(second[0]?.id)).toBe(Number(lastId) + 1);
    // A finished run replays from any cursor with the same ids.
    const replay = await collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream?after=0`));
    expect(sequences(replay)).toEqual(all);
  });

  it('cancel ends a running run as cancelled', async () => {
    h.model.setScenario([hangResponse()]);
    const id = await newSession();
    const run = await startRun(id, 'hang');
    const streamed = collectSse(await h.api(`/api/sessions/${id}/runs/${run.id}/stream`));
    await expect(h.json(`/api/sessions/${id}/runs/${run.id}/cancel`, { method: 'POST' })).resolves.toEqual({ cancelled: true });
    const messages = await streamed;
    expect(JSON.parse(messages.at(-1)?.data ?? '{}')).toMatchObject({ status: 'cancelled' });
    // A second prompt while nothing runs is admitted again.
    h.model.setScenario([textResponse('back')]);
    const next = await startRun(id, 'again');
    const end = await collectSse(await h.api(`/api/sessions/${id}/runs/${next.id}/stream`));
    expect(JSON.parse(end.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
  });

  it('a second prompt while a run is active is refused as SESSION_BUSY', async () => {
    h.model.setScenario([hangResponse()]);
    const id = await newSession();
    const run = await startRun(id, 'hang');
    const busy = await h.api(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'more' }) });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('SESSION_BUSY');
    await h.json(`/api/sessions/${id}/runs/${run.id}/cancel`, { method: 'POST' });
  });

  it('unknown sessions, runs and cursors are typed errors', async () => {
    const id = await newSession();
    const codeOf = async (path: string): Promise<[number, string]> => {
      const r = await h.api(path);
      return [r.status, ((await r.json()) as { error: { code: string } }).error.code];
    };
    expect(await codeOf('/api/sessions/s_missing/runs')).toEqual([404, 'NOT_FOUND']);
    expect(await codeOf('/api/sessions/..%2F..%2Fetc/runs')).toEqual([404, 'NOT_FOUND']);
    expect(await codeOf(`/api/sessions/${id}/runs/run_missing/events`)).toEqual([404, 'NOT_FOUND']);
    expect(await codeOf(`/api/sessions/${id}/runs/run_missing/stream`)).toEqual([404, 'NOT_FOUND']);
    expect(await codeOf(`/api/sessions/${id}/runs/x/events?after=-1`)).toEqual([400, 'BAD_REQUEST']);
    expect(await codeOf(`/api/sessions/${id}/runs/x/events?cursor=1`)).toEqual([400, 'BAD_REQUEST']);
    expect(await codeOf('/api/nope')).toEqual([404, 'NOT_FOUND']);
  });

  it('close and delete a session', async () => {
    const id = await newSession();
    expect(await h.json(`/api/sessions/${id}`, { method: 'DELETE' })).toEqual({ closed: true, deleted: false });
    expect((await h.json<{ id: string }>(`/api/sessions/${id}`)).id).toBe(id);
    expect(await h.json(`/api/sessions/${id}?delete=true`, { method: 'DELETE' })).toEqual({ closed: true, deleted: true });
    expect((await h.api(`/api/sessions/${id}`)).status).toBe(404);
  });
});
