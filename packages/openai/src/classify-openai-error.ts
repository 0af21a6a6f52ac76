import { APIConnectionError, APIError } from 'openai';
import type { AttemptFailure } from '@a3s-lab/code-core';
import { StreamInterruptedError } from '@a3s-lab/code-core';
import { redactSecrets } from '@a3s-lab/code-core';
import { isRetryableStatus, parseRetryAfterMs } from '@a3s-lab/code-core';

// An error object inside an established stream (`data: {"error": ...}`) has no HTTP status.
// OpenAI-compatible servers put a type or a numeric code in it; retry only what says "transient".
const TRANSIENT_STREAM_ERRORS: ReadonlySet<string> = new Set(['server_error', 'rate_limit_exceeded', 'rate_limit_error', 'overloaded_error', 'overloaded', 'api_error', 'timeout']);

/** Keeps the original error as `cause` unless its message carries a secret. */
function safeCause(error: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (!(error instanceof Error)) return error;
  const redacted = redactSecrets(error.message, secrets);
  if (redacted === error.message) return error;
  const copy = new Error(redacted);
  copy.name = error.name;
  return copy;
}

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
 * truncated streams as retryable.
 */
export function classifyOpenAIError(error: unknown, secrets: readonly (string | null | undefined)[]): AttemptFailure {
  const cause = safeCause(error, secrets);
  if (error instanceof APIConnectionError) {
    return { message: redactSecrets(`openai connection failed: ${error.message}`, secrets), retryable: true, reason: 'network_error', cause };
  }
  if (error instanceof APIError) {
    const inStream = error.status === undefined;
    const type = error.type ?? (typeof error.code === 'string' ? error.code : undefined);
    const status = error.status ?? streamErrorStatus(error);
    const shouldRetry = inStream ? null : error.headers?.get('x-should-retry');
    const retryable =
      shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : status !== undefined ? isRetryableStatus(status) : type !== undefined && TRANSIENT_STREAM_ERRORS.has(type);
    const retryAfterMs = inStream ? undefined : parseRetryAfterMs(error.headers);
    const label = inStream ? `stream error ${type ?? 'unknown'}` : `HTTP ${error.status}${type === undefined ? '' : ` ${type}`}`;
    const contextOverflow = status === 413 || error.code === 'context_length_exceeded' || (status === 400 && CONTEXT_OVERFLOW.test(error.message));
    return {
      message: redactSecrets(`openai request failed: ${label}: ${error.message}`, secrets),
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
    return { message: redactSecrets(`openai stream interrupted: ${error.message}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
  }
  // Errors from reading the body (socket reset, "terminated", a torn SSE frame) mean the stream broke.
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { message: redactSecrets(`openai stream failed: ${text}`, secrets), retryable: true, reason: 'stream_interrupted', cause };
}
