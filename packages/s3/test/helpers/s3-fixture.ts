import { randomBytes } from 'node:crypto';

import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

import { ConditionalS3Proxy, S3RVER_ACCESS_KEY_ID, S3RVER_SECRET_ACCESS_KEY, startS3rver } from '@a3s-lab/code-testing/s3';
import type { S3rverProcess } from '@a3s-lab/code-testing/s3';

/** The bucket every fixture creates. */
export const TEST_BUCKET = 'workspace';

/** s3rver plus our enforcing proxy, and a raw client straight to s3rver for checks behind the backend's back. */
export interface S3Fixture {
  readonly server: S3rverProcess;
  readonly proxy: ConditionalS3Proxy;
  /** Connection options through the proxy (what backends under test use). */
  readonly connection: { readonly endpoint: string; readonly region: string; readonly forcePathStyle: true; readonly accessKeyId: string; readonly secretAccessKey: string };
  /** Direct client to s3rver. */
  readonly raw: S3Client;
  /** A fresh key prefix nobody else uses. */
  freshPrefix(label?: string): string;
  /** Every key under `prefix` (direct listing). */
  keysUnder(prefix: string): Promise<string[]>;
  getText(key: string): Promise<string | null>;
  putText(key: string, text: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts s3rver (child process) and the proxy; one per test file (`beforeAll`). */
export async function startS3Fixture(): Promise<S3Fixture> {
  const server = await startS3rver([TEST_BUCKET]);
  const proxy = await ConditionalS3Proxy.start(server.endpoint);
  const raw = new S3Client({ endpoint: server.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  let counter = 0;
  const keysUnder = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await raw.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix, ...(token === undefined ? {} : { ContinuationToken: token }) }));
      keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return keys;
  };
  return {
    server,
    proxy,
    connection: { endpoint: proxy.endpoint, region: 'us-east-1', forcePathStyle: true, accessKeyId: S3RVER_ACCESS_KEY_ID, secretAccessKey: S3RVER_SECRET_ACCESS_KEY },
    raw,
    freshPrefix: (label = 't') => `${label}-${(counter += 1)}-${randomBytes(4).toString('hex')}`,
    keysUnder,
    getText: async (key) => {
      try {
        return (await (await raw.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: key }))).Body?.transformToString('utf8')) ?? '';
      } catch (error) {
        if ((error as { name?: unknown }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    putText: async (key, text) => {
      await raw.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: key, Body: text }));
    },
    removePrefix: async (prefix) => {
      for (const key of await keysUnder(`${prefix}/`)) await raw.send(new DeleteObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
    },
    stop: async () => {
      raw.destroy();
      await proxy.close();
      await server.stop();
    },
  };
}
