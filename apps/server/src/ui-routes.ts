import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Hono } from 'hono';

/** Where the Vite build of `ui/` lands (`dist/ui`, beside `src/` and `dist/`'s own files). */
const UI_DIST = new URL('../dist/ui/', import.meta.url);

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Headers of every UI response: no inline script, no framing, no referrer leaks. */
const UI_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Answer of every page route when `dist/ui` was not built (a source checkout before `build`). */
const NOT_BUILT = 'The browser UI is not built: run `pnpm --filter @a3s-lab/server run build` (Vite writes dist/ui), then restart the server.\n';

/**
 * Routes of the browser UI, the Vite build in `dist/ui` read once at start: `index.html` at `/`
 * and at `/sessions/:id` (the session id lives in the URL, so a link opens the same session in
 * another tab), and the content-hashed files under `/assets/` (cached for good). They carry no
 * data; the UI reads the token from the URL fragment (`/#token=...`, never sent to the server)
 * and sends it with every API call.
 */
export function createUiRoutes(): Hono {
  const ui = new Hono();
  const indexUrl = new URL('index.html', UI_DIST);
  if (!existsSync(indexUrl)) {
    const notBuilt = (): Response => new Response(NOT_BUILT, { status: 503, headers: { ...UI_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
    ui.get('/', notBuilt);
    ui.get('/sessions/:id', notBuilt);
    return ui;
  }
  const index = readFileSync(indexUrl, 'utf8');
  const page = { ...UI_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' };
  ui.get('/', (c) => c.body(index, 200, page));
  ui.get('/sessions/:id', (c) => c.body(index, 200, page));
  const assets = new URL('assets/', UI_DIST);
  if (existsSync(assets)) {
    for (const name of readdirSync(assets)) {
      const type = MEDIA_TYPES[extname(name)];
      if (type === undefined) continue;
      const body = readFileSync(new URL(name, assets));
      // Vite names every asset by its content hash: a changed file is a new URL.
      ui.get(`/assets/${name}`, (c) => c.body(body, 200, { ...UI_HEADERS, 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' }));
    }
  }
  return ui;
}
