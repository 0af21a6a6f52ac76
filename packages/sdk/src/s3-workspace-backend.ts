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
import type { S3WorkspaceBackendOptions } from './s3-types.js';

import { assertS3Installed, loadS3 } from './load-s3.js';

const credentials = new WeakMap<object, readonly string[]>();

/**
 * Credential values of an S3 backend or store made by this package (for the session's redaction).
 * Empty for anything else.
 */
export function s3CredentialValues(value: unknown): readonly string[] {
  return typeof value === 'object' && value !== null ? (credentials.get(value) ?? []) : [];
}

/** Records the credential values of `owner` (see {@link s3CredentialValues}). */
export function rememberS3Credentials(owner: object, options: { readonly accessKeyId?: unknown; readonly secretAccessKey?: unknown; readonly sessionToken?: unknown }): void {
  credentials.set(owner, [options.secretAccessKey, options.sessionToken, options.accessKeyId].filter((value): value is string => typeof value === 'string' && value.length > 0));
}

/** The display root of an S3 location: `s3://bucket/prefix` (prefix without surrounding slashes). */
export function s3Root(bucket: unknown, prefix: unknown): string {
  return `s3://${String(bucket)}/${typeof prefix === 'string' ? prefix.replace(/^\/+/, '').replace(/\/+$/, '') : ''}`;
}

/**
 * `S3WorkspaceBackend` of `@a3s-lab/code`: the S3 workspace backend of `@a3s-lab/code-s3`,
 * constructed synchronously as in the spec sample while the package (and the AWS SDK) is
 * loaded on its first call. The constructor fails at once with a CONFIG_ERROR naming the package
 * when it is not installed; options are validated on the first call (CONFIG_ERROR naming the
 * field).
 *
 * @example
 * const session = agent.session('s3://workspace/users/u1', {
 *   workspaceBackend: new S3WorkspaceBackend({ region: 'us-east-1', bucket: 'workspace', prefix: 'users/u1', accessKeyId, secretAccessKey, forcePathStyle: true }),
 * });
 */
export class S3WorkspaceBackend implements WorkspaceBackend {
  readonly kind = 's3';
  readonly root: string;
  readonly capabilities: WorkspaceCapabilities;
  /** Present when `searchEnabled`. */
  readonly glob?: (options: GlobOptions) => Promise<Page<string>>;
  /** Present when `searchEnabled`. */
  readonly search?: (options: SearchOptions) => Promise<SearchResult>;
  readonly #options: S3WorkspaceBackendOptions;
  #backend: Promise<WorkspaceBackend> | undefined;
  #closed = false;

  constructor(options: S3WorkspaceBackendOptions) {
    assertS3Installed();
    this.#options = { ...options };
    this.root = s3Root(options.bucket, options.prefix);
    const search = options.searchEnabled === true;
    this.capabilities = Object.freeze({ read: true, write: true, list: true, search, exec: false, git: false, versionedWrites: true });
    rememberS3Credentials(this, options);
    if (search) {
      this.glob = async (globOptions) => {
        const inner = await this.#inner();
        if (inner.glob === undefined) throw new Error('the S3 backend has no glob');
        return inner.glob(globOptions);
      };
      this.search = async (searchOptions) => {
        const inner = await this.#inner();
        if (inner.search === undefined) throw new Error('the S3 backend has no search');
        return inner.search(searchOptions);
      };
    }
  }

  async resolvePath(options: BackendCallOptions & { readonly path: string; readonly forWrite?: boolean }): Promise<string> {
    return (await this.#inner()).resolvePath(options);
  }

  async readFile(options: BackendCallOptions & { readonly path: string; readonly range?: ByteRange }): Promise<WorkspaceFile | null> {
    return (await this.#inner()).readFile(options);
  }

  async stat(options: BackendCallOptions & { readonly path: string }): Promise<WorkspaceStat | null> {
    return (await this.#inner()).stat(options);
  }

  async writeFile(options: WriteFileOptions): Promise<{ readonly path: string; readonly version: string }> {
    const inner = await this.#inner();
    if (inner.writeFile === undefined) throw new Error('the S3 backend has no writeFile');
    return inner.writeFile(options);
  }

  async deleteFile(options: BackendCallOptions & { readonly path: string; readonly expectedVersion?: string }): Promise<boolean> {
    const inner = await this.#inner();
    if (inner.deleteFile === undefined) throw new Error('the S3 backend has no deleteFile');
    return inner.deleteFile(options);
  }

  async list(options: BackendCallOptions & { readonly path: string; readonly limit: number; readonly cursor?: string }): Promise<Page<WorkspaceEntry> | null> {
    const inner = await this.#inner();
    if (inner.list === undefined) throw new Error('the S3 backend has no list');
    return inner.list(options);
  }

  /** Releases the client's sockets (nothing to do when the backend never ran). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const backend = this.#backend;
    if (backend === undefined) return;
    await (await backend.catch(() => null))?.close?.();
  }

  #inner(): Promise<WorkspaceBackend> {
    if (this.#backend === undefined) {
      this.#backend = loadS3().then((module) => new module.S3WorkspaceBackend(this.#options));
    }
    if (this.#closed) void this.#backend.then((backend) => backend.close?.(), () => undefined);
    return this.#backend;
  }
}
