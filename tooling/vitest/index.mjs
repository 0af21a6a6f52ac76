import { defineConfig } from 'vitest/config';

/**
 * Shared vitest configuration for every package.
 *
 * Sibling packages are resolved through their `source` export condition, so a test runs
 * against the siblings' TypeScript sources without a prior build.
 *
 * @param {{ name: string, testTimeout?: number, include?: string[] }} options
 */
export function createVitestConfig(options) {
  return defineConfig({
    resolve: { conditions: ['source', 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: ['source', 'import', 'module', 'default'] } },
    test: {
      name: options.name,
      include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 30_000,
      pool: 'forks',
      // Third-party packages that also publish a `source` condition (eventsource-parser, imported
      // by the MCP SDK's Streamable HTTP client) resolve to TypeScript sources under the condition
      // above, which vitest also hands to Node: let vite transform that importer and the package
      // instead of Node meeting .ts files.
      server: { deps: { inline: [/eventsource-parser/, /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]client[\\/]streamableHttp\.js$/] } },
    },
  });
}
