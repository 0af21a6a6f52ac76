import { readFileSync } from 'node:fs';
import { Hono } from 'hono';

/** Files of the browser UI (in `ui/` beside `src/` and `dist/`), with their media types. */
const UI_FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Headers of every UI response: no inline script, no framing, no referrer leaks. */
const UI_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
};

/**
 * Routes of the browser UI: three static files read once at start. They carry no data; the UI
 * reads the token from the URL fragment (`/#token=...`, never sent to the server) and sends it
 * with every API call.
 */
export function createUiRoutes(): Hono {
  const ui = new Hono();
  for (const [path, { file, type }] of Object.entries(UI_FILES)) {
    const body = readFileSync(new URL(`../ui/${file}`, import.meta.url), 'utf8');
    ui.get(path, (c) => c.body(body, 200, { ...UI_HEADERS, 'Content-Type': type }));
  }
  return ui;
}
