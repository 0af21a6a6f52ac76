import { S3Client } from '@aws-sdk/client-s3';
import { CodeError } from '@a3s-lab/code-core';
import type { S3ConnectionOptions } from './s3-connection-options.js';

/** Defaults of {@link S3ConnectionOptions}. */
export const S3_CONNECTION_DEFAULTS = Object.freeze({ retryMode: 'standard', maxAttempts: 3, requestTimeoutMs: 30_000, connectionTimeoutMs: 5_000 } as const);

/** Connection settings after validation. */
export interface ResolvedS3Connection {
  readonly client: S3Client;
  readonly requestTimeoutMs: number;
  /** Credential values scrubbed from every message. */
  readonly secrets: readonly string[];
}

/**
 * Validates connection options and builds the real {@link S3Client}: the SDK's retry mode and
 * attempts, request/connection timeouts on its Node HTTP handler, and checksums only where an
 * operation requires them (MinIO, R2 and older servers reject the SDK's default trailers).
 *
 * @throws CodeError CONFIG_ERROR naming the field; never echoing a credential.
 */
export function createS3Connection(options: S3ConnectionOptions, owner: string): ResolvedS3Connection {
  const fail = (field: string, what: string): never => {
    throw new CodeError('CONFIG_ERROR', `${owner}: ${field} ${what}`, { details: { field } });
  };
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object');
  if (typeof options.region !== 'string' || options.region.length === 0) fail('region', 'must be a non-empty string');
  if (options.endpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.endpoint);
    } catch {
      fail('endpoint', 'must be an http(s) URL');
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail('endpoint', 'must be an http(s) URL');
    if (url !== undefined && (url.username !== '' || url.password !== '')) fail('endpoint', 'must not carry credentials: use accessKeyId / secretAccessKey');
  }
  const hasId = options.accessKeyId !== undefined;
  const hasSecret = options.secretAccessKey !== undefined;
  if (hasId !== hasSecret) fail(hasId ? 'secretAccessKey' : 'accessKeyId', 'is required with the other static credential');
  for (const field of ['accessKeyId', 'secretAccessKey', 'sessionToken'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0)) fail(field, 'must be a non-empty string');
  }
  if (options.sessionToken !== undefined && !hasId) fail('sessionToken', 'needs accessKeyId and secretAccessKey');
  if (options.forcePathStyle !== undefined && typeof options.forcePathStyle !== 'boolean') fail('forcePathStyle', 'must be a boolean');
  const retryMode = options.retryMode ?? S3_CONNECTION_DEFAULTS.retryMode;
  if (retryMode !== 'standard' && retryMode !== 'adaptive') fail('retryMode', "must be 'standard' or 'adaptive'");
  const positive = (field: 'maxAttempts' | 'requestTimeoutMs' | 'connectionTimeoutMs', fallback: number): number => {
    const value = options[field] ?? fallback;
    if (!Number.isSafeInteger(value) || value < 1) fail(field, 'must be a positive integer');
    return value;
  };
  const maxAttempts = positive('maxAttempts', S3_CONNECTION_DEFAULTS.maxAttempts);
  const requestTimeoutMs = positive('requestTimeoutMs', S3_CONNECTION_DEFAULTS.requestTimeoutMs);
  const connectionTimeoutMs = positive('connectionTimeoutMs', S3_CONNECTION_DEFAULTS.connectionTimeoutMs);
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.accessKeyId !== undefined && options.secretAccessKey !== undefined
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, ...(options.sessionToken === undefined ? {} : { sessionToken: options.sessionToken }) } }
      : {}),
    retryMode,
    maxAttempts,
    requestHandler: { requestTimeout: requestTimeoutMs, connectionTimeout: connectionTimeoutMs, throwOnRequestTimeout: true },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const secrets = [options.secretAccessKey, options.sessionToken, options.accessKeyId].filter((value): value is string => typeof value === 'string');
  return { client, requestTimeoutMs, secrets };
}

/** Options that give either an existing client or the settings to build one. */
export type S3ClientOrConnection = { readonly client: S3Client } | (S3ConnectionOptions & { readonly client?: undefined });

/** The client an S3 component talks through, and whether it built (and so must destroy) it. */
export interface S3ClientHandle extends ResolvedS3Connection {
  readonly ownsClient: boolean;
}

/**
 * An S3 component's client: the one passed in (checked to be an `S3Client`; default timeout, no
 * secrets to scrub since none were given) or one built by {@link createS3Connection}.
 *
 * @throws CodeError CONFIG_ERROR naming the field.
 */
export function resolveS3Client(options: S3ClientOrConnection, owner: string): S3ClientHandle {
  if (options.client !== undefined) {
    if (!(options.client instanceof S3Client)) throw new CodeError('CONFIG_ERROR', `${owner}: client must be an S3Client of @aws-sdk/client-s3`, { details: { field: 'client' } });
    return { client: options.client, ownsClient: false, requestTimeoutMs: S3_CONNECTION_DEFAULTS.requestTimeoutMs, secrets: [] };
  }
  return { ...createS3Connection(options, owner), ownsClient: true };
}
