import { CodeError } from '@a3s-lab/code-core';

import type { Database, DatabaseOptions } from './database-types.js';
import { openPgDatabase } from './pg-database.js';
import { openPgliteDatabase } from './pglite-database.js';

export type { Database, DatabaseOptions, Listener, QueryResult, Queryable } from './database-types.js';

/**
 * Opens a {@link Database}: `{ connectionString }` builds a `pg` pool it owns (ended by
 * `close()`), `{ pool }` uses the host's pool (never ended here), `{ pglite: instance }` uses the
 * host's PGlite (never closed here), `{ pglite: { dataDir } }` opens one it owns (in memory when
 * `dataDir` is omitted).
 *
 * @throws CodeError CONFIG_ERROR when none or several of the options are given.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const kinds = typeof options === 'object' && options !== null ? (['connectionString', 'pool', 'pglite'] as const).filter((key) => key in options && (options as Record<string, unknown>)[key] !== undefined) : [];
  if (kinds.length !== 1) {
    throw new CodeError('CONFIG_ERROR', `a Postgres database needs exactly one of connectionString, pool or pglite (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`, { details: { field: 'connectionString' } });
  }
  if ('connectionString' in options) {
    if (typeof options.connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(options.connectionString)) {
      throw new CodeError('CONFIG_ERROR', 'connectionString must be a postgres:// or postgresql:// URL', { details: { field: 'connectionString' } });
    }
    const max = options.maxConnections;
    if (max !== undefined && (!Number.isSafeInteger(max) || max < 1 || max > 1000)) {
      throw new CodeError('CONFIG_ERROR', 'maxConnections must be an integer from 1 to 1000', { details: { field: 'maxConnections' } });
    }
    return openPgDatabase({ connectionString: options.connectionString, ...(max === undefined ? {} : { max }) });
  }
  if ('pool' in options) return openPgDatabase({ pool: options.pool });
  const pglite: unknown = options.pglite;
  if (typeof pglite !== 'object' || pglite === null) throw new CodeError('CONFIG_ERROR', 'pglite must be a PGlite instance or { dataDir? }', { details: { field: 'pglite' } });
  const dataDir = 'dataDir' in pglite ? pglite.dataDir : undefined;
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir === '')) throw new CodeError('CONFIG_ERROR', 'pglite.dataDir must be a non-empty path', { details: { field: 'pglite.dataDir' } });
  return openPgliteDatabase(options.pglite);
}
