/**
 * Options of the SDK's `PostgresSessionStore`, plain data (no `pg` or PGlite type): a
 * PostgreSQL server by URL, or an embedded PGlite database (in memory without `dataDir`). A host
 * with its own `pg` pool or PGlite instance passes `@a3s-lab/code-postgres`'s store instead.
 */
export type PostgresSessionStoreOptions =
  | {
      /** `postgres://user:password@host:port/database` (or `postgresql://`). */
      readonly connectionString: string;
      /** Size of the pool the store opens (pg's default 10). */
      readonly maxConnections?: number;
    }
  | {
      /** An embedded PGlite database: files under `dataDir`, or in memory. */
      readonly pglite: { readonly dataDir?: string };
    };

/** What `PostgresSessionStore.listPage` selects. */
export interface PostgresSessionQuery {
  /** Only sessions whose `owner` label is this value. */
  readonly owner?: string;
  /** Only sessions carrying every one of these labels with these values. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Page size, 1-1000 (default 100). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** One page of sessions, ordered by session id. */
export interface PostgresSessionPage {
  readonly entries: readonly {
    readonly sessionId: string;
    readonly updatedAtMs: number;
    /** The snapshot's labels (`owner` among them when the host set one). */
    readonly labels: Readonly<Record<string, string>>;
    readonly generation: number;
  }[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}
