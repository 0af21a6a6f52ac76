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
  test: { ...base.test, globalSetup: ['./test/global-setup.ts'] },
};
