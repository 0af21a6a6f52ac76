// The web host stateless over a fleet (`startFleetServer`, `a3s-code serve --postgres URL --role`):
// two API processes and two worker processes over one real PostgreSQL (startPostgres), agents on
// the scripted model server of this process. API level: a session created on one API process is
// run from the other, streamed (v1 SSE) from the first, its confirmation listed and answered on
// the second, a second run is SESSION_BUSY, a hanging run is cancelled across processes, AG-UI
// streams a run from the journal too, a run's events are paged and a finished run's artifact read
// on the other process, and a session deleted on one is gone on the other. Browser:
// a page streams a run through the UI message stream, the worker running it is SIGKILLed while
// the model call of its second turn is held, and the page's one stream goes on: the other worker
// resumes the run from its journal (attempts 2) and it completes.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangResponse, startScriptedModelServer } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';
import { aclFor, collectSse, sequences, TEST_TOKEN } from './server-harness.js';

const here = dirname(fileURLToPath(import.meta.url));
// As in browser-ui.test.ts (not imported: importing a test file runs its suite).
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic', '--disable-component-update', '--disable-sync'];
const hasChromium = existsSync(CHROMIUM);
const uiBuilt = existsSync(join(here, '..', 'dist', 'ui', 'index.html'));

interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly url: string | null;
  readonly workerId: string;
}

/** The job (`job <name>` in the run's prompt, the last user text) and its turn (assistant messages since) of a model request. */
function jobTurnOf(request: RecordedRequest): { job: string; turn: number } {
  const messages = (request.body as { messages?: { role: string; content: string | { type: string; text?: string }[] }[] } | undefined)?.messages ?? [];
  const textOf = (m: (typeof messages)[number]): string => (typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join(''));
  const start = messages.findLastIndex((m) => m.role === 'user' && /job \w+/.test(textOf(m)));
  const prompt = messages[start];
  const job = prompt === undefined ? 'unknown' : (/job (\w+)/.exec(textOf(prompt))?.[1] ?? 'unknown');
  return { job, turn: messages.slice(start + 1).filter((m) => m.role === 'assistant').length };
}

let db: PostgresDatabase;
let model: ScriptedModelServer;
let dir: string;
let repo: string;
const children: Child[] = [];
// The `kill` job's second model call, held until the test has killed the worker that made it.
let heldArrived: () => void = () => undefined;
const held = new Promise<void>((done) => (heldArrived = done));
let releaseHeld: () => void = () => undefined;
const released = new Promise<void>((done) => (releaseHeld = done));
const killTurns: number[] = [];
// Locally a missing browser skips the browser case; in CI, where .ci/run installs it, it fails.
const browserWanted = hasChromium || process.env['CI'] === 'true';
let context: BrowserContext;
let profile = '';
// The API case runs beside the browser case, from the moment the browser case has killed its
// worker: its runs then go to the worker left while the killed one's run waits out the lease.
let browserKilled: () => void = () => undefined;
const killed = browserWanted ? new Promise<void>((done) => (browserKilled = done)) : Promise.resolve();

async function launchBrowser(): Promise<void> {
  if (!hasChromium) return;
  profile = mkdtempSync(join(tmpdir(), 'a3s-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 800 } });
}

function scenario(request: RecordedRequest): ScriptedResponse | Promise<ScriptedResponse> {
  const { job, turn } = jobTurnOf(request);
  const id = `toolu_${job}_${turn}`;
  if (job === 'approve') return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: 'echo approved-ran' } }] } : { text: 'Approved and done.' };
  if (job === 'hang') return hangResponse();
  if (job === 'agui') return { text: ['AG-UI over ', 'the fleet.'] };
  if (job === 'big') return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: "head -c 150000 /dev/zero | tr '\\0' x" } }] } : { text: 'It is big.' };
  if (job === 'kill') {
    killTurns.push(turn);
    if (turn === 0) return { text: 'Reading the notes. ', toolCalls: [{ id, name: 'read', input: { file_path: 'notes.txt' } }] };
    // The first worker's request of turn 1 is held (it dies waiting); the next one is answered.
    if (killTurns.filter((t) => t === 1).length === 1) {
      heldArrived();
      return released.then(() => ({ text: 'never delivered' }));
    }
    return { text: ['The notes ', 'say hello.'], chunkDelayMs: 5 };
  }
  return { text: `unknown job ${job}` };
}

