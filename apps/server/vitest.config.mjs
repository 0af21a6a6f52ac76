import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { createVitestConfig } from '@a3s-lab/vitest-config';

// expect.poll waits on other processes (a second server, chromium): a machine under load needs
// more than the 1 s default. Nothing here asserts a duration. ui/src tests (the UI's pure
// rendering rules) join the package's src/ and test/ ones. One PostgreSQL server for the run (see
// packages/sdk/vitest.config.mjs).
export default mergeConfig(createVitestConfig({ name: 'server' }), { test: { include: ['ui/src/**/*.test.ts'], expect: { poll: { timeout: 8000 } }, globalSetup: [fileURLToPath(new URL('../../packages/testing/src/postgres/global-setup.ts', import.meta.url))] } });
