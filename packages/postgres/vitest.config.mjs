import { fileURLToPath } from 'node:url';
import { createVitestConfig } from '@a3s-lab/vitest-config';

const base = createVitestConfig({ name: 'postgres', testTimeout: 30_000 });
// The shared conditions list `import`, which vitest also hands the workers as `--conditions`:
// `require('pg-pool')` inside pg would then load pg-pool's ES build and fail. Node and vite add
// `import` / `require` by themselves, so it is left out here.
const conditions = ['@a3s-lab/source', 'node', 'default'];
export default {
  ...base,
  resolve: { ...base.resolve, conditions },
  ssr: { ...base.ssr, resolve: { ...base.ssr.resolve, conditions } },
  // One PostgreSQL server for every test file of the package (each test takes a database of its own).
  // By path into the testing package's sources: vitest resolves a globalSetup's imports without
  // the @a3s-lab/source condition, so `@a3s-lab/code-testing/postgres` would need a build.
  test: { ...base.test, globalSetup: [fileURLToPath(new URL('../testing/src/postgres/global-setup.ts', import.meta.url))] },
};
