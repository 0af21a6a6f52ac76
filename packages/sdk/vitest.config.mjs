import { createVitestConfig } from '@a3s-lab/vitest-config';

const base = createVitestConfig({ name: 'sdk' });
// The AWS SDK (loaded with @a3s-lab/code-s3) publishes bundler-only ES builds under the `module`
// condition (extensionless imports Node cannot load): resolve through `node` / `import` like Node.
const conditions = ['@a3s-lab/source', 'node', 'import', 'default'];
export default { ...base, resolve: { ...base.resolve, conditions }, ssr: { ...base.ssr, resolve: { ...base.ssr.resolve, conditions } } };
