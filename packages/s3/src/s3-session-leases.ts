import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { CodeError, HostFailure, validateSessionId } from '@a3s-lab/code-core';
import type { S3LeaseAttempt } from './s3-lease-attempt.js';
import type { S3LeaseRecord } from './s3-lease-record.js';
import type { S3SessionLeasesLike } from './s3-session-leases-like.js';

import { validateBucket } from './s3-bucket.js';
import { getObjectText } from './get-object-text.js';
import { resolveS3Client } from './s3-connection.js';
import type { S3ClientOrConnection } from './s3-connection.js';
import { toS3Failure } from './s3-failure.js';
import { normalizePrefix } from './s3-key.js';

/** Default lifetime of a lease that is not renewed (a crashed holder's lease expires after it). */
export const DEFAULT_S3_LEASE_TTL_MS = 15_000;

interface S3SessionLeasesLocation {
  readonly bucket: string;
  /** Key prefix; lease objects are `<prefix>/leases/<sessionId>.lease`. Default none. */
  readonly prefix?: string;
  /** Lifetime of an unrenewed lease. Default {@link DEFAULT_S3_LEASE_TTL_MS}. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of {@link S3SessionLeases}: an existing client, or the connection settings to build one. */
export type S3SessionLeasesOptions = S3SessionLeasesLocation & S3ClientOrConnection;

/**
 * Per-session leases in an S3 bucket, for hosts that serve sessions from an `S3SessionStore`
 * on several machines (the web host's locking rule: one process runs a session at a time).
 * Every change is a conditional write, so two processes never both win:
 * - acquire: `PUT If-None-Match: *` creates a free lease; a held, unexpired lease is refused
 *   (with its holder); an expired one is taken over with `PUT If-Match: <etag seen expired>`,
 *   which fails for all but one contender;
 * - renew: `PUT If-Match: <etag of this owner's record>`;
 * - release: overwrites this owner's record with an expired one (`If-Match`), never an
 *   unconditional delete that could remove a lease another process took over meanwhile.
 * Clocks of the hosts must agree within a fraction of the ttl (NTP), as with any lease.
 */
export class S3SessionLeases implements S3SessionLeasesLike {
  readonly owner = randomUUID();
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;
  readonly #ownsClient: boolean;
  readonly #timeoutMs: number;
  readonly #secrets: readonly string[];
  readonly #ttlMs: number;
  readonly #now: () => number;
  #endpoint: string | null = null;

  constructor(options: S3SessionLeasesOptions) {
    if (typeof options !== 'object' || options === null) throw new CodeError('CONFIG_ERROR', 'S3SessionLeases needs options', { details: { field: 'options' } });
    this.bucket = validateBucket(options.bucket, 'S3SessionLeases');
    this.prefix = normalizePrefix(options.prefix ?? '');
    const ttl = options.ttlMs ?? DEFAULT_S3_LEASE_TTL_MS;
    if (!Number.isSafeInteger(ttl) || ttl < 100) throw new CodeError('CONFIG_ERROR', 'S3SessionLeases: ttlMs must be an integer >= 100', { details: { field: 'ttlMs' } });
    this.#ttlMs = ttl;
    this.#now = options.now ?? Date.now;
    const handle = resolveS3Client(options, 'S3SessionLeases');
    this.#client = handle.client;
    this.#ownsClient = handle.ownsClient;
    this.#timeoutMs = handle.requestTimeoutMs;
    this.#secrets = handle.secrets;
  }

