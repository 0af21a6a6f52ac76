// The S3 option and lease types as @a3s-lab/code declares them: its own copies, so that its
// published typings never name the optional @a3s-lab/code-s3 or the AWS SDK (the package owns them;
// see docs/architecture/README.md section 6). src/index.test.ts fails the
// typecheck when a copy and the package's type stop being assignable to each other.

/**
 * How to reach an S3-compatible endpoint; shared by the workspace backend and the session store
 * of `@a3s-lab/code-s3`. Plain data (no AWS SDK types).
 */
export interface S3ConnectionOptions {
  /** Endpoint URL (`https://minio.local:9000`); omit for AWS S3. */
  readonly endpoint?: string;
  readonly region: string;
  /** Static credentials; omit both to use the AWS SDK's default provider chain (environment, profile, IMDS...). */
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
  /** Path-style URLs (`endpoint/bucket/key`): true for MinIO, RustFS, R2. Default false. */
  readonly forcePathStyle?: boolean;
  /** The SDK's retry mode. Default `standard`. */
  readonly retryMode?: 'standard' | 'adaptive';
  /** Attempts per request including the first (the SDK retries 5xx, throttling, timeouts). Default 3. */
  readonly maxAttempts?: number;
  /** Deadline of one attempt once connected, in ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** Deadline of connecting, in ms. Default 5000. */
  readonly connectionTimeoutMs?: number;
}

/**
 * What an S3 session lease object holds (the same record as the server's file leases).
 */
export interface S3LeaseRecord {
  /** Id of the holding process (random per `S3SessionLeases` instance). */
  readonly owner: string;
  /** Host name and pid of the holder, for operators. */
  readonly host: string;
  readonly pid: number;
  /** Wall-clock time after which any process may take the lease over. */
  readonly expiresAtMs: number;
  /** Base URL where the holder serves its API (the web host advertises it), when it named one. */
  readonly endpoint?: string;
}

/** Outcome of acquiring an S3 session lease: taken, or refused with the current holder. */
export type S3LeaseAttempt = { readonly acquired: true } | { readonly acquired: false; readonly holder: S3LeaseRecord };

/**
 * The public members of `S3SessionLeases` of `@a3s-lab/code-s3` (which implements this), typed
 * structurally: what `S3SessionStore.sessionLeases()` of `@a3s-lab/code` resolves with, so that
 * `@a3s-lab/code`'s typings need neither the optional S3 package nor the AWS SDK.
 */
export interface S3SessionLeasesLike {
  /** Id of this process as it appears in a lease record's `owner`. */
  readonly owner: string;
  readonly bucket: string;
  /** Normalised key prefix; lease objects are `<prefix>/leases/<sessionId>.lease`. */
  readonly prefix: string;
  /** How often a holder should renew: a third of the lifetime. */
  readonly renewIntervalMs: number;
  /** Takes the lease of `sessionId` if it is free or expired (not re-entrant). */
  acquire(sessionId: string): Promise<S3LeaseAttempt>;
  /** Extends a lease this owner holds; false when it was lost (expired and taken over). */
  renew(sessionId: string): Promise<boolean>;
  /** Gives the lease back (no-op when this owner does not hold it). */
  release(sessionId: string): Promise<void>;
  /** Names the base URL where this process serves (written into the leases it takes from then on). */
  advertise?(endpoint: string): void;
  /** Closes the S3 client the leases built (not one passed in). */
  close(): void;
}

/**
 * Options of an S3 session store built from connection settings (`S3SessionStore` of
 * `@a3s-lab/code`, and of `@a3s-lab/code-s3`, whose own options also accept an existing AWS SDK
 * `S3Client` instead). Plain data (no AWS SDK types).
 */
export interface S3SessionStoreOptions extends S3ConnectionOptions {
  readonly bucket: string;
  /** Key prefix of the documents (`<prefix>/<sessionId>.json`). Default none. */
  readonly prefix?: string;
  /** No client: the store builds one from the connection settings. */
  readonly client?: undefined;
}

/**
 * Options of the S3 workspace backend (`S3WorkspaceBackend` of `@a3s-lab/code-s3`, and its
 * lazily loading wrapper in `@a3s-lab/code`). Plain data (no AWS SDK types).
 */
export interface S3WorkspaceBackendOptions extends S3ConnectionOptions {
  readonly bucket: string;
  /** Key prefix every workspace path lives under (`users/u1/sessions/s1`). Default none. */
  readonly prefix?: string;
  /** Largest object `readFile` loads whole (ranged reads are not limited). Default 32 MiB. */
  readonly maxReadBytes?: number;
  /** Serve `grep` and `glob` by scanning objects within the limits below. Default false. */
  readonly searchEnabled?: boolean;
  /** Objects one glob/grep may list. Default 10000. */
  readonly maxObjectsScanned?: number;
  /** Bytes of each object grep reads (from its start). Default 1 MiB. */
  readonly maxGrepBytesPerObject?: number;
  /** Objects grep fetches in parallel. Default 8. */
  readonly searchConcurrency?: number;
}
