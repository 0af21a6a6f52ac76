// Two servers with nothing in common but an S3 bucket (different state directories, as on two
// machines): an agent config with storage_backend = "s3" makes the server keep sessions in the
// S3SessionStore and lock them with S3SessionLeases. A session created on one is continued on
// the other; while one runs it, the other answers 409 SESSION_LEASED, yet lists its pending
// confirmations (from the bucket) and forwards an answer to the holder (its lease's endpoint).
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, S3SessionStore } from '@a3s-lab/code';
import type { RunRecord } from '@a3s-lab/code';
import { hangResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { ConditionalS3Proxy, S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3rver } from '@a3s-lab/code-testing/s3';
import type { S3rverProcess } from '@a3s-lab/code-testing/s3';
import { startServer } from '../src/index.js';
import type { RunningServer } from '../src/index.js';
import { aclFor, collectSse, startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let s3: S3rverProcess;
let proxy: ConditionalS3Proxy;
let a: ServerHarness;
let bAgent: Agent;
let b: RunningServer;
const bState = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-server-b-')));

function s3Acl(base: string): string {
  return `${base}
storage_backend = "s3"
s3 {
  region = "us-east-1"
  endpoint = "${proxy.endpoint}"
  access_key_id = "${S3RVER_ACCESS_KEY_ID}"
  secret_access_key = "${S3RVER_SECRET_ACCESS_KEY}"
  force_path_style = true
  bucket = "sessions"
  prefix = "web"
}
`;
}

beforeAll(async () => {
  s3 = await startS3rver(['sessions']);
  proxy = await ConditionalS3Proxy.start(s3.endpoint);
  a = await startServerHarness();
  // Replace the harness's server with one whose agent keeps sessions on S3.
  await a.server.close();
  const aAgent = await Agent.create(s3Acl(aclFor(a.model)));
  bAgent = await Agent.create(s3Acl(aclFor(a.model)));
  const aServer = await startServer({ agent: aAgent, workspaceRoots: [join(a.dir, 'root')], stateDir: a.stateDir, token: TEST_TOKEN, leaseTtlMs: 1500 });
  Object.assign(a, { server: aServer, agent: aAgent });
  b = await startServer({ agent: bAgent, workspaceRoots: [join(a.dir, 'root')], stateDir: bState, token: TEST_TOKEN, leaseTtlMs: 1500 });
}, 60_000);

afterAll(async () => {
  await b?.close();
  await bAgent?.close();
  await a?.server.close();
  await a?.agent.close();
  await a?.cleanup();
  await proxy?.close();
  await s3?.stop();
  rmSync(bState, { recursive: true, force: true });
});

const api = (url: string, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

describe('servers over an S3 session store', () => {
  it('use the agent S3 store and S3 leases; a session moves between servers that share only the bucket', async () => {
    expect(a.agent.sessionStore).toBeInstanceOf(S3SessionStore);
    a.model.setScenario([textResponse('From A.'), hangResponse(), textResponse('From B.')]);
    const created = await api(a.server.url, '/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: a.repo }) });
    const { id } = (await created.json()) as { id: string };
    const first = (await (await api(a.server.url, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'hello A' }) })).json()) as RunRecord;
    const ended = await collectSse(await api(a.server.url, `/api/sessions/${id}/runs/${first.id}/stream`));
    expect(JSON.parse(ended.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    await expect.poll(() => a.server.sessions.liveSessionIds()).not.toContain(id);

    // B (its own state directory) resumes it from the bucket; while B runs it, A is refused.
    const second = (await (await api(b.url, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'hello B' }) })).json()) as RunRecord;
    const refused = await api(a.server.url, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'too early' }) });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SESSION_LEASED');
    expect(await api(b.url, `/api/sessions/${id}/runs/${second.id}/cancel`, { method: 'POST' }).then((r) => r.status)).toBeLessThan(300);
    await collectSse(await api(b.url, `/api/sessions/${id}/runs/${second.id}/stream`));
    await expect.poll(() => b.sessions.liveSessionIds()).not.toContain(id);

    const third = (await (await api(b.url, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'again B' }) })).json()) as RunRecord;
    const thirdEvents = await collectSse(await api(b.url, `/api/sessions/${id}/runs/${third.id}/stream`));
    expect(JSON.parse(thirdEvents.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    // The model saw A's conversation when B continued it.
    expect(JSON.stringify(a.model.requests.at(-1)?.body)).toContain('hello A');
    // The session document and its lease are in the bucket; B's state directory holds no session.
    expect((await fetch(`${s3.endpoint}/sessions/web/${id}.json`)).status).toBe(200);
    expect(JSON.parse(await (await fetch(`${s3.endpoint}/sessions/web/leases/${id}.lease`)).text())).toMatchObject({ owner: expect.any(String), expiresAtMs: expect.any(Number) });
    expect(existsSync(join(bState, 'sessions'))).toBe(false);
  });

  it('the pending confirmation of a session B runs is listed by A from the bucket, and answered through A (forwarded to B)', async () => {
    a.model.setScenario([toolCallResponse('bash', { command: 'echo over s3' }), textResponse('Answered across machines.')]);
    const { id } = (await (await api(b.url, '/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: a.repo }) })).json()) as { id: string };
    const run = (await (await api(b.url, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'ask' }) })).json()) as RunRecord;
    await expect.poll(async () => ((await (await api(b.url, `/api/sessions/${id}/confirmations`)).json()) as { confirmations: unknown[] }).confirmations.length).toBe(1);
    const lease = JSON.parse(await (await fetch(`${s3.endpoint}/sessions/web/leases/${id}.lease`)).text()) as { endpoint?: string };
    expect(lease.endpoint).toBe(b.url);
    const onA = (await (await api(a.server.url, `/api/sessions/${id}/confirmations`)).json()) as { confirmations: { confirmationId: string }[]; source: string };
    expect(onA.source).toBe('store');
    expect(onA.confirmations).toHaveLength(1);
    const answered = await api(a.server.url, `/api/sessions/${id}/confirmations/${encodeURIComponent(onA.confirmations[0]!.confirmationId)}`, { method: 'POST', body: JSON.stringify({ approved: false }) });
    expect(answered.status).toBe(200);
    const events = await collectSse(await api(b.url, `/api/sessions/${id}/runs/${run.id}/stream`));
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    expect(events.some((m) => m.event === 'confirmation_received')).toBe(true);
  });
});
