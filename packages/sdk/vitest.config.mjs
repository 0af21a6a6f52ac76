import { createVitestConfig } from '@a3s-lab/vitest-config';

const base = createVitestConfig({ name: 'sdk' });
// The shared conditions list `import`, which vitest also hands the workers as `--conditions`: the
// `require('pg-pool')` inside pg (loaded with @a3s-lab/code-postgres) would then get pg-pool's ES
// build and fail. Node and vite add `import` / `require` by themselves, so it is left out here.
const conditions = ['@a3s-lab/source', 'node', 'default'];
export default { ...base, resolve: { ...base.resolve, conditions }, ssr: { ...base.ssr, resolve: { ...base.ssr.resolve, conditions } } };
