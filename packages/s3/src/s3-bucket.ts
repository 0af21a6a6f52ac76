import { CodeError } from '@a3s-lab/code-core';

const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

/**
 * Checks a bucket name (3-255 letters, digits, `.`, `_`, `-`, starting with a letter or digit:
 * AWS's rules plus what MinIO and R2 accept).
 *
 * @throws CodeError CONFIG_ERROR naming `owner`.
 */
export function validateBucket(bucket: unknown, owner: string): string {
  if (typeof bucket !== 'string' || !BUCKET.test(bucket)) {
    throw new CodeError('CONFIG_ERROR', `${owner}: bucket must be 3-255 letters, digits, '.', '_' or '-', got ${JSON.stringify(String(bucket).slice(0, 100))}`, { details: { field: 'bucket' } });
  }
  return bucket;
}
