import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every package's own vitest config (each package keeps its own settings),
// so the README's test command yields a single JSON report.
//
// At least three workers, even on two cores: a good part of the suite waits rather than computes
// (real PostgreSQL and pg-boss takeovers with their 10 s heartbeat floor, child processes,
// chromium), and a waiting file should not hold one of only two slots.
export default defineConfig({
  test: {
    maxWorkers: Math.max(3, availableParallelism()),
    projects: ['packages/*/vitest.config.mjs', 'apps/*/vitest.config.mjs', 'tooling/lint/vitest.config.mjs', 'tooling/scripts/vitest.config.mjs', 'tooling/readme/vitest.config.mjs'],
  },
});