async function spawnChild(name: string, role: 'api' | 'worker'): Promise<Child> {
  const child = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', join(here, 'fixtures', 'fleet-serve-child.ts'), aclFor(model), dir, db.connectionString, role, TEST_TOKEN, name], {
    cwd: resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`${name} exited with ${String(code)}`)));
  });
  const started = JSON.parse(line) as { url: string | null; workerId: string };
  return { name, process: child, url: started.url, workerId: started.workerId };
}

const apiOf = (name: string): string => children.find((c) => c.name === name)?.url ?? '';
const call = (base: string, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
async function json<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await call(base, path, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface FleetRunBody {
  readonly id: string;
  readonly status: string;
  readonly kind: string;
  readonly fleet: { readonly status: string; readonly attempts: number; readonly workerId: string | null };
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-host-')));
  repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'notes.txt'), 'hello\n');
  db = await startPostgres();
  model = await startScriptedModelServer({ scenario });
  // All four at once (migrations and pg-boss's schema are safe with several processes starting
  // together), and the browser meanwhile.
  const [started] = await Promise.all([
    Promise.all([spawnChild('api-1', 'api'), spawnChild('api-2', 'api'), spawnChild('worker-1', 'worker'), spawnChild('worker-2', 'worker')]),
    browserWanted ? launchBrowser() : Promise.resolve(),
  ]);
  children.push(...started);
}, 60_000);

