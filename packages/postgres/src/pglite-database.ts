import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';

import type { Database, Listener, QueryResult, Queryable } from './database-types.js';

type PgliteLike = Pick<PGlite, 'query' | 'exec'> | Transaction;

const queryableOf = (db: PgliteLike): Queryable => ({
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
    const result = await db.query<Row>(sql, [...params]);
    return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
  },
  async exec(sql: string): Promise<void> {
    await db.exec(sql);
  },
});

/** A {@link Database} over PGlite: the host's instance, or one opened here (in memory without `dataDir`). */
export async function openPgliteDatabase(source: PGlite | { readonly dataDir?: string }): Promise<Database> {
  // Structural, not instanceof: the host's PGlite may come from another copy of the package.
  const given = isPglite(source) ? source : null;
  const owns = given === null;
  const db = given ?? (await (!isPglite(source) && source.dataDir !== undefined ? PGlite.create(source.dataDir) : PGlite.create()));
  const base = queryableOf(db);
  let closed = false;
  return {
    driver: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => db.transaction((tx) => fn(queryableOf(tx))),
    async listen(channel: string, onNotify: (payload: string) => void): Promise<Listener> {
      const unsubscribe = await db.listen(channel, onNotify);
      let done = false;
      return {
        // In process: no connection to lose.
        live: () => !done,
        async unlisten(): Promise<void> {
          if (done) return;
          done = true;
          await unsubscribe();
        },
      };
    },
    async close(): Promise<void> {
      if (closed || !owns) return;
      closed = true;
      await db.close();
    },
  };
}

function isPglite(value: PGlite | { readonly dataDir?: string }): value is PGlite {
  return typeof (value as { query?: unknown }).query === 'function' && typeof (value as { transaction?: unknown }).transaction === 'function';
}
