import type { LlmContentPart, LlmMessage, ToolDefinition } from '@a3s-lab/code-core';
import { assertNever } from '@a3s-lab/code-core/util';

/**
 * Characters per token of the uncalibrated estimate. Four is the usual figure for English text
 * and code with BPE tokenizers; {@link ContextCompactor} corrects it with the provider's
 * reported usage as soon as one model call has been made.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens counted for one image. Providers bill images by pixel area (Anthropic about
 * width x height / 750, capped near 1600 for the largest accepted size); the base64 text length
 * says nothing useful about that, so every image counts as the cap.
 */
export const IMAGE_TOKEN_ESTIMATE = 1600;

// Role markers, block delimiters and ids cost a few tokens per message and per block.
const MESSAGE_OVERHEAD = 4;
const PART_OVERHEAD = 3;

/** What a request estimate is made of. */
export interface TokenEstimateInput {
  readonly system: string;
  readonly tools: readonly ToolDefinition[];
  readonly messages: readonly LlmMessage[];
}

const textTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Uncalibrated token estimate of one content part. */
export function estimatePartTokens(part: LlmContentPart): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return PART_OVERHEAD + textTokens(part.text);
    case 'image':
      return PART_OVERHEAD + IMAGE_TOKEN_ESTIMATE;
    case 'tool_call':
      return PART_OVERHEAD + textTokens(part.id) + textTokens(part.name) + textTokens(JSON.stringify(part.input) ?? '');
    case 'tool_result':
      return PART_OVERHEAD + textTokens(part.toolCallId) + textTokens(part.content) + (part.images?.length ?? 0) * IMAGE_TOKEN_ESTIMATE;
    default:
      return assertNever(part, 'content part');
  }
}

/** Uncalibrated token estimate of one message. */
export function estimateMessageTokens(message: LlmMessage): number {
  let total = MESSAGE_OVERHEAD;
  for (const part of message.content) total += estimatePartTokens(part);
  return total;
}

/** Uncalibrated token estimate of a list of messages. */
export function estimateMessagesTokens(messages: readonly LlmMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** Uncalibrated token estimate of the parts of a request that compaction cannot shrink: system prompt and tool definitions. */
export function estimateFixedTokens(system: string, tools: readonly ToolDefinition[]): number {
  return textTokens(system) + (tools.length === 0 ? 0 : textTokens(JSON.stringify(tools)));
}

/** Uncalibrated token estimate of a whole request (system + tools + messages). */
export function estimateRequestTokens(input: TokenEstimateInput): number {
  return estimateFixedTokens(input.system, input.tools) + estimateMessagesTokens(input.messages);
}
