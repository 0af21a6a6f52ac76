import { randomBytes } from 'node:crypto';

import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { CodeError, HostFailure } from '@a3s-lab/code-core';
import { abortError, throwIfAborted } from '@a3s-lab/code-core/util';
import type {
  BackendCallOptions,
  ByteRange,
  GlobOptions,
  Page,
  SearchOptions,
  SearchResult,
  WorkspaceBackend,
  WorkspaceCapabilities,
  WorkspaceEntry,
  WorkspaceFile,
  WorkspaceStat,
  WriteFileOptions,
} from '@a3s-lab/code-core';
import type { S3WorkspaceBackendOptions } from './s3-workspace-backend-options.js';

import { createS3Connection } from './s3-connection.js';
import { toS3Failure } from './s3-failure.js';
import { confineKey, directoryPrefix, normalizePrefix, relativeOf } from './s3-key.js';
import type { ConfinedKey } from './s3-key.js';
import { globObjects, searchObjects } from './s3-object-search.js';
import type { ObjectListing, ObjectSearchLimits, ObjectSource, ScannedObject } from './s3-object-search.js';
import { decodeListCursor, encodeListCursor } from './s3-list-cursor.js';
import { validateBucket } from './s3-bucket.js';

/** Defaults of {@link S3WorkspaceBackendOptions}. */
export const S3_WORKSPACE_DEFAULTS = Object.freeze({ maxReadBytes: 32 * 1024 * 1024, maxObjectsScanned: 10_000, maxGrepBytesPerObject: 1024 * 1024, searchConcurrency: 8 });

/** Sorts after every key below a directory (U+10FFFF is the last code point): a skip-scan resumes past them. */
const PAST_EVERY_CHILD = '\u{10FFFF}';

/** User metadata holding a per-write nonce, so every write gets a new version even with the same bytes. */
const REVISION = 'a3s-rev';

/**
 * A workspace in an S3 bucket (AWS S3, MinIO, RustFS, R2, B2...) on the real
 * `@aws-sdk/client-s3`. Capabilities: read, write (edit, patch), list; no exec or git, and
 * search (`grep`, `glob`) only with `searchEnabled`, scanning objects within its limits.
 *
 * Every path goes through one confinement function (`confineKey`): keys stay under `prefix`.
 * A version is the object's ETag plus a per-write nonce; a write with `expectedVersion` is a
 * compare-and-swap (`If-Match` on the ETag, `If-None-Match: *` for a create): a concurrent
 * writer makes it fail with a `Conflict` HostFailure (the tools' `version_conflict`) and
 * nothing is written. Plain writes are last-writer-wins. 5xx, throttling, timeouts and dropped
 * connections are retried by the SDK, then thrown as `Unavailable` failures carrying a
 * `transport` / `rate_limited` / `timeout` error kind; credentials never appear in them.
 *
 * @example
 * const backend = new S3WorkspaceBackend({ region: 'us-east-1', bucket: 'workspace', prefix: 'users/u1', accessKeyId, secretAccessKey });
 * await backend.writeFile({ path: 'notes/hello.txt', content: 'one\n' });
 */
export class S3WorkspaceBackend implements WorkspaceBackend {
  readonly kind = 's3';
  readonly root: string;
  readonly capabilities: WorkspaceCapabilities;
  readonly bucket: string;
  /** Normalised key prefix (`''` for the whole bucket). */
  readonly prefix: string;
  /** Present when `searchEnabled`. */
  readonly glob?: (options: GlobOptions) => Promise<Page<string>>;
  /** Present when `searchEnabled`. */
  readonly search?: (options: SearchOptions) => Promise<SearchResult>;
  readonly #client: S3Client;
  readonly #timeoutMs: number;
  readonly #secrets: readonly string[];
  readonly #maxReadBytes: number;
  readonly #limits: ObjectSearchLimits;

  constructor(options: S3WorkspaceBackendOptions) {
    const connection = createS3Connection(options, 'S3WorkspaceBackend');
    this.bucket = validateBucket(options.bucket, 'S3WorkspaceBackend');
    this.prefix = normalizePrefix(options.prefix ?? '');
    this.root = `s3://${this.bucket}/${this.prefix}`;
    this.#client = connection.client;
    this.#timeoutMs = connection.requestTimeoutMs;
    this.#secrets = connection.secrets;
    const positive = (field: keyof typeof S3_WORKSPACE_DEFAULTS): number => {
      const value = options[field] ?? S3_WORKSPACE_DEFAULTS[field];
      if (!Number.isSafeInteger(value) || value < 1) throw new CodeError('CONFIG_ERROR', `S3WorkspaceBackend: ${field} must be a positive integer`, { details: { field } });
      return value;
    };
    this.#maxReadBytes = positive('maxReadBytes');
    this.#limits = { maxObjectsScanned: positive('maxObjectsScanned'), maxGrepBytesPerObject: positive('maxGrepBytesPerObject'), searchConcurrency: positive('searchConcurrency') };
    if (options.searchEnabled !== undefined && typeof options.searchEnabled !== 'boolean') {
      throw new CodeError('CONFIG_ERROR', 'S3WorkspaceBackend: searchEnabled must be a boolean', { details: { field: 'searchEnabled' } });
    }
    const search = options.searchEnabled === true;
    this.capabilities = Object.freeze({ read: true, write: true, list: true, search, exec: false, git: false, versionedWrites: true });
    if (search) {
      this.glob = (globOptions) => this.#glob(globOptions);
      this.search = (searchOptions) => this.#search(searchOptions);
    }
  }

