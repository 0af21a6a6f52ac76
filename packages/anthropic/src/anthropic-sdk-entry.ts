import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';

export { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';

/**
 * The `@anthropic-ai/sdk` client this package talks through: the SDK's own `BaseAnthropic` (its
 * HTTP, headers, timeouts, errors, tracing) with the Messages resource, which is all a model call
 * uses (`messages.create`, `post('/v1/messages')`). It is the entry of the package's vendored copy
 * of the SDK (`dist/vendor/anthropic-ai-sdk.cjs`): without the `Anthropic` class's other
 * resources (beta, organization, files, skills, models...) the copy is 0.37 instead of 1.8 MB and
 * loads in ~10 instead of ~44 ms, on the way to a session's first model request.
 */
export default class AnthropicMessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
}
