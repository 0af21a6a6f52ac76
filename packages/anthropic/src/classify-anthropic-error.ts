import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { AttemptFailure } from '@a3s-lab/code-core';
import { StreamInterruptedError } from '@a3s-lab/code-core';
import { redactSecrets } from '@a3s-lab/code-core';
import { isRetryableStatus, parseRetryAfterMs } from '@a3s-lab/code-core';

// An error event inside an established stream has no HTTP status; its type says what happened.
const STREAM_ERROR_STATUS: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

// Anthropic answers an over-long prompt with a 400 invalid_request_error "prompt is too long: N tokens > M maximum".
const CONTEXT_OVERFLOW = /prompt is too long|too many (input )?tokens|exceeds? the (model'?s? )?context (window|length)|context (window|length) exceeded/i;

function errorType(error: APIError): string | undefined {
  const body = error.error as { error?: { type?: unknown } } | undefined;
  const type = error.type ?? body?.error?.type;
  return typeof type === 'string' ? type : undefined;
}

/** Keeps the original error as `cause` unless its message carries a secret. */
function safeCause(error: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (!(error instanceof Error)) return error;
  const redacted = redactSecrets(error.message, secrets);
  if (redacted === error.message) return error;
  const copy = new Error(redacted);
  copy.name = error.name;
  return copy;
}

/**
 * Classifies whatever one Anthropic attempt threw: HTTP errors by status (and `x-should-retry`,
 * which Anthropic sends to override the default), in-stream `error` events by their type,
 * connection failures and truncated streams as retryable.
 */
export function classifyAnthropicError(error: unknown, secrets: readonly (string | null | undefined)[]): AttemptFailure {
  const cause = safeCause(error, secrets);
  if (error instanceof APIConnectionError) {
    return { message: redactSecrets(`anthropic connection failed: ${error.message}`, secrets), retryable: true, reason: 'network_error', cause };
  }
  if (error instanceof APIError) {
    const type = errorType(error);
    const status = error.status ?? (type === undefined ? undefined : STREAM_ERROR_STATUS[type]);
    const inStream = error.status === undefined;
    const shouldRetry = error.headers?.get('x-should-retry');
    const retryable = !inStream && shouldRetry === 'true' ? true : !inStream && shouldRetry === 'false' ? false : status !== undefined && isRetryableStatus(status);
    const retryAfterMs = inStream ? undefined : parseRetryAfterMs(error.headers);
    const detail = error.apiMessage ?? error.message;
    const label = inStream ? `stream error ${type ?? 'unknown'}` : `HTTP ${error.status}${type === undefined ? '' : ` ${type}`}`;
    const contextOverflow = status === 413 || (status === 400 && CONTEXT_OVERFLOW.test(detail));
    return {
      message: redactSecrets(`anthropic request failed: ${label}: ${detail}`, secrets),
      ...(status === undefined ? {} : { status }),
      ...(contextOverflow ? { contextOverflow } : {}),
      retryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(typeof error.requestID === 'string' ? { requestId: error.requestID } : {}),
      reason: inStream ? `stream_error:${type ?? 'unknown'}` : `http_${error.status}`,
      cause,
    };
  }
  if (error instanceof StreamInterruptedError) {
    return { message: redactSecrets(`anthropic stream interrupted: ${error.message}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
  }
  // Errors from reading the body (socket reset, "terminated", a torn SSE frame) mean the stream broke.
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { message: redactSecrets(`anthropic stream failed: ${text}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
}
