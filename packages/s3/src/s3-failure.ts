import { HostFailure } from '@a3s-lab/code-core';
import type { HostFailureReason, ToolErrorKind } from '@a3s-lab/code-core';

/** What {@link toS3Failure} needs to know about the call that failed. */
export interface S3FailureContext {
  /** Operation name (`GetObject`, `PutObject`...). */
  readonly op: string;
  /** Workspace-relative path or store key the call concerned. */
  readonly path?: string;
  /** The request timeout in force (reported as the `timeout` duration). */
  readonly timeoutMs: number;
  /** Values never to appear in a message (secret access key, session token, access key id). */
  readonly secrets: readonly string[];
  /** Extra details (e.g. `expected` / `actual` versions of a conflict). */
  readonly details?: Readonly<Record<string, unknown>>;
}

const THROTTLING = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'TooManyRequests', 'TooManyRequestsException', 'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException']);
const TIMEOUTS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ETIMEDOUT']);
const NOT_FOUND = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);
const CONFLICT = new Set(['PreconditionFailed', 'ConditionalRequestConflict']);
const DENIED = new Set(['AccessDenied', 'Forbidden', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken']);

/**
 * Turns an error of the AWS SDK into a {@link HostFailure} with a normalised reason and, for
 * transient failures, the tool error kind hosts branch on: throttling (503 SlowDown, 429) is
 * `rate_limited`, a request timeout is `timeout`, 5xx and dropped connections are `transport`;
 * 412 / 409 conditional failures are `Conflict` (the tools report `version_conflict`).
 *
 * The SDK's error is NOT attached as `cause`: it holds the signed request (the access key id in
 * `Authorization`). Only its name, HTTP status and attempt count are kept, and every configured
 * secret is scrubbed from the message.
 */
export function toS3Failure(error: unknown, context: S3FailureContext): HostFailure {
  if (HostFailure.isHostFailure(error)) return error;
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const metadata = (typeof record['$metadata'] === 'object' && record['$metadata'] !== null ? record['$metadata'] : {}) as { httpStatusCode?: unknown; attempts?: unknown };
  const status = typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
  const name = [record['Code'], record['code'], record['name']].find((value): value is string => typeof value === 'string' && value !== 'Error') ?? 'Error';
  const raw = error instanceof Error ? error.message : String(error);
  const attempts = typeof metadata.attempts === 'number' ? metadata.attempts : undefined;
  const where = context.path === undefined ? '' : ` ${JSON.stringify(context.path)}`;
  const message = scrub(`S3 ${context.op}${where} failed: ${name}${status === undefined ? '' : ` (HTTP ${status})`}${raw !== '' && raw !== name ? `: ${raw.slice(0, 300)}` : ''}`, context.secrets);
  const base = { s3Code: name, ...(status === undefined ? {} : { httpStatus: status }), ...(attempts === undefined ? {} : { attempts }), ...context.details };
  const make = (reason: HostFailureReason, kind?: ToolErrorKind): HostFailure =>
    new HostFailure(reason, message, { ...(context.path === undefined ? {} : { path: context.path }), details: { ...base, ...(kind === undefined ? {} : { errorKind: kind }) } });

  if (CONFLICT.has(name) || status === 412) return make('Conflict');
  if (NOT_FOUND.has(name) || status === 404) return make('NotFound');
  if (DENIED.has(name) || status === 403) return make('PermissionDenied', { type: 'permission_denied', reason: message });
  if (THROTTLING.has(name) || status === 503 || status === 429) return make('Unavailable', { type: 'rate_limited' });
  if (TIMEOUTS.has(name) || status === 408) return make('Unavailable', { type: 'timeout', op: `s3:${context.op}`, duration_ms: context.timeoutMs });
  return make('Unavailable', { type: 'transport', op: `s3:${context.op}`, message: scrub(`${name}${status === undefined ? '' : ` (HTTP ${status})`}`, context.secrets) });
}

/** Replaces every secret (of 4+ characters) in `text` with `[REDACTED]`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  return out;
}
