// Vite build of the browser UI: ui/ -> dist/ui/ (served by src/ui-routes.ts). Run by the
// package's `build` script after tsc; the output is static, hashed files with no inline script
// (the host's CSP allows only `script-src 'self'`).
//
// The source is React (typechecked against @types/react, `useChat` from @ai-sdk/react); the
// shipped runtime is Preact through preact/compat, because it halves the bundle: measured
// 225 KB / 64 KB gzip against 427 KB / 124 KB gzip with react-dom (bench/server-sse.bench.ts
// builds both). A3S_UI_RUNTIME=react builds with React itself (the bench's reference).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const runtime = process.env['A3S_UI_RUNTIME'] ?? 'preact';
if (runtime !== 'preact' && runtime !== 'react') throw new Error(`A3S_UI_RUNTIME must be 'preact' or 'react'; got '${runtime}'`);

export default defineConfig({
  root: here,
  base: '/',
  // Oxc turns JSX into the automatic runtime; no plugin (nothing here needs fast refresh).
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    alias:
      runtime === 'preact'
        ? [
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react$/, replacement: 'preact/compat' },
          ]
        : [],
    // One Preact for the app and for @ai-sdk/react (whose `react` import the alias rewrites).
    dedupe: ['preact'],
  },
  build: {
    outDir: process.env['A3S_UI_OUT_DIR'] ?? fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
  },
  logLevel: 'warn',
});
