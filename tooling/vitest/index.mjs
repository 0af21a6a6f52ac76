import { defineConfig } from 'vitest/config';

// Resolve like Node does (`node`, `import`, `default`), never through the bundler-only `module`
// condition: some packages (the AWS SDK, loaded with @a3s-lab/code-s3) publish extensionless ES
// builds there that Node cannot load, so tests would run code users never get.
const CONDITIONS = ['@a3s-lab/source', 'node', 'import', 'default'];

/**
 * Shared vitest configuration for every package.
 *
 * Sibling packages are resolved through their `@a3s-lab/source` export condition (a name no
 * third-party package publishes), so a test runs against the siblings' TypeScript sources without
 * a prior build.
 *
 * `isolate: false` (packages of in-process unit tests only) reuses one module graph across the
 * files a worker runs instead of importing everything again per file (core: 30 s -> 6 s).
 *
 * @param {{ name: string, testTimeout?: number, include?: string[], isolate?: boolean }} options
 */
export function createVitestConfig(options) {
  return defineConfig({
    resolve: { conditions: CONDITIONS },
    ssr: { resolve: { conditions: CONDITIONS } },
    test: {
      name: options.name,
      include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 30_000,
      pool: 'forks',
      isolate: options.isolate ?? true,
    },
  });
}