afterAll(async () => {
  releaseHeld();
  await context?.close();
  if (profile !== '') rmSync(profile, { recursive: true, force: true });
  // Killed, not stopped: a graceful stop waits for pg-boss; the database is dropped right after.
  await Promise.all(
    children.map(async (child) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) return;
      const exited = new Promise((done) => child.process.once('exit', done));
      child.process.kill('SIGKILL');
      await exited;
    }),
  );
  await model?.close();
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.concurrent('fleet web host: two API processes, two workers, one PostgreSQL', () => {
  it('runs a session created on one API process from the other; its confirmation is answered and a hanging run cancelled across processes', { timeout: 90_000 }, async () => {
    await killed;
    const [a, b] = [apiOf('api-1'), apiOf('api-2')];
    expect(a).not.toBe(b);
    const { id } = await json<{ id: string }>(a, '/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: repo }) });
    const submitted = await call(b, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'job approve: echo something' }) });
    expect(submitted.status).toBe(202);
    const run = (await submitted.json()) as FleetRunBody;
    expect(run).toMatchObject({ kind: 'fleet', status: 'running' });
    // One run per session, whichever process is asked.
    const busy = await call(a, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'job approve: again' }) });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('SESSION_BUSY');

    let listed: unknown[] = [];
    const messages = await collectSse(await call(a, `/api/sessions/${id}/runs/${run.id}/stream`), (m) => {
      if (m.event === 'confirmation_required') {
        const toolId = (JSON.parse(m.data) as { payload: { tool_id: string } }).payload.tool_id;
        void (async () => {
          listed = (await json<{ confirmations: { toolId: string }[] }>(b, `/api/sessions/${id}/confirmations`)).confirmations;
          await json(b, `/api/sessions/${id}/confirmations/${toolId}`, { method: 'POST', body: JSON.stringify({ approved: true }) });
        })();
      }
      return m.event === 'end';
    });
    expect(listed).toEqual([expect.objectContaining({ runId: run.id, toolId: 'toolu_approve_0', toolName: 'bash' })]);
    expect(JSON.parse(messages.at(-1)?.data ?? '{}')).toEqual({ runId: run.id, status: 'completed' });
    const seqs = sequences(messages);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(messages.find((m) => m.event === 'tool_end')?.data).toContain('approved-ran');
    const done = await json<FleetRunBody & { text: string }>(b, `/api/sessions/${id}/runs/${run.id}`);
    expect(done).toMatchObject({ status: 'completed', text: 'Approved and done.', fleet: { status: 'completed', attempts: 1 } });
    expect(['worker-1', 'worker-2']).toContain(done.fleet.workerId);
    // Paged from the journal's event table on the other process, as the single host pages a run's events.
    type Page = { events: { type: string; metadata: { sequence: number } }[]; firstAvailableSequence: number; nextAfterSequence: number | null; retentionGap: boolean; hasMore: boolean };
    const first = await json<Page>(b, `/api/sessions/${id}/runs/${run.id}/events?limit=3`);
    expect(first).toMatchObject({ firstAvailableSequence: 1, nextAfterSequence: 3, retentionGap: false, hasMore: true });
    const rest = await json<Page>(b, `/api/sessions/${id}/runs/${run.id}/events?after=${String(first.nextAfterSequence)}`);
    expect(rest).toMatchObject({ hasMore: false, nextAfterSequence: seqs.length });
    expect([...first.events, ...rest.events].map((e) => [e.metadata.sequence, e.type])).toEqual(messages.filter((m) => m.event !== 'end').map((m) => [Number(m.id), m.event]));
    expect(await json<Page>(a, `/api/sessions/${id}/runs/${run.id}/events?after=${String(seqs.length)}`)).toMatchObject({ events: [], nextAfterSequence: null, hasMore: false });
    expect((await call(a, `/api/sessions/${id}/runs/run_unknown/events`)).status).toBe(404);
    expect((await call(a, `/api/sessions/${id}/runs/${run.id}/events?limit=0`)).status).toBe(400);

    // A hanging run, cancelled from the other API process: the stream on the first ends `cancelled`.
    const hanging = await json<FleetRunBody>(a, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'job hang: wait forever' }) });
    const cancelled = collectSse(await call(a, `/api/sessions/${id}/runs/${hanging.id}/stream`), (m, all) => {
      if (m.event === 'turn_start' && all.filter((x) => x.event === 'turn_start').length === 1) void json(b, `/api/sessions/${id}/runs/${hanging.id}/cancel`, { method: 'POST' });
      return m.event === 'end';
    });
    expect(JSON.parse((await cancelled).at(-1)?.data ?? '{}')).toEqual({ runId: hanging.id, status: 'cancelled' });
    const { sessions } = await json<{ sessions: { id: string; running: boolean }[] }>(b, '/api/sessions');
    expect(sessions.find((s) => s.id === id)).toMatchObject({ running: false });
    expect((await json<{ runs: FleetRunBody[] }>(b, `/api/sessions/${id}/runs`)).runs.map((r) => r.fleet.status)).toEqual(['completed', 'cancelled']);

    // AG-UI on the other process: the same journal events through the AG-UI encoder.
    const agui = await collectSse(
      await call(b, '/api/agui', { method: 'POST', body: JSON.stringify({ threadId: id, runId: 'agui-1', messages: [{ id: 'm1', role: 'user', content: 'job agui: hello' }], tools: [], context: [], state: {}, forwardedProps: {} }) }),
      (m) => JSON.parse(m.data).type === 'RUN_FINISHED',
    );
    const types = agui.map((m) => (JSON.parse(m.data) as { type: string }).type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(agui.filter((m) => m.data.includes('TEXT_MESSAGE_CONTENT')).map((m) => (JSON.parse(m.data) as { delta: string }).delta).join('')).toBe('AG-UI over the fleet.');
    expect((await json<{ tools: { name: string }[] }>(a, `/api/sessions/${id}/tools`)).tools.map((t) => t.name)).toContain('bash');
    // An artifact of a finished run (too large to inline), read on the other process from the session as its worker saved it.
    const big = await json<FleetRunBody>(a, `/api/sessions/${id}/runs`, { method: 'POST', body: JSON.stringify({ prompt: 'job big: print a lot' }) });
    const bigEvents = await collectSse(await call(a, `/api/sessions/${id}/runs/${big.id}/stream`), (m) => {
      if (m.event === 'confirmation_required') void json(b, `/api/sessions/${id}/confirmations/toolu_big_0`, { method: 'POST', body: JSON.stringify({ approved: true }) });
      return m.event === 'end';
    });
    const uri = (JSON.parse(bigEvents.find((m) => m.event === 'tool_end')?.data ?? '{}') as { payload?: { artifacts?: string[] } }).payload?.artifacts?.[0] ?? '';
    expect(uri).toMatch(/^a3s:\/\/tool-output\/bash\//);
    const artifact = await json<{ content: string; uri: string }>(b, `/api/sessions/${id}/artifacts?uri=${encodeURIComponent(uri)}`);
    expect(artifact).toMatchObject({ uri });
    expect(artifact.content).toContain('x'.repeat(150_000));
    expect((await call(b, `/api/sessions/${id}/artifacts?uri=a3s%3A%2F%2Fnope`)).status).toBe(404);
    expect((await call(b, `/api/sessions/${id}/artifacts`)).status).toBe(400);
    // Deleted from either process: gone for both.
    expect(await json(b, `/api/sessions/${id}?delete=true`, { method: 'DELETE' })).toEqual({ closed: true, deleted: true });
    expect((await call(a, `/api/sessions/${id}`)).status).toBe(404);
  });

  describe.skipIf(!browserWanted)('in the browser', () => {
    beforeAll(() => {
      // A browser case that cannot run lets the API case go on.
      if (!uiBuilt || !hasChromium) browserKilled();
      if (!uiBuilt) throw new Error('dist/ui is missing: run `pnpm --filter @a3s-lab/server run build` first (Vite builds the UI)');
      if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package for these tests`);
    });

    it('a page keeps its one stream while the worker running it is killed; the other worker completes the run', { timeout: 60_000 }, async () => {
      try {
        const a = apiOf('api-1');
        const page = context.pages()[0] ?? (await context.newPage());
        page.setDefaultTimeout(40_000);
        const requests: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/chat')) requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
        });
        await page.goto(`${a}/#token=${TEST_TOKEN}`);
        await page.locator('#workspace-input').fill(repo);
        await page.locator('#prompt-input').fill('job kill: read the notes');
        await page.locator('#prompt-input').press('Enter');
        await page.waitForURL(/\/sessions\/s_[0-9a-f-]+$/);
        const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
        const answer = page.locator('.msg.assistant').last();
        await answer.locator('.tool[data-outcome="done"]').waitFor();
        await answer.getByText('Reading the notes.').waitFor();
        // The worker is inside the second turn's model call: kill it there.
        await held;
        // A second page, on the other API process, follows the running run (its resume stream).
        const other = await context.newPage();
        other.setDefaultTimeout(40_000);
        await other.goto(`${apiOf('api-2')}/sessions/${sessionId}#token=${TEST_TOKEN}`);
        await other.locator('.msg.assistant').last().getByText('Reading the notes.').waitFor();
        await page.bringToFront();
        const [running] = (await json<{ runs: FleetRunBody[] }>(a, `/api/sessions/${sessionId}/runs`)).runs;
        const victim = children.find((c) => c.workerId === running?.fleet.workerId);
        if (victim === undefined || running === undefined) throw new Error(`no worker runs ${JSON.stringify(running)}`);
        const exited = new Promise((done) => victim.process.once('exit', done));
        victim.process.kill('SIGKILL');
        await exited;
        browserKilled();
        releaseHeld();

        await answer.locator('.run-end', { hasText: 'Run completed' }).waitFor();
        const text = (await answer.textContent()) ?? '';
        expect(text).toContain('The notes say hello.');
        expect(text.split('Reading the notes.').length).toBe(2);
        expect(text).not.toContain('never delivered');
        // One stream: the run's POST, no reconnect.
        expect(requests).toEqual([`POST /api/sessions/${sessionId}/chat`]);
        const finished = await json<FleetRunBody>(a, `/api/sessions/${sessionId}/runs/${running.id}`);
        expect(finished.fleet).toMatchObject({ status: 'completed', attempts: 2 });
        expect(finished.fleet.workerId).not.toBe(victim.workerId);
        // The model was asked turn 0 once (recorded), turn 1 twice (the held call died with its worker).
        expect(killTurns).toEqual([0, 1, 1]);

        // The page on the other API process saw the same run end.
        await other.bringToFront();
        await other.locator('.msg.assistant .run-end', { hasText: 'Run completed' }).waitFor();
        expect(await other.locator('.msg.assistant').last().textContent()).toContain('The notes say hello.');
        await other.close();
      } finally {
        // A browser case that fails before its kill lets the API case go on.
        browserKilled();
      }
    });
  });
});
