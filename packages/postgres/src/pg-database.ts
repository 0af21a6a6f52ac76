import pg from 'pg';
import type { Pool, PoolClient } from 'pg';

import type { Database, Listener, QueryResult, Queryable } from './database-types.js';

const queryableOf = (client: Pool | PoolClient): Queryable => ({
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
    const result = await client.query(sql, [...params]);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  },
  async exec(sql: string): Promise<void> {
    await client.query(sql);
  },
});

/** A {@link Database} over a `pg` pool: its own (built from a connection string) or the host's. */
export function openPgDatabase(source: { readonly connectionString: string; readonly max?: number } | { readonly pool: Pool }): Database {
  const owns = !('pool' in source);
  const pool = 'pool' in source ? source.pool : new pg.Pool({ connectionString: source.connectionString, ...(source.max === undefined ? {} : { max: source.max }) });
  // An idle client that loses its server would otherwise crash the process with 'error'.
  const onIdleError = (): void => undefined;
  if (owns) pool.on('error', onIdleError);
  const base = queryableOf(pool);
  let closed = false;
  return {
    driver: 'pg',
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const value = await fn(queryableOf(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async listen(channel: string, onNotify: (payload: string) => void): Promise<Listener> {
      // A dedicated connection: LISTEN holds for the connection's life.
      const client = await pool.connect();
      const onNotification = (message: { channel: string; payload?: string | undefined }): void => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      };
      client.on('notification', onNotification);
      try {
        await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (error) {
        client.off('notification', onNotification);
        client.release(true);
        throw error;
      }
      let done = false;
      return {
        async unlisten(): Promise<void> {
          if (done) return;
          done = true;
          client.off('notification', onNotification);
          const ok = await client.query(`UNLISTEN ${quoteIdentifier(channel)}`).then(
            () => true,
            () => false,
          );
          client.release(!ok);
        },
      };
    },
    async close(): Promise<void> {
      if (closed || !owns) return;
      closed = true;
      await pool.end();
    },
  };
}

/** `"name"` with embedded quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
