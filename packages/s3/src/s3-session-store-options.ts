import type { S3ConnectionOptions } from './s3-connection-options.js';

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
