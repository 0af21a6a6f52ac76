// Vite build of the browser UI: ui/ -> dist/ui/ (served by src/ui-routes.ts). Run by the
// package's `build` script after tsc; the output is static, hashed files with no inline script
// (the host's CSP allows only `script-src 'self'`).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  // Oxc turns JSX into React's automatic runtime; no plugin (nothing here needs fast refresh).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The bundle is measured by bench/server-sse.bench.ts; keep it one small script and one stylesheet.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
  },
  logLevel: 'warn',
});
