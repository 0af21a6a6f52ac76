import type { APIError } from 'openai';
import type { OpenAISdkModule } from './load-openai-sdk.js';
import type { AttemptFailure } from '@a3s-lab/code-core/provider';
import { apiErrorFailure, brokenStreamFailure, connectionFailure, isRetryableStatus, parseRetryAfterMs, safeCause } from '@a3s-lab/code-core/provider';

const PROVIDER = 'openai';

// An error object inside an established stream (`data: {"error": ...}`) has no HTTP status.
// OpenAI-compatible servers put a type or a numeric code in it; retry only what says "transient".
const TRANSIENT_STREAM_ERRORS: ReadonlySet<string> = new Set(['server_error', 'rate_limit_exceeded', 'rate_limit_error', 'overloaded_error', 'overloaded', 'api_error', 'timeout']);

// OpenAI says `context_length_exceeded`; vLLM, Ollama and others put it only in the message.
const CONTEXT_OVERFLOW = /maximum context length|context length|context window|prompt is too long|too many tokens/i;

function streamErrorStatus(error: APIError): number | undefined {
  const code = (error.error as { code?: unknown } | undefined)?.code;
  const numeric = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  return numeric;
}

/**
 * Classifies whatever one OpenAI-protocol attempt threw: HTTP errors by status (and
 * `x-should-retry`), in-stream error objects by their type/code, connection failures and
 * truncated streams as retryable. `sdk` is the loaded SDK module (its error classes; the SDK is
 * loaded lazily).
 */
export function classifyOpenAIError(error: unknown, secrets: readonly (string | null | undefined)[], sdk: Pick<OpenAISdkModule, 'APIConnectionError' | 'APIError'>): AttemptFailure {
  const { APIConnectionError, APIError } = sdk;
  const cause = safeCause(error, secrets);
  if (error instanceof APIConnectionError) return connectionFailure(PROVIDER, error, secrets, cause);
  if (error instanceof APIError) {
    const inStream = error.status === undefined;
    const type = error.type ?? (typeof error.code === 'string' ? error.code : undefined);
    const status = error.status ?? streamErrorStatus(error);
    const shouldRetry = inStream ? null : error.headers?.get('x-should-retry');
    const retryable =
      shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : status !== undefined ? isRetryableStatus(status) : type !== undefined && TRANSIENT_STREAM_ERRORS.has(type);
    return apiErrorFailure(
      PROVIDER,
      {
        httpStatus: error.status,
        status,
        type,
        detail: error.message,
        retryable,
        retryAfterMs: inStream ? undefined : parseRetryAfterMs(error.headers),
        requestId: error.requestID,
        contextOverflow: status === 413 || error.code === 'context_length_exceeded' || (status === 400 && CONTEXT_OVERFLOW.test(error.message)),
      },
      secrets,
      cause,
    );
  }
  return brokenStreamFailure(PROVIDER, error, secrets, cause);
}
