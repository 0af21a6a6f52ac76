import type { APIError } from '@anthropic-ai/sdk';
import type { AttemptFailure } from '@a3s-lab/code-core/provider';
import type { AnthropicSdkModule } from './load-anthropic-sdk.js';
import { apiErrorFailure, brokenStreamFailure, connectionFailure, isRetryableStatus, parseRetryAfterMs, safeCause } from '@a3s-lab/code-core/provider';

const PROVIDER = 'anthropic';

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

/**
 * Classifies whatever one Anthropic attempt threw: HTTP errors by status (and `x-should-retry`,
 * which Anthropic sends to override the default), in-stream `error` events by their type,
 * connection failures and truncated streams as retryable. `sdk` is the loaded SDK module (its
 * error classes; the SDK is loaded lazily).
 */
export function classifyAnthropicError(error: unknown, secrets: readonly (string | null | undefined)[], sdk: Pick<AnthropicSdkModule, 'APIConnectionError' | 'APIError'>): AttemptFailure {
  const { APIConnectionError, APIError } = sdk;
  const cause = safeCause(error, secrets);
  if (error instanceof APIConnectionError) return connectionFailure(PROVIDER, error, secrets, cause);
  if (error instanceof APIError) {
    const type = errorType(error);
    const status = error.status ?? (type === undefined ? undefined : STREAM_ERROR_STATUS[type]);
    const inStream = error.status === undefined;
    const shouldRetry = error.headers?.get('x-should-retry');
    const retryable = !inStream && shouldRetry === 'true' ? true : !inStream && shouldRetry === 'false' ? false : status !== undefined && isRetryableStatus(status);
    const detail = error.apiMessage ?? error.message;
    return apiErrorFailure(
      PROVIDER,
      {
        httpStatus: error.status,
        status,
        type,
        detail,
        retryable,
        retryAfterMs: inStream ? undefined : parseRetryAfterMs(error.headers),
        requestId: error.requestID,
        contextOverflow: status === 413 || (status === 400 && CONTEXT_OVERFLOW.test(detail)),
      },
      secrets,
      cause,
    );
  }
  return brokenStreamFailure(PROVIDER, error, secrets, cause);
}
