import type { S3ConnectionOptions } from './s3-connection-options.js';

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
