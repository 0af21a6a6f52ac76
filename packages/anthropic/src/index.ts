// Public surface of @a3s-lab/code-anthropic. Exports are listed by name.
export { DEFAULT_ANTHROPIC_MAX_TOKENS, createAnthropicClient } from './anthropic-client.js';
export type { AnthropicClientOptions } from './anthropic-client.js';
export type { AnthropicThinking } from './to-anthropic-request.js';
export { toAnthropicRequest } from './to-anthropic-request.js';
export type { AnthropicRequestSettings } from './to-anthropic-request.js';
export { AnthropicEventMapper } from './anthropic-event-mapper.js';
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
