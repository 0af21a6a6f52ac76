import { StreamInterruptedError } from './attempt-failure.js';
import type { AttemptFailure } from './attempt-failure.js';
import { redactSecrets } from './redact-secrets.js';

type Secrets = readonly (string | null | undefined)[];

/** Keeps the original error as `cause` unless its message carries a secret (then a redacted copy). */
export function safeCause(error: unknown, secrets: Secrets): unknown {
  if (!(error instanceof Error)) return error;
  const redacted = redactSecrets(error.message, secrets);
  if (redacted === error.message) return error;
  const copy = new Error(redacted);
  copy.name = error.name;
  return copy;
}

/** What a provider read from an API error (an HTTP response, or an error event inside a stream). */
export interface ApiErrorFields {
  /** HTTP status of the response; `undefined` for an in-stream error event. */
  readonly httpStatus: number | undefined;
  /** Status the failure counts as (the HTTP status, or one mapped from an in-stream error type). */
  readonly status: number | undefined;
  /** Provider error type/code, when the body had one. */
  readonly type: string | undefined;
  /** The provider's message. */
  readonly detail: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly requestId: unknown;
  readonly contextOverflow: boolean;
}

/**
 * The {@link AttemptFailure} of an API error, with the same message, reason and detail shape for
 * every provider: `<provider> request failed: HTTP 429 rate_limit_error: ...` or
 * `... stream error overloaded_error: ...`, reason `http_<status>` / `stream_error:<type>`.
 */
export function apiErrorFailure(provider: string, fields: ApiErrorFields, secrets: Secrets, cause: unknown): AttemptFailure {
  const inStream = fields.httpStatus === undefined;
  const type = fields.type;
  const label = inStream ? `stream error ${type ?? 'unknown'}` : `HTTP ${fields.httpStatus}${type === undefined ? '' : ` ${type}`}`;
  return {
    message: redactSecrets(`${provider} request failed: ${label}: ${fields.detail}`, secrets),
    ...(fields.status === undefined ? {} : { status: fields.status }),
    ...(fields.contextOverflow ? { contextOverflow: true } : {}),
    retryable: fields.retryable,
    ...(fields.retryAfterMs === undefined ? {} : { retryAfterMs: fields.retryAfterMs }),
    ...(typeof fields.requestId === 'string' ? { requestId: fields.requestId } : {}),
    reason: inStream ? `stream_error:${type ?? 'unknown'}` : `http_${fields.httpStatus}`,
    cause,
  };
}

/** A connection that could not be made or broke before a response (retryable). */
export function connectionFailure(provider: string, error: Error, secrets: Secrets, cause: unknown): AttemptFailure {
  return { message: redactSecrets(`${provider} connection failed: ${error.message}`, secrets), retryable: true, reason: 'network_error', cause };
}

/**
 * Anything else an attempt threw while reading the body: a stream that ended before its terminal
 * event, a socket reset, "terminated", a torn SSE frame. The stream broke: retryable.
 */
export function brokenStreamFailure(provider: string, error: unknown, secrets: Secrets, cause: unknown): AttemptFailure {
  if (error instanceof StreamInterruptedError) {
    return { message: redactSecrets(`${provider} stream interrupted: ${error.message}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { message: redactSecrets(`${provider} stream failed: ${text}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
}
