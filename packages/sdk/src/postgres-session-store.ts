import { CodeError } from '@a3s-lab/code-core';
import type { SessionSnapshotV1, SessionStore, SessionStoreCapabilities, SessionStoreEntry } from '@a3s-lab/code-core';

import { assertPostgresInstalled, loadPostgres } from './load-postgres.js';
import type { PostgresSessionStoreLike } from './load-postgres.js';
import type { PostgresSessionPage, PostgresSessionQuery, PostgresSessionStoreOptions } from './postgres-session-store-types.js';

/**
 * `PostgresSessionStore` of `@a3s-lab/code`: the session store of `@a3s-lab/code-postgres`
 * (one row per session in PostgreSQL or an embedded PGlite, schema migrated on first use),
 * constructed synchronously while the package is loaded on first use (a missing package fails
 * the constructor with CONFIG_ERROR naming it). Generations are conditional: a host saving over a
 * generation it has not seen gets a `Conflict` HostFailure and can reload.
 *
 * @example
 * const store = new PostgresSessionStore({ connectionString: process.env.DATABASE_URL ?? '' });
 * const session = await agent.sessionAsync('/work/repo', { sessionStore: store, autoSave: true });
 */
export class PostgresSessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: false, durable: true });
  readonly #options: PostgresSessionStoreOptions;
  #store: Promise<PostgresSessionStoreLike> | undefined;

  constructor(options: PostgresSessionStoreOptions) {
    assertPostgresInstalled();
    if (typeof options !== 'object' || options === null) throw new CodeError('CONFIG_ERROR', 'PostgresSessionStore needs options', { details: { field: 'options' } });
    this.#options = { ...options };
    this.name = storeName(options);
  }

  async save(snapshot: SessionSnapshotV1): Promise<void> {
    return (await this.#inner()).save(snapshot);
  }

  async load(sessionId: string): Promise<SessionSnapshotV1 | null> {
    return (await this.#inner()).load(sessionId);
  }

  async delete(sessionId: string): Promise<boolean> {
    return (await this.#inner()).delete(sessionId);
  }

  async list(): Promise<SessionStoreEntry[]> {
    return (await this.#inner()).list();
  }

  /** One page of sessions ordered by id, optionally of one `owner` (label) or carrying given labels. */
  async listPage(query: PostgresSessionQuery = {}): Promise<PostgresSessionPage> {
    return (await this.#inner()).listPage(query);
  }

  /** Opens the database and applies pending migrations (the first call does otherwise). */
  async ready(): Promise<void> {
    await (await this.#inner()).ready();
  }

  /** Ends the pool or PGlite the store opened. Idempotent. */
  async close(): Promise<void> {
    const store = this.#store;
    if (store !== undefined) await (await store.catch(() => null))?.close();
  }

  #inner(): Promise<PostgresSessionStoreLike> {
    this.#store ??= loadPostgres().then((module) => new module.PostgresSessionStore(this.#options));
    return this.#store;
  }
}

/** The inner store's name, known before the package loads: never the password. */
function storeName(options: PostgresSessionStoreOptions): string {
  if ('pglite' in options) return typeof options.pglite.dataDir === 'string' ? `pglite:${options.pglite.dataDir}` : 'pglite:memory';
  try {
    const url = new URL(options.connectionString);
    return `postgres://${url.username === '' ? '' : `${decodeURIComponent(url.username)}@`}${url.host}${url.pathname}`;
  } catch {
    return 'postgres:invalid-url';
  }
}
