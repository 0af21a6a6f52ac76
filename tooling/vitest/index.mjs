import { defineConfig } from 'vitest/config';

/**
 * Shared vitest configuration for every package.
 *
 * Sibling packages are resolved through their `@a3s-lab/source` export condition (a name no
 * third-party package publishes), so a test runs against the siblings' TypeScript sources without
 * a prior build.
 *
 * @param {{ name: string, testTimeout?: number, include?: string[] }} options
 */
export function createVitestConfig(options) {
  return defineConfig({
    resolve: { conditions: ['@a3s-lab/source', 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: ['@a3s-lab/source', 'import', 'module', 'default'] } },
    test: {
      name: options.name,
      include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 30_000,
      pool: 'forks',
    },
  });
}