  /** How often a holder should renew: a third of the lifetime. */
  get renewIntervalMs(): number {
    return Math.max(50, Math.floor(this.#ttlMs / 3));
  }

  /** Names the base URL where this process serves; the leases it takes from then on carry it (`endpoint`). */
  advertise(endpoint: string): void {
    this.#endpoint = endpoint;
  }

  /** Takes the lease of `sessionId` if it is free or expired (not re-entrant). */
  async acquire(sessionId: string): Promise<S3LeaseAttempt> {
    const key = this.#keyOf(sessionId);
    if (await this.#put(key, this.#record(), { IfNoneMatch: '*' })) return { acquired: true };
    const current = await this.#read(key);
    if (current === null) return (await this.#put(key, this.#record(), { IfNoneMatch: '*' })) ? { acquired: true } : this.#heldBy(key);
    if (current.record.expiresAtMs > this.#now()) return { acquired: false, holder: current.record };
    // Expired: replace exactly the generation seen expired; a racing contender's PUT fails.
    if (await this.#put(key, this.#record(), { IfMatch: current.etag })) return { acquired: true };
    return this.#heldBy(key);
  }

  /** Extends a lease this owner holds; false when it was lost (expired and taken over). */
  async renew(sessionId: string): Promise<boolean> {
    const key = this.#keyOf(sessionId);
    const current = await this.#read(key);
    if (current === null || current.record.owner !== this.owner) return false;
    return this.#put(key, this.#record(), { IfMatch: current.etag });
  }

  /** Gives the lease back (no-op when this owner does not hold it). */
  async release(sessionId: string): Promise<void> {
    const key = this.#keyOf(sessionId);
    const current = await this.#read(key);
    if (current === null || current.record.owner !== this.owner) return;
    await this.#put(key, { ...current.record, expiresAtMs: 0 }, { IfMatch: current.etag });
  }

  /** Closes the S3 client this instance built (not one passed in). */
  close(): void {
    if (this.#ownsClient) this.#client.destroy();
  }

  async #heldBy(key: string): Promise<S3LeaseAttempt> {
    const current = await this.#read(key);
    return { acquired: false, holder: current?.record ?? { owner: 'unknown', host: 'unknown', pid: 0, expiresAtMs: this.#now() + this.#ttlMs } };
  }

  /** A conditional PUT: true when written, false when its condition failed (412 / 409). */
  async #put(key: string, record: S3LeaseRecord, condition: { readonly IfNoneMatch: '*' } | { readonly IfMatch: string }): Promise<boolean> {
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: JSON.stringify(record), ContentType: 'application/json', ...condition }));
      return true;
    } catch (error) {
      const failure = toS3Failure(error, { op: 'PutObject', path: key, timeoutMs: this.#timeoutMs, secrets: this.#secrets });
      if (failure.reason === 'Conflict') return false;
      throw failure;
    }
  }

  async #read(key: string): Promise<{ readonly record: S3LeaseRecord; readonly etag: string } | null> {
    const object = await getObjectText(this.#client, this.bucket, key, (error) => toS3Failure(error, { op: 'GetObject', path: key, timeoutMs: this.#timeoutMs, secrets: this.#secrets }));
    if (object === null) return null;
    if (object.etag === undefined) throw new HostFailure('Unavailable', `S3 GetObject ${JSON.stringify(key)} returned no ETag: leases need conditional writes`, { path: key });
    return { record: parseRecord(object.text), etag: object.etag };
  }

  #record(): S3LeaseRecord {
    return { owner: this.owner, host: hostname(), pid: process.pid, expiresAtMs: this.#now() + this.#ttlMs, ...(this.#endpoint === null ? {} : { endpoint: this.#endpoint }) };
  }

  #keyOf(sessionId: string): string {
    const id = validateSessionId(sessionId, `s3://${this.bucket}/${this.prefix}`);
    return `${this.prefix === '' ? '' : `${this.prefix}/`}leases/${encodeURIComponent(id)}.lease`;
  }
}

/** A torn or foreign object is an expired lease of nobody, so it can be taken over. */
function parseRecord(text: string): S3LeaseRecord {
  try {
    const value = JSON.parse(text) as Partial<S3LeaseRecord>;
    if (typeof value.owner === 'string' && typeof value.expiresAtMs === 'number') {
      return { owner: value.owner, host: String(value.host ?? ''), pid: Number(value.pid ?? 0), expiresAtMs: value.expiresAtMs, ...(typeof value.endpoint === 'string' ? { endpoint: value.endpoint } : {}) };
    }
  } catch {
    // fall through
  }
  return { owner: 'corrupt', host: '', pid: 0, expiresAtMs: 0 };
}