  async resolvePath(options: BackendCallOptions & { readonly path: string; readonly forWrite?: boolean }): Promise<string> {
    return this.#confine(options.path, options.abortSignal).relative;
  }

  async readFile(options: BackendCallOptions & { readonly path: string; readonly range?: ByteRange }): Promise<WorkspaceFile | null> {
    const target = this.#confine(options.path, options.abortSignal);
    if (target.relative === '.') throw isDirectory(target.relative);
    const range = options.range;
    if (range !== undefined && (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.length) || range.start < 0 || range.length < 0)) {
      const message = 'range start and length must be non-negative integers';
      throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
    }
    const start = range?.start ?? 0;
    // A whole read asks for one byte more than the limit: a larger object is refused, not loaded.
    const length = range?.length ?? this.#maxReadBytes + 1;
    if (length === 0) {
      const stat = await this.#head(target, options.abortSignal);
      return stat === null ? null : { path: target.relative, content: new Uint8Array(0), version: stat.version, size: stat.size };
    }
    const got = await this.#get(target, `bytes=${start}-${start + length - 1}`, options.abortSignal);
    if (got === null) return null;
    if (range === undefined && got.size > this.#maxReadBytes) {
      throw new HostFailure('Unavailable', `file too large to load whole (${got.size} bytes, maxReadBytes ${this.#maxReadBytes}): ${target.relative}`, {
        path: target.relative,
        details: { hostCode: 'EFBIG', size: got.size, limit: this.#maxReadBytes },
      });
    }
    return { path: target.relative, content: got.content, version: got.version, size: got.size };
  }

  async stat(options: BackendCallOptions & { readonly path: string }): Promise<WorkspaceStat | null> {
    const target = this.#confine(options.path, options.abortSignal);
    if (target.relative === '.') return { path: '.', type: 'directory', size: 0, modifiedMs: 0, version: '' };
    const head = await this.#head(target, options.abortSignal);
    if (head !== null) return { path: target.relative, type: 'file', size: head.size, modifiedMs: head.modifiedMs, version: head.version };
    const children = await this.#listPage(directoryPrefix(target.key), 1, undefined, target.relative, options.abortSignal);
    return (children.Contents?.length ?? 0) > 0 ? { path: target.relative, type: 'directory', size: 0, modifiedMs: 0, version: '' } : null;
  }

  async writeFile(options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }> {
    const target = this.#confine(options.path, options.abortSignal);
    if (target.relative === '.') throw isDirectory(target.relative);
    const body = typeof options.content === 'string' ? new TextEncoder().encode(options.content) : options.content;
    const expected = options.expectedVersion;
    let ifMatch: string | undefined;
    if (typeof expected === 'string') ifMatch = await this.#checkVersion(target, expected, options.abortSignal);
    const revision = randomBytes(9).toString('base64url');
    const input = {
      Bucket: this.bucket,
      Key: target.key,
      Body: body,
      ContentLength: body.byteLength,
      Metadata: { [REVISION]: revision },
      ...(ifMatch === undefined ? {} : { IfMatch: ifMatch }),
      ...(expected === null ? { IfNoneMatch: '*' } : {}),
    };
    const output = await this.#call('PutObject', target.relative, options.abortSignal, (signal) => this.#client.send(new PutObjectCommand(input), signal), { expected: expected ?? null });
    return { path: target.relative, version: versionOf(output.ETag, revision) };
  }

  async deleteFile(options: BackendCallOptions & { readonly path: string; readonly expectedVersion?: string }): Promise<boolean> {
    const target = this.#confine(options.path, options.abortSignal);
    if (target.relative === '.') throw isDirectory(target.relative);
    const current = await this.#head(target, options.abortSignal);
    if (current === null) return false;
    const ifMatch = options.expectedVersion === undefined ? undefined : await this.#checkVersion(target, options.expectedVersion, options.abortSignal, current.version);
    const input = { Bucket: this.bucket, Key: target.key, ...(ifMatch === undefined ? {} : { IfMatch: ifMatch }) };
    await this.#call('DeleteObject', target.relative, options.abortSignal, (signal) => this.#client.send(new DeleteObjectCommand(input), signal), { expected: options.expectedVersion ?? null });
    return true;
  }

