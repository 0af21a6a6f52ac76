import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';

/** One row set of a statement. */
export interface QueryResult<Row> {
  readonly rows: Row[];
  /** Rows inserted, updated or deleted (0 when the driver does not say). */
  readonly rowCount: number;
}

/** What a statement runs on: the database itself or one transaction of it. */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
}

/** A notification subscription; `unlisten()` ends it. Idempotent. */
export interface Listener {
  unlisten(): Promise<void>;
  /**
   * True while the connection that carries the subscription is up (every NOTIFY reaches it);
   * false once it failed or ended (notifications may have been missed: look at the data).
   */
  live(): boolean;
}

/**
 * One database behind either driver: a PostgreSQL server through `pg` (a pool) or an embedded
 * PGlite. Everything in this package talks to a `Database`, never to a driver.
 */
export interface Database extends Queryable {
  /** `pg` or `pglite`. */
  readonly driver: 'pg' | 'pglite';
  /**
   * Runs `fn` in one transaction on one connection: committed when `fn` resolves, rolled back
   * (and the error rethrown) when it throws.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify(payload)` for every `NOTIFY channel` (after the subscription is active). */
  listen(channel: string, onNotify: (payload: string) => void): Promise<Listener>;
  /** Ends the pool or the PGlite instance when this database opened it. Idempotent. */
  close(): Promise<void>;
}

/** Where the data lives: a connection string, an existing `pg` pool, or PGlite (an instance or its data directory). */
export type DatabaseOptions =
  | { readonly connectionString: string; readonly maxConnections?: number }
  | { readonly pool: Pool }
  | { readonly pglite: PGlite | { readonly dataDir?: string } };
