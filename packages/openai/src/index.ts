// Public surface of @a3s-lab/code-openai. Exports are listed by name.
export { createOpenAIClient } from './openai-client.js';
export type { OpenAIClientOptions } from './openai-client.js';
export { toOpenAIRequest } from './to-openai-request.js';
export type { OpenAIMaxTokensField, OpenAIRequestSettings } from './to-openai-request.js';
export { OpenAIChunkMapper } from './openai-chunk-mapper.js';
export {
  DEFAULT_MAX_RETRIES,
  MAX_HONOURED_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  backoffDelayMs,
  isRetryableStatus,
  parseRetryAfterMs,
} from './retry/retry-policy.js';
