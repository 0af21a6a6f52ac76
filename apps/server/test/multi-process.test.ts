// Two server processes over one state directory (FileSessionStore + file leases), as two
// replicas behind one URL: a session created on the first is continued on the second. While
// one process runs the session (holds its lease) the other answers 409 SESSION_LEASED with
// Retry-After; once the run ended and the session was saved and released, either serves it. A
// process killed while holding a lease blocks the session only until the lease expires.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { aclFor, collectSse, startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

const here = dirname(fileURLToPath(import.meta.url));
// The second process's leases expire 1.5 s after its last renewal (renewed every 500 ms).
const CHILD_LEASE_TTL_MS = 1500;
let a: ServerHarness;
let child: ChildProcess;
let bUrl = '';

beforeAll(async () => {
  a = await startServerHarness();
  child = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', join(here, 'fixtures', 'serve-child.ts'), aclFor(a.model), join(a.dir, 'root'), a.stateDir, TEST_TOKEN, String(CHILD_LEASE_TTL_MS)], {
    cwd: resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`second server exited with ${String(code)}`)));
  });
  bUrl = (JSON.parse(line) as { url: string }).url;
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  await a.cleanup();
});

const onB = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${bUrl}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

describe('two server processes, one session store', () => {
  it('a session created on one process is continued on the other, and back', async () => {
    expect(new URL(bUrl).port).not.toBe(String(a.server.port));
    a.model.setScenario([toolCallResponse('bash', { command: 'echo first' }), textResponse('First answer.'), textResponse('Second answer.')]);
    const { id } = await a.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: a.repo }) });
    const run = await a.json<RunRecord>(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'Say first' }) });

    const stream = collectSse(await a.api(`/api/sessions/${id}/runs/${run.id}/stream`), (m) => {
      if (m.event === 'confirmation_required') void a.json(`/api/sessions/${id}/confirmations/${String((JSON.parse(m.data) as { payload: { tool_id: string } }).payload.tool_id)}`, { method: 'POST', body: '{"approved":false}' });
      return m.event === 'end';
    });
    const ended = await stream;
    expect(JSON.parse(ended.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    // A saves and releases once idle: then B resumes the session from the store and continues it.
    await expect.poll(() => a.server.sessions.liveSessionIds()).not.toContain(id);
    const second = await onB(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'And now?' }) });
    expect(second.status).toBe(202);
    const secondRun = (await second.json()) as RunRecord;
    const events = await collectSse(await onB(`/api/sessions/${id}/runs/${secondRun.id}/stream`));
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    // The model saw the conversation of process A.
    expect(JSON.stringify(a.model.requests.at(-1)?.body)).toContain('Say first');
    // Back on A (after B released): both runs, as saved by B.
    await expect
      .poll(async () => {
        const r = await a.api(`/api/sessions/${id}/runs`);
        return r.status === 200 ? ((await r.json()) as { runs: RunRecord[] }).runs.map((x) => [x.prompt, x.status, x.text]) : r.status;
      })
      .toEqual([
        ['Say first', 'completed', 'First answer.'],
        ['And now?', 'completed', 'Second answer.'],
      ]);
  });

  it('while one process holds the lease the other answers 409 SESSION_LEASED, reads its pending confirmations from the store and forwards an answer to the holder', async () => {
    a.model.setScenario([toolCallResponse('bash', { command: 'echo held' }), textResponse('ok')]);
    const { id } = await a.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: a.repo }) });
    const run = await a.json<RunRecord>(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'hold it' }) });
    // The run waits for a confirmation nobody has answered yet: A holds the lease for certain.
    await expect.poll(async () => (await a.json<{ confirmations: unknown[] }>(`/api/sessions/${id}/confirmations`)).confirmations.length).toBe(1);
    const refused = await onB(`/api/sessions/${id}/runs`);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string; details: { sessionId: string } } }).error).toMatchObject({ code: 'SESSION_LEASED', details: { sessionId: id } });
    // The pending confirmation lives in the session, not in the process: B reads the same one from the store.
    // (A saves it as soon as it is asked; the live list on A can be a moment ahead of the store.)
    const onA = await a.json<{ confirmations: { confirmationId: string }[]; source: string }>(`/api/sessions/${id}/confirmations`);
    type Listed = { confirmations: { confirmationId: string; remainingMs: number }[]; source: string };
    let fromB: Listed = { confirmations: [], source: '' };
    await expect
      .poll(async () => {
        fromB = (await (await onB(`/api/sessions/${id}/confirmations`)).json()) as Listed;
        return fromB.confirmations.map((c) => c.confirmationId);
      })
      .toEqual(onA.confirmations.map((c) => c.confirmationId));
    expect(fromB.source).toBe('store');
    expect(fromB.confirmations[0]?.remainingMs).toBeGreaterThan(0);
    // Answered on B: forwarded to A (the holder advertised where it serves), whose run goes on.
    const answered = await onB(`/api/sessions/${id}/confirmations/${encodeURIComponent(onA.confirmations[0]!.confirmationId)}`, { method: 'POST', body: JSON.stringify({ approved: false, reason: 'from B' }) });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ answered: true, approved: false });
    const events = await collectSse(await a.api(`/api/sessions/${id}/runs/${run.id}/stream`));
    expect(events.map((m) => m.event)).toContain('confirmation_received');
    expect(JSON.parse(events.find((m) => m.event === 'confirmation_received')?.data ?? '{}')).toMatchObject({ payload: { approved: false, reason: 'from B' } });
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    // Not pending any more, on either process; a second answer is a 404 through B too.
    await expect.poll(async () => ((await (await onB(`/api/sessions/${id}/confirmations`)).json()) as { confirmations: unknown[] }).confirmations).toEqual([]);
    expect((await onB(`/api/sessions/${id}/confirmations/${encodeURIComponent(onA.confirmations[0]!.confirmationId)}`, { method: 'POST', body: '{"approved":true}' })).status).toBe(404);
    await expect.poll(async () => (await onB(`/api/sessions/${id}/runs`)).status).toBe(200);
  });

  it('a process killed mid-run leaves a lease that expires; then the other process resumes the last saved state', async () => {
    a.model.setScenario([hangResponse()]);
    const created = await onB('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: a.repo }) });
    const { id } = (await created.json()) as { id: string };
    expect((await onB(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'hang forever' }) })).status).toBe(202);
    // B runs it: A refuses.
    expect((await a.api(`/api/sessions/${id}/runs`)).status).toBe(409);
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    // Nobody renews the lease any more: once it expired, A takes it over and resumes the session.
    await expect.poll(async () => (await a.api(`/api/sessions/${id}/runs`)).status, { timeout: 15_000 }).toBe(200);
    a.model.setScenario([textResponse('Recovered.')]);
    const run = await a.json<RunRecord>(`/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'after the crash' }) });
    const events = await collectSse(await a.api(`/api/sessions/${id}/runs/${run.id}/stream`));
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
  });
});
