// The browser UI's cost (apps/server/ui), measured for bench/server-sse.bench.ts: its bundle
// (JS + CSS, bytes and gzip -9) built by Vite as shipped (React source on preact/compat) and, as
// the reference in the same run, built with React itself (A3S_UI_RUNTIME=react); then the time
// to first contentful paint and to the session list drawn, in headless Debian chromium, for each
// build, served by a small static server here that forwards /api/ to the running host (so both
// builds read the same sessions). Median of ROUNDS cold loads each (new browser context: no cache).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROUNDS = 7;
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** The part of playwright-core this file uses (it is a dependency of apps/server, not of the root). */
interface Browser {
  newContext(options: { viewport: { width: number; height: number } }): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }>;
  close(): Promise<void>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  waitForSelector(selector: string, options: { state: 'attached' }): Promise<unknown>;
  evaluate<T>(expression: string): Promise<T>;
}

/** Bytes of one build: its JS and CSS, raw and gzip -9. */
export interface BundleSize {
  readonly dir: string;
  readonly jsBytes: number;
  readonly jsGzip: number;
  readonly cssBytes: number;
  readonly cssGzip: number;
}

function build(runtime: 'preact' | 'react', outDir: string): BundleSize {
  const vite = join('apps', 'server', 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', join('apps', 'server', 'ui', 'vite.config.ts')], { env: { ...process.env, A3S_UI_RUNTIME: runtime, A3S_UI_OUT_DIR: outDir }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vite build (${runtime}) failed: ${result.stderr}`);
  const size = { dir: outDir, jsBytes: 0, jsGzip: 0, cssBytes: 0, cssGzip: 0 };
  for (const name of readdirSync(join(outDir, 'assets'))) {
    const body = readFileSync(join(outDir, 'assets', name));
    const gz = gzipSync(body, { level: 9 }).length;
    if (name.endsWith('.js')) {
      size.jsBytes += body.length;
      size.jsGzip += gz;
    } else if (name.endsWith('.css')) {
      size.cssBytes += body.length;
      size.cssGzip += gz;
    }
  }
  return size;
}

/** Serves `dir` (index.html for every page path) and forwards `/api/` GETs to `apiUrl`. */
async function serveBuild(dir: string, apiUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/')) {
      void fetch(`${apiUrl}${req.url ?? ''}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(
        async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
      return;
    }
    const file = path.startsWith('/assets/') ? join(dir, path) : join(dir, 'index.html');
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Median first contentful paint and session-list time (ms from navigation start) of `url` over ROUNDS cold loads. */
async function paintTimes(browser: Browser, url: string, token: string): Promise<{ fcp: number; list: number }> {
  const fcp: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${url}/#token=${token}`);
      await page.waitForSelector('.session', { state: 'attached' });
      const listedAt = await page.evaluate<number>('performance.now()');
      // FCP is reported once painted; it is before the list, so it is there by now.
      fcp.push(await page.evaluate<number>("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"));
      list.push(listedAt);
    } finally {
      await context.close();
    }
  }
  return { fcp: median(fcp), list: median(list) };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** Builds both bundles, loads each in chromium against the host at `apiUrl`, prints the figures. */
export async function measureUiBundle(apiUrl: string, token: string): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'a3s-ui-bench-'));
  try {
    const shipped = build('preact', join(out, 'preact'));
    const reference = build('react', join(out, 'react'));
    console.log(`UI bundle (shipped, React source on preact/compat): JS ${kb(shipped.jsBytes)} (${kb(shipped.jsGzip)} gzip), CSS ${kb(shipped.cssBytes)} (${kb(shipped.cssGzip)} gzip)`);
    console.log(`UI bundle (reference, react-dom): JS ${kb(reference.jsBytes)} (${kb(reference.jsGzip)} gzip); shipped/reference gzip ratio ${(shipped.jsGzip / reference.jsGzip).toFixed(2)}x`);
    if (!existsSync(CHROMIUM)) {
      console.log(`first paint: skipped (${CHROMIUM} not found; apt-get install chromium)`);
      return;
    }
    const playwright = pathToFileURL(createRequire(join(process.cwd(), 'apps', 'server', 'package.json')).resolve('playwright-core')).href;
    type Chromium = { launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<Browser> };
    // playwright-core is CommonJS: its exports arrive as the namespace's default.
    const loaded = (await import(playwright)) as { chromium?: Chromium; default?: { chromium: Chromium } };
    const chromium = loaded.chromium ?? loaded.default?.chromium;
    if (chromium === undefined) throw new Error('playwright-core has no chromium export');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    try {
      const times: Record<string, { fcp: number; list: number }> = {};
      for (const [name, size] of [['preact', shipped], ['react', reference]] as const) {
        const served = await serveBuild(size.dir, apiUrl);
        try {
          await paintTimes(browser, served.url, token); // warm-up (chromium, the host's store reads)
          times[name] = await paintTimes(browser, served.url, token);
        } finally {
          await served.close();
        }
      }
      const p = times['preact'];
      const r = times['react'];
      if (p === undefined || r === undefined) throw new Error('no paint times');
      console.log(`UI first contentful paint (headless chromium, cold load, median of ${ROUNDS}): shipped ${p.fcp.toFixed(0)} ms, react-dom ${r.fcp.toFixed(0)} ms (ratio ${(p.fcp / r.fcp).toFixed(2)}x)`);
      console.log(`UI session list drawn: shipped ${p.list.toFixed(0)} ms, react-dom ${r.list.toFixed(0)} ms (ratio ${(p.list / r.list).toFixed(2)}x)`);
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
