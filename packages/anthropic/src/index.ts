// Public surface of @a3s-lab/code-anthropic. Exports are listed by name.
export { DEFAULT_ANTHROPIC_MAX_TOKENS, createAnthropicClient } from './anthropic-client.js';
export type { AnthropicClientOptions } from './anthropic-client.js';
export type { AnthropicThinking } from './to-anthropic-request.js';
export { toAnthropicRequest } from './to-anthropic-request.js';
export type { AnthropicRequestSettings } from './to-anthropic-request.js';
export { AnthropicEventMapper } from './anthropic-event-mapper.js';
// The retry policy (DEFAULT_MAX_RETRIES, parseRetryAfterMs...) is shared by every provider: see @a3s-lab/code-core.
