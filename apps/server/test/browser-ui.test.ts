// The browser UI driven by Debian's chromium through playwright-core (no browser download):
// send a prompt against the scripted model, see tool calls stream, approve one confirmation and
// deny another from the keyboard, reload mid-run and see the stream resume without duplicates,
// replay a finished run, and read it on a narrow screen. Screenshots go to reports/server-ui/.
// Skipped, with the reason printed, only when /usr/bin/chromium is absent (CI installs it).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const here = dirname(fileURLToPath(import.meta.url));
const shots = resolve(here, '..', '..', '..', 'reports', 'server-ui');
const hasChromium = existsSync(CHROMIUM);
// Locally a missing browser skips (with this message); in CI, where .ci/run installs it, it fails.
const skip = !hasChromium && process.env['CI'] !== 'true';
if (skip) console.warn(`browser UI tests skipped: ${CHROMIUM} not found (apt-get install chromium; .ci/run installs it)`);

describe.skipIf(skip)('browser UI (chromium)', () => {
  let h: ServerHarness;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package for these tests`);
    h = await startServerHarness({ confirmationPolicy: { defaultTimeoutMs: 60_000, timeoutAction: 'reject' }, maxStreamMs: 400 });
    profile = mkdtempSync(join(tmpdir(), 'a3s-chromium-'));
    mkdirSync(shots, { recursive: true });
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1100, height: 800 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await h?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Sequence numbers of the rendered events, in page order. */
  const renderedSeqs = (): Promise<number[]> => page.evaluate<number[]>('[...document.querySelectorAll("#log [data-seq]")].map((n) => Number(n.dataset.seq))');

  it('sends a prompt, streams tool cards with a coloured diff, approves one call and denies another from the keyboard', async () => {
    h.model.setScenario([
      toolCallResponse('edit', { file_path: 'src/add.js', old_string: 'a - b', new_string: 'a + b' }),
      toolCallResponse('bash', { command: 'rm -rf src' }),
      textResponse('Fixed add(); I did not delete src.'),
    ]);
    await page.goto(`${h.server.url}/#token=${TEST_TOKEN}`);
    await page.locator('#status', { hasText: 'ready' }).waitFor();
    // The token left the address bar.
    expect(page.url()).not.toContain(TEST_TOKEN);
    await page.fill('#workspace-input', h.repo);
    await page.click('#session-form button');
    await page.locator('#session-select option').first().waitFor({ state: 'attached' });
    await page.fill('#prompt-input', 'Fix add() in src/add.js');
    await page.press('#prompt-input', 'Control+Enter');

    const approve = page.locator('.approval .approve');
    await approve.waitFor();
    expect(await page.locator('.approval').getAttribute('aria-label')).toBe('Approve edit?');
    expect(await page.locator('.approval .countdown').textContent()).toMatch(/\d+ s left/);
    await approve.focus();
    await page.keyboard.press('Enter');
    await page.locator('details.tool[data-tool-name="edit"][data-exit-code="0"]').waitFor({ state: 'attached' });
    await page.locator('.approval[aria-label="Approve bash?"] .deny').waitFor();
    await page.locator('.approval .deny').focus();
    await page.keyboard.press('Enter');
    await page.locator('#log[data-run-status="completed"]').waitFor({ state: 'attached' });

    await page.locator('details.tool[data-tool-name="edit"] summary').click();
    expect(await page.locator('details.tool[data-tool-name="edit"] .diff .add').first().textContent()).toContain('a + b');
    expect(await page.locator('details.tool[data-tool-name="edit"] .diff .del').first().textContent()).toContain('a - b');
    expect(await page.locator('details.tool[data-tool-name="bash"]').getAttribute('class')).toContain('failed');
    expect(await page.locator('#log').textContent()).toContain('Fixed add(); I did not delete src.');
    expect(readFileSync(join(h.repo, 'src', 'add.js'), 'utf8')).toContain('a + b');
    expect(existsSync(join(h.repo, 'src'))).toBe(true);
    await page.screenshot({ path: join(shots, 'run-approved-and-denied.png'), fullPage: true });
  });

  it('a reload mid-run resumes the stream without duplicates or gaps, and the pending approval comes back', async () => {
    h.model.setScenario([toolCallResponse('bash', { command: 'echo resumed' }), textResponse('Echoed.')]);
    await page.fill('#prompt-input', 'Echo something');
    await page.click('#send-button');
    await page.locator('.approval .approve').waitFor();
    const before = await renderedSeqs();
    expect(before.length).toBeGreaterThan(1);
    await page.reload();
    await page.locator('.approval .approve').waitFor();
    const after = await renderedSeqs();
    expect(after).toEqual(before);
    await page.locator('.approval .approve').click();
    await page.locator('#log[data-run-status="completed"]').waitFor({ state: 'attached' });
    const all = await renderedSeqs();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(Number(await page.locator('#log').getAttribute('data-last-seq'))).toBeGreaterThan(after.at(-1) ?? 0);
    expect(await page.locator('#log').getAttribute('data-duplicates')).toBe('0');
    expect(await page.locator('details.tool[data-tool-name="bash"] .output').textContent()).toContain('resumed');
    await page.screenshot({ path: join(shots, 'reload-resumed.png'), fullPage: true });
  });

  it('a dropped connection reconnects with Last-Event-ID and resumes without duplicates or gaps', async () => {
    // This server ends every event stream after maxStreamMs without its `end` event, as a proxy
    // cutting connections would: the UI must reconnect from its last sequence each time.
    h.model.setScenario([toolCallResponse('bash', { command: 'echo again' }), textResponse('Again.')]);
    await page.fill('#prompt-input', 'Echo again');
    await page.click('#send-button');
    await page.locator('.approval .approve').waitFor();
    await expect.poll(async () => Number(await page.locator('#log').getAttribute('data-reconnects'))).toBeGreaterThanOrEqual(2);
    const before = await renderedSeqs();
    await page.locator('.approval .approve').click();
    await page.locator('#log[data-run-status="completed"]').waitFor({ state: 'attached' });
    const all = await renderedSeqs();
    expect(all.slice(0, before.length)).toEqual(before);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(await page.locator('#log').getAttribute('data-duplicates')).toBe('0');
    expect(await page.locator('details.tool[data-tool-name="bash"] .output').textContent()).toContain('again');
  });

  it('opens a finished run from the run list and replays it from the event log', async () => {
    const runs = page.locator('#runs button');
    // The list settles once every run shows as completed (the refresh after the last run ended).
    await expect.poll(() => page.locator('#runs button[data-status="completed"]').count()).toBe(3);
    // Newest first: the first run is the last button.
    const first = runs.last();
    const runId = await first.getAttribute('data-run-id');
    await first.focus();
    await page.keyboard.press('Enter');
    await page.locator(`#log[data-run-id="${runId ?? ''}"][data-run-status="completed"]`).waitFor({ state: 'attached' });
    expect(await page.locator('#log').textContent()).toContain('Fixed add(); I did not delete src.');
    expect(await page.locator('details.tool[data-tool-name="edit"]').count()).toBe(1);
    const seqs = await renderedSeqs();
    expect(seqs[0]).toBe(1);
    expect(await page.locator('.approval').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'replay.png'), fullPage: true });
  });

  it('is readable on a narrow screen (no horizontal scrolling)', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'narrow.png'), fullPage: true });
  });

  it('without a token the UI asks for one; a wrong token is refused and asked for again', async () => {
    const fresh = await context.newPage();
    try {
      await fresh.goto(`${h.server.url}/`);
      await fresh.locator('#token-input').waitFor();
      await fresh.locator('#app').waitFor({ state: 'hidden' });
      expect(await fresh.locator('#app').isHidden()).toBe(true);
      await fresh.fill('#token-input', 'wrong-token-wrong-token-wrong');
      await fresh.press('#token-input', 'Enter');
      await fresh.locator('#status', { hasText: 'token needed' }).waitFor();
      await fresh.locator('#auth').waitFor({ state: 'visible' });
      expect(await fresh.locator('#auth').isVisible()).toBe(true);
      await fresh.fill('#token-input', TEST_TOKEN);
      await fresh.press('#token-input', 'Enter');
      await fresh.locator('#status', { hasText: 'ready' }).waitFor();
      expect(await fresh.locator('#session-select option').count()).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
