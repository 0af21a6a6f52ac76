// Public surface of @a3s-lab/code-openai. Exports are listed by name.
export { createOpenAIClient } from './openai-client.js';
export type { OpenAIClientOptions } from './openai-client.js';
export { toOpenAIRequest } from './to-openai-request.js';
export type { OpenAIMaxTokensField, OpenAIRequestSettings } from './to-openai-request.js';
export { OpenAIChunkMapper } from './openai-chunk-mapper.js';
// The retry policy (DEFAULT_MAX_RETRIES, parseRetryAfterMs...) is shared by every provider: see @a3s-lab/code-core.
