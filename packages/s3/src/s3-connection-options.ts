/**
 * How to reach an S3-compatible endpoint; shared by the workspace backend and the session store
 * of this package. Plain data (no AWS SDK types): `@a3s-lab/code` declares its own copy, so its
 * typings name neither this optional package nor the AWS SDK.
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
