// The browser UI (React + @ai-sdk/react's useChat on the UI message stream, built by Vite into
// dist/ui) driven by Debian's chromium through playwright-core (no browser download), against a
// real server, agent and the scripted model server. One browser for the whole file; each case
// opens its own tabs. Screenshots (1280 and 420 px) go to $A3S_UI_SCREENSHOTS or reports/server-ui/.
// Skipped, with the reason printed, only when /usr/bin/chromium is absent outside CI.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangResponse, startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { Agent } from '@a3s-lab/code';
import type { RunRecord } from '@a3s-lab/code';
import { startServer } from '../src/index.js';
import { collectSse, startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** The flags every browser test launches chromium with. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic', '--disable-component-update', '--disable-sync'];
const here = dirname(fileURLToPath(import.meta.url));
const shots = resolve(process.env['A3S_UI_SCREENSHOTS'] ?? join(here, '..', '..', '..', 'reports', 'server-ui'));
const uiBuilt = existsSync(join(here, '..', 'dist', 'ui', 'index.html'));
const hasChromium = existsSync(CHROMIUM);
// Locally a missing browser skips (with this message); in CI, where .ci/run installs it, it fails.
const skip = !hasChromium && process.env['CI'] !== 'true';
if (skip) console.warn(`browser UI tests skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run installs it)`);

// Per case: a run under CI load (other suites beside this one) takes seconds; nothing asserts a duration.
describe.skipIf(skip)('browser UI (chromium, UI message stream)', { timeout: 60_000 }, () => {
  let h: ServerHarness;
  let context: BrowserContext;
  let profile: string;
  // A TCP relay in front of the server, whose connections a test can cut (a proxy or network
  // dropping the stream; chromium's offline mode leaves open responses alone).
  let relay: Server;
  let relayUrl: string;
  const relayed = new Set<Socket>();

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package for these tests`);
    if (!uiBuilt) throw new Error('dist/ui is missing: run `pnpm --filter @a3s-lab/server run build` first (Vite builds the UI)');
    let target = 0;
    relay = createServer((client) => {
      const upstream = connect(target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        relayed.add(socket);
        socket.on('close', () => relayed.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayHost = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
    relayUrl = `http://${relayHost}`;
    h = await startServerHarness({ confirmationPolicy: { defaultTimeoutMs: 60_000, timeoutAction: 'reject' }, allowedHosts: [relayHost], allowedOrigins: [relayUrl] });
    target = h.server.port;
    profile = mkdtempSync(join(tmpdir(), 'a3s-chromium-'));
    mkdirSync(shots, { recursive: true });
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 800 } });
    // The token arrives once in the fragment; every later tab of this origin reads it from storage.
    const first = context.pages()[0] ?? (await context.newPage());
    await first.goto(`${h.server.url}/#token=${TEST_TOKEN}`);
    await first.locator('.empty', { hasText: 'Start a session' }).waitFor();
    expect(first.url()).not.toContain(TEST_TOKEN);
    await first.close();
  });
  afterAll(async () => {
    await context?.close();
    for (const socket of relayed) socket.destroy();
    await new Promise<void>((resolve) => (relay === undefined ? resolve() : relay.close(() => resolve())));
    await h?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function tab(path = '/', base = h.server.url): Promise<Page> {
    const page = await context.newPage();
    // Generous: the CI machine runs other suites beside this one; nothing here asserts a duration.
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}${path}`);
    return page;
  }

  /** Types `prompt` on a fresh tab at `/` and presses Enter: the UI creates a session and runs it. */
  async function sendFromNewTab(prompt: string, base = h.server.url): Promise<{ page: Page; sessionId: string }> {
    const page = await tab('/', base);
    await page.locator('#workspace-input').fill(h.repo);
    await page.locator('#prompt-input').fill(prompt);
    await page.locator('#prompt-input').press('Enter');
    await page.waitForURL(/\/sessions\/s_[0-9a-f-]+$/);
    return { page, sessionId: decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '') };
  }

  async function runningRun(sessionId: string): Promise<RunRecord> {
    let found: RunRecord | undefined;
    await expect.poll(async () => (found = (await h.json<{ runs: RunRecord[] }>(`/api/sessions/${sessionId}/runs`)).runs.find((r) => r.status === 'running'))).toBeDefined();
    if (found === undefined) throw new Error('no running run');
    return found;
  }

  it('Send with no session creates one and runs the prompt; markdown is rendered without raw HTML; the end is printed once', async () => {
    h.model.setScenario([textResponse(['## Done\n\nThe **fix** is in `src/add.js`:\n\n- one\n- two\n\n', '<img src=x onerror="window.__xss=1">\n\n[bad](javascript:alert(1)) and [docs](https://example.com/docs)'])]);
    const { page, sessionId } = await sendFromNewTab('Fix add() in src/add.js');
    const answer = page.locator('.msg.assistant').last();
    await answer.locator('.run-end').waitFor();
    expect(await answer.locator('h3').textContent()).toBe('Done');
    expect(await answer.locator('strong').textContent()).toBe('fix');
    expect(await answer.locator('code').textContent()).toBe('src/add.js');
    expect(await answer.locator('li').count()).toBe(2);
    // Raw HTML stays text; a javascript: link is not a link.
    expect(await page.locator('.conversation img').count()).toBe(0);
    expect(await answer.textContent()).toContain('<img src=x onerror=');
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await answer.locator('a').count()).toBe(1);
    expect(await answer.locator('a').getAttribute('href')).toBe('https://example.com/docs');
    expect(await page.locator('.run-end').count()).toBe(1);
    expect(await page.locator('.run-end').textContent()).toMatch(/^Run completed/);
    // The list shows the session by its first prompt and workspace.
    const entry = page.locator(`.session[data-session-id="${sessionId}"]`);
    await entry.locator('.session-title', { hasText: 'Fix add() in src/add.js' }).waitFor();
    expect(await entry.locator('.session-meta').textContent()).toContain('repo');
    await page.screenshot({ path: join(shots, 'new-session-1280.png') });
    await page.close();
  });

  it('Send with a workspace outside the roots says why, in the error style, and creates nothing', async () => {
    const before = (await h.json<{ sessions: unknown[] }>('/api/sessions')).sessions.length;
    const page = await tab('/');
    await page.locator('#workspace-input').fill(join(h.dir, 'outside'));
    await page.locator('#prompt-input').fill('Do something');
    await page.locator('#prompt-input').press('Enter');
    const error = page.locator('.error[role="alert"]', { hasText: 'WORKSPACE_NOT_ALLOWED' });
    await error.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect((await h.json<{ sessions: unknown[] }>('/api/sessions')).sessions.length).toBe(before);
    await page.setViewportSize({ width: 420, height: 800 });
    await page.screenshot({ path: join(shots, 'send-refused-420.png') });
    await page.close();
  });

  it('two tabs on one session both show the pending approval; approving in one updates the other; a denial is drawn as denied', async () => {
    h.model.setScenario([toolCallResponse('bash', { command: 'echo from-two-tabs' }), toolCallResponse('bash', { command: 'rm -rf src' }), textResponse('Echoed; **did not** delete `src`.')]);
    const { page: a, sessionId } = await sendFromNewTab('Echo, then clean up');
    await a.locator('.tool[data-outcome="needs-approval"]').waitFor();
    const b = await tab(`/sessions/${sessionId}`);
    await b.locator('.tool[data-outcome="needs-approval"] .approve').click();
    // Tab A never clicked: the answer given in B shows there, then A gets the next approval.
    await a.locator('.tool[data-outcome="done"]', { hasText: 'from-two-tabs' }).waitFor();
    await a.locator('.tool[data-outcome="needs-approval"]', { hasText: 'rm -rf src' }).waitFor();
    await b.locator('.tool[data-outcome="needs-approval"]', { hasText: 'rm -rf src' }).waitFor();
    // A background tab paints rarely (chromium throttles its frames): bring A forward to click.
    await a.bringToFront();
    await a.locator('.tool[data-outcome="needs-approval"] .deny').click();
    for (const page of [a, b]) {
      const denied = page.locator('.tool[data-outcome="denied"]');
      await denied.waitFor();
      expect(await denied.locator('.badge').textContent()).toBe('denied');
      expect(await denied.locator('.exit').count()).toBe(0);
      await page.locator('.run-end').waitFor();
      expect(await page.locator('.run-end').count()).toBe(1);
      expect(await page.locator('.msg.assistant').last().textContent()).toContain('Echoed; did not delete src.');
    }
    expect(existsSync(join(h.repo, 'src'))).toBe(true);
    await a.locator('.tool[data-outcome="done"] summary').click();
    await a.screenshot({ path: join(shots, 'two-tabs-1280.png'), fullPage: true });
    await b.bringToFront();
    await b.setViewportSize({ width: 420, height: 860 });
    expect(await b.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
    await b.screenshot({ path: join(shots, 'two-tabs-420.png'), fullPage: true });
    await b.locator('.sessions-toggle').click();
    await b.locator('.sessions').waitFor();
    await b.screenshot({ path: join(shots, 'sessions-420.png') });
    // An idle tab follows a prompt sent from the other (its session list saw the session saved).
    h.model.setScenario([textResponse('Second answer.')]);
    await a.bringToFront();
    await a.locator('#prompt-input').fill('And once more');
    await a.locator('#prompt-input').press('Enter');
    await b.bringToFront();
    await b.locator('.msg.user', { hasText: 'And once more' }).waitFor();
    await b.locator('.msg.assistant', { hasText: 'Second answer.' }).locator('.run-end').waitFor();
    expect(await b.locator('.run-end').count()).toBe(2);
    await a.close();
    await b.close();
  });

  it('closing the tab mid-run does not cancel the run', async () => {
    h.model.setScenario([textResponse(Array.from({ length: 30 }, (_, i) => `word${i} `), { chunkDelayMs: 40 })]);
    const { page, sessionId } = await sendFromNewTab('Stream slowly');
    await page.locator('.msg.assistant', { hasText: 'word1' }).waitFor();
    const run = await runningRun(sessionId);
    await page.close();
    const events = await collectSse(await h.api(`/api/sessions/${sessionId}/runs/${run.id}/stream`));
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({ runId: run.id, status: 'completed' });
    const again = await tab(`/sessions/${sessionId}`);
    await again.locator('.run-end', { hasText: 'Run completed' }).waitFor();
    expect(await again.locator('.msg.assistant').last().textContent()).toContain('word29');
    await again.close();
  });

  it('a stream cut mid-run (a proxy dropped it) resumes by itself, the text whole and once', async () => {
    // Another origin (the relay's) has its own storage: the token comes in the fragment again.
    const first = await tab(`/#token=${TEST_TOKEN}`, relayUrl);
    await first.close();
    h.model.setScenario([textResponse(Array.from({ length: 30 }, (_, i) => `part${i} `), { chunkDelayMs: 60 })]);
    const { page } = await sendFromNewTab('Stream, then lose the connection', relayUrl);
    await page.locator('.msg.assistant', { hasText: 'part2' }).waitFor();
    for (const socket of relayed) socket.destroy();
    await page.locator('.run-end', { hasText: 'Run completed' }).waitFor();
    const text = (await page.locator('.msg.assistant').last().textContent()) ?? '';
    expect(text.match(/part0 /g)).toHaveLength(1);
    expect(text).toContain('part29');
    await page.close();
  });

  it('Esc (Stop) cancels the run on the server', async () => {
    h.model.setScenario([hangResponse()]);
    const { page, sessionId } = await sendFromNewTab('Hang forever');
    await page.locator('#stop-button').waitFor();
    const run = await runningRun(sessionId);
    await page.locator('#prompt-input').press('Escape');
    await page.locator('.run-end', { hasText: 'cancelled' }).waitFor();
    expect((await h.json<RunRecord>(`/api/sessions/${sessionId}/runs/${run.id}`)).status).toBe('cancelled');
    expect(await page.locator('#stop-button').count()).toBe(0);
    await page.close();
  });

  it('a host running the scripted model says so; one with a real model does not', async () => {
    const model = await startScriptedModelServer({ scenario: [] });
    const agent = await Agent.create(`default_model = "scripted/demo"\nproviders "scripted" {\n  kind = "anthropic"\n  api_key = "scripted-demo-key"\n  base_url = "${model.anthropicBaseUrl}"\n  models "demo" { tool_call = true }\n}\n`);
    const demo = await startServer({ agent, workspaceRoots: [h.repo], stateDir: join(h.dir, 'demo-state'), token: TEST_TOKEN });
    try {
      const page = await tab(`/#token=${TEST_TOKEN}`, demo.url);
      await page.locator('.demo-notice', { hasText: 'scripted model' }).waitFor();
      expect(await page.locator('.model').textContent()).toBe('scripted/demo');
      await page.close();
    } finally {
      await demo.close();
      await agent.close();
      await model.close();
    }
    const real = await tab('/');
    await real.locator('.model', { hasText: 'anthropic/claude-test' }).waitFor();
    expect(await real.locator('.demo-notice').count()).toBe(0);
    await real.close();
  });

  it('without a token the UI asks for one; a wrong token is refused', async () => {
    const page = await tab('/');
    await page.evaluate("window.localStorage.removeItem('a3s.token')");
    await page.reload();
    await page.locator('#token-input').fill('wrong-token-wrong-token-wrong');
    await page.locator('#token-input').press('Enter');
    await page.locator('.gate .error', { hasText: 'refused' }).waitFor();
    await page.locator('#token-input').fill(TEST_TOKEN);
    await page.locator('#token-input').press('Enter');
    await page.locator('.session').first().waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(shots, 'session-list-1280.png') });
    await page.close();
  });
});
