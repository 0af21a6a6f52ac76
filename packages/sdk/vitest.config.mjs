import { fileURLToPath } from 'node:url';
import { configDefaults } from 'vitest/config';
import { createVitestConfig } from '@a3s-lab/vitest-config';

/** Files that need a process of their own (what a module graph holds is what they test): `vitest.isolated.config.mjs`. */
export const ISOLATED_FILES = ['test/telemetry-lazy.test.ts'];

// In-process sessions against real servers: one module graph per worker (isolate: false) saves
// re-importing the SDK's whole source tree for each of ~50 files (sdk tests: 157 s -> 59 s).
const base = createVitestConfig({ name: 'sdk', isolate: false });
// The shared conditions list `import`, which vitest also hands the workers as `--conditions`: the
// `require('pg-pool')` inside pg (loaded with @a3s-lab/code-postgres) would then get pg-pool's ES
// build and fail. Node and vite add `import` / `require` by themselves, so it is left out here.
const conditions = ['@a3s-lab/source', 'node', 'default'];
// One PostgreSQL server for the run (the fleet and store tests each take a database of their own;
// none when the run has one already, e.g. from packages/postgres's setup in a root run). By path
// into the testing package's sources: vitest resolves a globalSetup's imports without the
// @a3s-lab/source condition.
const globalSetup = [fileURLToPath(new URL('../testing/src/postgres/global-setup.ts', import.meta.url))];
export default { ...base, resolve: { ...base.resolve, conditions }, ssr: { ...base.ssr, resolve: { ...base.ssr.resolve, conditions } }, test: { ...base.test, globalSetup, exclude: [...configDefaults.exclude, ...ISOLATED_FILES] } };
