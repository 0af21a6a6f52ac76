import { defineConfig } from 'vitest/config';

// One run over every package's own vitest config (each package keeps its own settings),
// so the README's test command yields a single JSON report.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.mjs', 'apps/*/vitest.config.mjs', 'tooling/lint/vitest.config.mjs', 'tooling/scripts/vitest.config.mjs', 'tooling/readme/vitest.config.mjs'],
  },
});
