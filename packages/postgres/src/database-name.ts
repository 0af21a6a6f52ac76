import type { DatabaseOptions } from './database.js';

/**
 * The name a store or fleet uses in errors: `postgres://user@host:port/db` (never the password),
 * `postgres:pool` for a host's pool, `pglite:<dataDir>` or `pglite:memory`.
 */
export function databaseName(options: DatabaseOptions): string {
  if ('connectionString' in options && typeof options.connectionString === 'string') {
    try {
      const url = new URL(options.connectionString);
      return `postgres://${url.username === '' ? '' : `${decodeURIComponent(url.username)}@`}${url.host}${url.pathname}`;
    } catch {
      return 'postgres:invalid-url';
    }
  }
  if ('pool' in options) return 'postgres:pool';
  if ('pglite' in options) {
    const pglite = options.pglite as { readonly dataDir?: unknown };
    return typeof pglite.dataDir === 'string' ? `pglite:${pglite.dataDir}` : 'pglite:memory';
  }
  return 'postgres';
}
