import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { CodeError, HostFailure, parseSessionSnapshotText, serializeSessionSnapshot, validateSessionId } from '@a3s-lab/code-core';
import type { S3SessionStoreOptions as S3SessionStoreConnectionOptions } from './s3-session-store-options.js';
import type { SessionSnapshotV1, SessionStore, SessionStoreCapabilities, SessionStoreEntry } from '@a3s-lab/code-core';

import { validateBucket } from './s3-bucket.js';
import { getObjectText } from './get-object-text.js';
import { resolveS3Client } from './s3-connection.js';
import { toS3Failure } from './s3-failure.js';
import { normalizePrefix } from './s3-key.js';

/** Options of an {@link S3SessionStore} that talks through an existing AWS SDK client. */
export interface S3SessionStoreClientOptions extends Pick<S3SessionStoreConnectionOptions, 'bucket' | 'prefix'> {
  /** The client to use; the store neither configures nor destroys it. */
  readonly client: S3Client;
}

/**
 * Options of {@link S3SessionStore}: the connection settings to build a client (the plain-data
 * options declared in `@a3s-lab/code-core`), or an existing client.
 */
export type S3SessionStoreOptions = S3SessionStoreConnectionOptions | S3SessionStoreClientOptions;

const SUFFIX = '.json';

/**
 * A {@link SessionStore} keeping one JSON document per session in an S3 bucket
 * (`<prefix>/<sessionId>.json`). A PUT publishes a whole document or nothing. Generations are
 * published with conditional writes: the store remembers the ETag of the generation it last
 * loaded or saved for each session and sends it as `If-Match` (`If-None-Match: *` for a session
 * it has never seen), so two hosts saving the same session never silently overwrite each other:
 * the loser's save fails with a `Conflict` HostFailure (`details.reason: 'Conflict'`) and it can
 * `load()` the winner's generation and go on from there. Saves of one session through one store
 * are serialised. Listing pages through the bucket.
 *
 * ```ts
 * const store = new S3SessionStore({ region: 'us-east-1', bucket: 'sessions', prefix: 'a3s', accessKeyId, secretAccessKey });
 * const session = await agent.sessionAsync('s3://workspace/u1', { workspaceBackend, sessionStore: store, autoSave: true });
 * ```
 */
export class S3SessionStore implements SessionStore {
  readonly name: string;
  readonly capabilities: SessionStoreCapabilities = Object.freeze({ atomicSessionSnapshots: true, synchronousLoad: false, durable: true });
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;
  readonly #ownsClient: boolean;
  readonly #timeoutMs: number;
  readonly #secrets: readonly string[];
  /** ETag of the generation this store last loaded or published, per session (`null`: known absent). */
  readonly #etags = new Map<string, string | null>();
  readonly #queues = new Map<string, Promise<void>>();

  constructor(options: S3SessionStoreOptions) {
    if (typeof options !== 'object' || options === null) throw new CodeError('CONFIG_ERROR', 'S3SessionStore needs options', { details: { field: 'options' } });
    this.bucket = validateBucket(options.bucket, 'S3SessionStore');
    this.prefix = normalizePrefix(options.prefix ?? '');
    this.name = `s3://${this.bucket}/${this.prefix}`;
    const handle = resolveS3Client(options, 'S3SessionStore');
    this.#client = handle.client;
    this.#ownsClient = handle.ownsClient;
    this.#timeoutMs = handle.requestTimeoutMs;
    this.#secrets = handle.secrets;
  }

  async save(snapshot: SessionSnapshotV1): Promise<void> {
    const id = validateSessionId(snapshot.sessionId, this.name);
    const text = serializeSessionSnapshot(snapshot);
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const run = previous.then(() => this.#publish(id, text));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(id, tail);
    void tail.then(() => {
      if (this.#queues.get(id) === tail) this.#queues.delete(id);
    });
    await run;
  }

  async load(sessionId: string): Promise<SessionSnapshotV1 | null> {
    const id = validateSessionId(sessionId, this.name);
    const key = this.#keyOf(id);
    const object = await getObjectText(this.#client, this.bucket, key, (error) => this.#failure(error, 'GetObject', id));
    if (object === null) {
      this.#etags.set(id, null);
      return null;
    }
    const snapshot = parseSessionSnapshotText(object.text, { store: this.name, sessionId: id });
    if (object.etag !== undefined) this.#etags.set(id, object.etag);
    return snapshot;
  }

  async delete(sessionId: string): Promise<boolean> {
    const id = validateSessionId(sessionId, this.name);
    const key = this.#keyOf(id);
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      const failure = this.#failure(error, 'HeadObject', id);
      if (failure.reason === 'NotFound') return false;
      throw failure;
    }
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw this.#failure(error, 'DeleteObject', id);
    }
    this.#etags.set(id, null);
    return true;
  }

  async list(): Promise<SessionStoreEntry[]> {
    const entries: SessionStoreEntry[] = [];
    const prefix = this.prefix === '' ? '' : `${this.prefix}/`;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token === undefined ? {} : { ContinuationToken: token }) }));
      } catch (error) {
        throw this.#failure(error, 'ListObjectsV2', null);
      }
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(prefix.length);
        if (name.includes('/') || !name.endsWith(SUFFIX)) continue;
        const id = name.slice(0, -SUFFIX.length);
        try {
          validateSessionId(id, this.name);
        } catch {
          continue; // a foreign object, not a session document
        }
        entries.push({ sessionId: id, updatedAtMs: object.LastModified?.getTime() ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return entries.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  }

  /** Releases the client's sockets when the store built the client. Idempotent. */
  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.destroy();
  }

  async #publish(id: string, text: string): Promise<void> {
    const known = this.#etags.get(id);
    const condition = typeof known === 'string' ? { IfMatch: known } : { IfNoneMatch: '*' };
    try {
      const output = await this.#client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.#keyOf(id), Body: text, ContentType: 'application/json', ...condition }));
      if (output.ETag !== undefined) this.#etags.set(id, output.ETag);
    } catch (error) {
      const failure = this.#failure(error, 'PutObject', id);
      if (failure.reason === 'Conflict') {
        throw new HostFailure('Conflict', `session '${id}' in store '${this.name}' was saved by another host since this one ${typeof known === 'string' ? 'loaded it' : 'created it'}: nothing was written; load it again and retry`, {
          path: this.#keyOf(id),
          details: { store: this.name, sessionId: id, expected: typeof known === 'string' ? known : null },
        });
      }
      throw failure;
    }
  }

  #failure(error: unknown, op: string, id: string | null): HostFailure {
    const failure = toS3Failure(error, { op, timeoutMs: this.#timeoutMs, secrets: this.#secrets, ...(id === null ? {} : { path: this.#keyOf(id) }), details: { store: this.name, sessionId: id } });
    return failure;
  }

  #keyOf(id: string): string {
    return this.prefix === '' ? `${id}${SUFFIX}` : `${this.prefix}/${id}${SUFFIX}`;
  }
}
