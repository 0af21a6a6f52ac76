// @a3s-lab/code-core/provider: for authors of model provider clients. The `LlmClient` contract,
// tool-call argument parsing, failure classification and the retry wrapper every client runs
// its attempts through. Every export is listed by name; the API report (api-report.md) pins it.

export type { LlmCallOptions, LlmClient, LlmContentPart, LlmMessage, LlmRequest, LlmStopReason, LlmStreamEvent, LlmUsage } from './llm/llm-client.js';
export type { LlmProvider, LlmProviderClientOptions } from './llm/llm-provider.js';
export { parseToolCallInput } from './llm/parse-tool-call-input.js';
export { ToolCallIdAllocator } from './llm/tool-call-id-allocator.js';
export { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_NODES } from './kernel/argument-bounds.js';
export { StreamInterruptedError } from './llm/retry/attempt-failure.js';
export type { AttemptFailure } from './llm/retry/attempt-failure.js';
export { apiErrorFailure, brokenStreamFailure, connectionFailure, safeCause } from './llm/retry/classify-failure.js';
export type { ApiErrorFields } from './llm/retry/classify-failure.js';
export { REDACTED, redactSecrets } from './llm/retry/redact-secrets.js';
export { backoffDelayMs, DEFAULT_MAX_RETRIES, isRetryableStatus, MAX_HONOURED_RETRY_AFTER_MS, parseRetryAfterMs, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS, RETRYABLE_STATUSES } from './llm/retry/retry-policy.js';
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS, streamWithRetries } from './llm/retry/stream-with-retries.js';
export type { RunAttempt, StreamWithRetriesOptions } from './llm/retry/stream-with-retries.js';
export { createRetryingLlmClient } from './llm/retry/retrying-llm-client.js';
export type { PreparedLlmCall, RetryingLlmClientOptions } from './llm/retry/retrying-llm-client.js';
