import pg from 'pg';
import type { Pool, PoolClient } from 'pg';

import type { Database, Listener, QueryResult, Queryable } from './database-types.js';
import { preparedName } from './prepared-statements.js';

const queryableOf = (client: Pool | PoolClient): Queryable => ({
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
    // The package's hot statements (prepared-statements.ts) run prepared: parsed and planned once
    // per connection (PgBouncer in transaction mode needs 1.21 or later for that).
    const name = preparedName(sql);
    const result = name === undefined ? await client.query(sql, [...params]) : await client.query({ name, text: sql, values: [...params] });
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
  const listeners = sharedListeners(pool);
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
    listen: (channel, onNotify) => listeners.listen(channel, onNotify),
    async close(): Promise<void> {
      if (closed || !owns) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * The LISTEN subscriptions of one pool, on one connection for every channel (taken from the pool
 * with the first subscription, given back with the last): every listening connection is woken by
 * every NOTIFY of its database, whatever the channel, so one per database instead of one per
 * channel. LISTEN and UNLISTEN run in the connection's order of calls.
 */
function sharedListeners(pool: Pool): { listen(channel: string, onNotify: (payload: string) => void): Promise<Listener> } {
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  const active = new Map<string, Promise<void>>();
  let client: Promise<PoolClient> | null = null;
  let broken = false;
  /** The connection now carrying the subscriptions failed or ended (its notifications stopped). */
  let lost = false;
  const onLost = (): void => {
    lost = true;
    broken = true;
  };
  const onNotification = (message: { channel: string; payload?: string | undefined }): void => {
    for (const notify of subscribers.get(message.channel) ?? []) notify(message.payload ?? '');
  };
  const connection = (): Promise<PoolClient> =>
    (client ??= pool.connect().then((c) => {
      lost = false;
      c.on('notification', onNotification);
      c.on('error', onLost);
      c.on('end', onLost);
      return c;
    }, (error: unknown) => {
      client = null;
      throw error;
    }));
  const releaseIfIdle = async (): Promise<void> => {
    if (subscribers.size > 0 || client === null) return;
    const held = client;
    client = null;
    const c = await held;
    c.off('notification', onNotification);
    c.off('error', onLost);
    c.off('end', onLost);
    c.release(broken);
    broken = false;
  };
  return {
    async listen(channel, onNotify) {
      const c = await connection();
      let set = subscribers.get(channel);
      if (set === undefined) {
        subscribers.set(channel, (set = new Set()));
        // Every subscriber of the channel returns once its LISTEN is active.
        active.set(channel, c.query(`LISTEN ${quoteIdentifier(channel)}`).then(() => undefined));
      }
      const subscriber = (payload: string): void => onNotify(payload);
      set.add(subscriber);
      try {
        await active.get(channel);
      } catch (error) {
        set.delete(subscriber);
        if (set.size === 0 && subscribers.get(channel) === set) {
          subscribers.delete(channel);
          active.delete(channel);
        }
        broken = true;
        await releaseIfIdle();
        throw error;
      }
      let done = false;
      return {
        live: () => !done && !lost,
        async unlisten(): Promise<void> {
          if (done) return;
          done = true;
          const current = subscribers.get(channel);
          current?.delete(subscriber);
          if (current === undefined || current.size > 0) return;
          subscribers.delete(channel);
          active.delete(channel);
          await c.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {
            broken = true;
          });
          await releaseIfIdle();
        },
      };
    },
  };
}

/** `"name"` with embedded quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
