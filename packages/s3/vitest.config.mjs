import { createVitestConfig } from '@a3s-lab/vitest-config';

const base = createVitestConfig({ name: 's3', testTimeout: 60_000 });
// The AWS SDK publishes bundler-only ES builds under the `module` condition (extensionless
// imports Node cannot load): resolve it through `node` / `import` like Node itself does.
const conditions = ['@a3s-lab/source', 'node', 'import', 'default'];
export default { ...base, resolve: { ...base.resolve, conditions }, ssr: { ...base.ssr, resolve: { ...base.ssr.resolve, conditions } } };
