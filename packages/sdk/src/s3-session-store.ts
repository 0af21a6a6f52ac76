import type { S3SessionLeasesLike, S3SessionStoreOptions } from './s3-types.js';
import type { SessionSnapshotV1, SessionStore, SessionStoreCapabilities, SessionStoreEntry } from '@a3s-lab/code-core';

import { assertS3Installed, loadS3 } from './load-s3.js';
import { rememberS3Credentials, s3Root } from './s3-workspace-backend.js';

/**
 * `S3SessionStore` of `@a3s-lab/code`: the S3 session store of `@a3s-lab/code-s3`, constructed
 * synchronously while the package is loaded on first use (a missing package fails the
 * constructor, a bad option the first call, with a CONFIG_ERROR). Generations are published with conditional
 * writes: a host saving over a generation it has not seen gets a `Conflict` and can reload.
 *
 * @example
 * const store = new S3SessionStore({ region: 'us-east-1', bucket: 'sessions', prefix: 'a3s', accessKeyId, secretAccessKey });
 * const session = await agent.sessionAsync('s3://workspace/u1', { sessionStore: store, autoSave: true });
 */
export class S3SessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: false, durable: true });
  readonly #options: S3SessionStoreOptions;
  #store: Promise<SessionStore & { close(): Promise<void> }> | undefined;

  constructor(options: S3SessionStoreOptions) {
    assertS3Installed();
    this.#options = { ...options };
    this.name = s3Root(options.bucket, options.prefix);
    if (options.client === undefined) rememberS3Credentials(this, options);
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

  /**
   * Per-session leases beside this store's documents (`<prefix>/leases/<id>.lease`, same bucket
   * and connection), published with conditional writes: what hosts serving this store from
   * several machines lock a session with (the web host uses them when the agent's store is S3).
   */
  async sessionLeases(options: { readonly ttlMs?: number } = {}): Promise<S3SessionLeasesLike> {
    const module = await loadS3();
    return new module.S3SessionLeases({ ...this.#options, ...options });
  }

  /** Releases the client's sockets when the store built the client. Idempotent. */
  async close(): Promise<void> {
    const store = this.#store;
    if (store !== undefined) await (await store.catch(() => null))?.close();
  }

  #inner(): Promise<SessionStore & { close(): Promise<void> }> {
    this.#store ??= loadS3().then((module) => new module.S3SessionStore(this.#options));
    return this.#store;
  }
}