  async list(options: BackendCallOptions & { readonly path: string; readonly limit: number; readonly cursor?: string }): Promise<Page<WorkspaceEntry> | null> {
    const target = this.#confine(options.path, options.abortSignal);
    if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
      const message = `limit must be a positive integer, got ${String(options.limit)}`;
      throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
    }
    const prefix = directoryPrefix(target.key);
    const after = decodeListCursor(options.cursor, prefix);
    const entries: WorkspaceEntry[] = [];
    // Skip-scan without a delimiter (delimiter listings differ between S3-compatible servers):
    // a key below a sub-directory yields that directory once, and the next request starts after
    // everything under it. One more entry than the page proves there is a next page.
    let startAfter = after;
    let resume: string | undefined;
    let more = false;
    scan: for (;;) {
      const page = await this.#listPage(prefix, Math.min(1000, options.limit + 1 - entries.length), startAfter, target.relative, options.abortSignal);
      const keys = page.Contents ?? [];
      for (const object of keys) {
        const key = object.Key ?? '';
        const rest = key.slice(prefix.length);
        const slash = rest.indexOf('/');
        const name = slash === -1 ? rest : rest.slice(0, slash);
        if (!isSegment(name)) continue;
        const skipKey = slash === -1 ? key : `${prefix}${name}/${PAST_EVERY_CHILD}`;
        if (startAfter !== undefined && skipKey <= startAfter) continue;
        if (entries.length === options.limit) {
          more = true;
          break scan;
        }
        entries.push({ name, path: joinPath(target.relative, name), type: slash === -1 ? 'file' : 'directory', size: slash === -1 ? (object.Size ?? 0) : 0 });
        resume = skipKey;
        startAfter = skipKey;
      }
      const last = keys[keys.length - 1]?.Key;
      if (page.IsTruncated !== true || last === undefined) break;
      if (startAfter === undefined || last > startAfter) startAfter = last;
    }
    if (entries.length === 0 && after === undefined && target.relative !== '.') {
      if ((await this.#head(target, options.abortSignal)) !== null) throw new HostFailure('Conflict', `not a directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOTDIR' } });
      return null;
    }
    return { items: entries, nextCursor: more && resume !== undefined ? encodeListCursor(resume, prefix) : null };
  }

  /** Releases the client's sockets. Idempotent. */
  async close(): Promise<void> {
    this.#client.destroy();
  }

  async #glob(options: GlobOptions): Promise<Page<string>> {
    const directory = this.#confine(options.path ?? '.', options.abortSignal);
    return globObjects(this.#objectSource(), directory.relative, options, this.#limits);
  }

  async #search(options: SearchOptions): Promise<SearchResult> {
    const target = this.#confine(options.path ?? '.', options.abortSignal);
    const source = this.#objectSource();
    if (target.relative !== '.') {
      const head = await this.#head(target, options.abortSignal);
      if (head !== null) return searchObjects(source, { kind: 'file', object: { relative: target.relative, size: head.size, modifiedMs: head.modifiedMs } }, options, this.#limits);
      if ((await this.stat(options.abortSignal === undefined ? { path: target.relative } : { path: target.relative, abortSignal: options.abortSignal })) === null) {
        throw new HostFailure('NotFound', `no such file or directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOENT' } });
      }
    }
    return searchObjects(source, { kind: 'directory', directory: target.relative }, options, this.#limits);
  }

  #objectSource(): ObjectSource {
    return {
      list: (directory, signal) => this.#listAll(directory, signal),
      head: async (relative, bytes, signal) => {
        const target = this.#confine(relative, signal);
        return (await this.#get(target, `bytes=0-${bytes - 1}`, signal))?.content ?? new Uint8Array(0);
      },
    };
  }

  /** Every object under a directory in key order, at most `maxObjectsScanned` (paging through the listing). */
  async #listAll(directory: string, signal: AbortSignal | undefined): Promise<ObjectListing> {
    const target = this.#confine(directory, signal);
    const prefix = directoryPrefix(target.key);
    const objects: ScannedObject[] = [];
    let token: string | undefined;
    do {
      const room = this.#limits.maxObjectsScanned - objects.length;
      const page = await this.#listPage(prefix, Math.min(1000, room + 1), undefined, target.relative, signal, token);
      for (const object of page.Contents ?? []) {
        const relative = relativeOf(this.prefix, object.Key ?? '');
        if (!relative.split('/').every(isSegment)) continue;
        if (objects.length >= this.#limits.maxObjectsScanned) return { objects, truncated: true };
        objects.push({ relative, size: object.Size ?? 0, modifiedMs: object.LastModified?.getTime() ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return { objects, truncated: false };
  }

  /** One page of keys under `prefix` (no delimiter), after `startAfter` or from a continuation `token`. */
  #listPage(prefix: string, maxKeys: number, startAfter: string | undefined, path: string, signal: AbortSignal | undefined, token?: string) {
    const input = { Bucket: this.bucket, Prefix: prefix, MaxKeys: maxKeys, ...(startAfter === undefined ? {} : { StartAfter: startAfter }), ...(token === undefined ? {} : { ContinuationToken: token }) };
    return this.#call('ListObjectsV2', path, signal, (options) => this.#client.send(new ListObjectsV2Command(input), options));
  }

  /** HEAD of an object: `null` when absent. */
  async #head(target: ConfinedKey, signal: AbortSignal | undefined): Promise<{ size: number; modifiedMs: number; version: string } | null> {
    try {
      const output = await this.#call('HeadObject', target.relative, signal, (options) => this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: target.key }), options));
      return { size: output.ContentLength ?? 0, modifiedMs: output.LastModified?.getTime() ?? 0, version: versionOf(output.ETag, output.Metadata?.[REVISION]) };
    } catch (error) {
      if (HostFailure.isHostFailure(error) && error.reason === 'NotFound') return null;
      throw error;
    }
  }

  /** A ranged GET: `null` when absent; a range past the end gives empty content. */
  async #get(target: ConfinedKey, range: string, signal: AbortSignal | undefined): Promise<{ content: Uint8Array; size: number; version: string } | null> {
    try {
      return await this.#call('GetObject', target.relative, signal, async (options) => {
        const output = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key: target.key, Range: range }), options);
        const content = (await output.Body?.transformToByteArray()) ?? new Uint8Array(0);
        const total = /\/(\d+)$/.exec(output.ContentRange ?? '')?.[1];
        return { content, size: total === undefined ? content.byteLength : Number(total), version: versionOf(output.ETag, output.Metadata?.[REVISION]) };
      });
    } catch (error) {
      if (HostFailure.isHostFailure(error) && error.reason === 'NotFound') return null;
      if (HostFailure.isHostFailure(error) && (error.details['s3Code'] === 'InvalidRange' || error.details['httpStatus'] === 416)) {
        const head = await this.#head(target, signal);
        return head === null ? null : { content: new Uint8Array(0), size: head.size, version: head.version };
      }
      throw error;
    }
  }

  /**
   * Checks `expected` against the object's current version (`current` when already known) and
   * returns the ETag to send as `If-Match`; a mismatch or a missing object is a Conflict.
   */
  async #checkVersion(target: ConfinedKey, expected: string, signal: AbortSignal | undefined, current?: string): Promise<string> {
    const actual = current ?? (await this.#head(target, signal))?.version ?? null;
    if (actual !== expected) {
      throw new HostFailure('Conflict', `${target.relative} changed: expected version ${expected}, found ${actual ?? 'no file'}`, { path: target.relative, details: { expected, actual } });
    }
    return `"${expected.split(':')[0] ?? ''}"`;
  }

  /** Runs one SDK call: abort first, then typed failures (never the SDK's raw error). */
  async #call<T>(op: string, path: string, signal: AbortSignal | undefined, run: (options: { abortSignal?: AbortSignal }) => Promise<T>, details?: Record<string, unknown>): Promise<T> {
    throwIfAborted(signal);
    try {
      return await run(signal === undefined ? {} : { abortSignal: signal });
    } catch (error) {
      if (signal?.aborted === true) throw abortError(signal);
      throw toS3Failure(error, { op, path, timeoutMs: this.#timeoutMs, secrets: this.#secrets, ...(details === undefined ? {} : { details }) });
    }
  }

  #confine(path: string, signal: AbortSignal | undefined): ConfinedKey {
    throwIfAborted(signal);
    return confineKey(this.prefix, path, this.root);
  }
}

/** A version token: the ETag (quotes dropped) and, when the object has one, its write nonce. */
function versionOf(etag: string | undefined, revision: string | undefined): string {
  const tag = (etag ?? '').replace(/^W\//, '').replace(/"/g, '');
  return revision === undefined || revision === '' ? tag : `${tag}:${revision}`;
}

function isSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/');
}

function joinPath(directory: string, name: string): string {
  return directory === '.' ? name : `${directory}/${name}`;
}

function isDirectory(path: string): HostFailure {
  return new HostFailure('Conflict', `${path} is a directory`, { path, details: { hostCode: 'EISDIR' } });
}

