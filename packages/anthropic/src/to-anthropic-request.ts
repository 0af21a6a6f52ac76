import { CodeError } from '@a3s-lab/code-core';
import type { LlmContentPart, LlmMessage, LlmRequest } from '@a3s-lab/code-core';
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';

/** Extended-thinking configuration sent with every request (Anthropic `thinking`). */
export type AnthropicThinking = { readonly type: 'enabled'; readonly budgetTokens: number } | { readonly type: 'adaptive' } | { readonly type: 'disabled' };

/** Client-level settings that shape every request body. */
export interface AnthropicRequestSettings {
  readonly model: string;
  /** `max_tokens` when the request does not set one. */
  readonly maxTokens: number;
  /** Adds `cache_control` breakpoints to the last tool, the system prompt and the last message. */
  readonly promptCaching: boolean;
  readonly thinking?: AnthropicThinking | undefined;
}

/** The prompt-cache breakpoint marker. */
export const EPHEMERAL = { type: 'ephemeral' } as const;
type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function invalidRequest(message: string, details: Record<string, unknown>): CodeError {
  return new CodeError('LLM_ERROR', message, { details: { provider: 'anthropic', status: null, retryable: false, reason: 'invalid_request', ...details } });
}

function imageBlock(mediaType: string, data: string): ImageBlockParam {
  // Checked here so a bad media type is a clear local error instead of an opaque HTTP 400.
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) throw invalidRequest(`unsupported image media type for Anthropic: ${mediaType}`, { mediaType });
  return { type: 'image', source: { type: 'base64', media_type: mediaType as ImageMediaType, data } };
}

function toolResultBlock(part: Extract<LlmContentPart, { type: 'tool_result' }>): ToolResultBlockParam {
  const images = part.images ?? [];
  const content: ToolResultBlockParam['content'] =
    images.length === 0
      ? part.content
      : [...(part.content === '' ? [] : [{ type: 'text' as const, text: part.content }]), ...images.map((image) => imageBlock(image.mediaType, image.data))];
  return { type: 'tool_result', tool_use_id: part.toolCallId, content, ...(part.isError ? { is_error: true } : {}) };
}

/** One of our content parts as an Anthropic block; `undefined` for a part the API does not take back (empty text, unsigned reasoning). */
export function toBlock(part: LlmContentPart, role: LlmMessage['role'], index: number): ContentBlockParam | undefined {
  switch (part.type) {
    case 'text':
      // The API rejects empty text blocks.
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'image':
      return imageBlock(part.mediaType, part.data);
    case 'reasoning':
      if (role !== 'assistant') throw invalidRequest('reasoning parts belong to assistant messages', { messageIndex: index, part: part.type });
      // Thinking is only accepted back with the signature Anthropic issued for it; unsigned
      // reasoning (another provider's, or an interrupted block) is dropped rather than rejected.
      if (part.signature === undefined) return undefined;
      return part.redacted === true ? { type: 'redacted_thinking', data: part.signature } : { type: 'thinking', thinking: part.text, signature: part.signature };
    case 'tool_call':
      if (role !== 'assistant') throw invalidRequest('tool_call parts belong to assistant messages', { messageIndex: index, part: part.type });
      // A call whose input was invalid JSON is replayed with an empty object: the API requires one.
      return { type: 'tool_use', id: part.id, name: part.name, input: isRecord(part.input) ? part.input : {} };
    case 'tool_result':
      if (role !== 'user') throw invalidRequest('tool_result parts belong to user messages', { messageIndex: index, part: part.type });
      return toolResultBlock(part);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Maps our messages to Anthropic's, dropping messages left without content and merging
 * consecutive messages of one role into one turn. Consecutive user messages are normal after a
 * run that failed or was cancelled after a tool round (its tool results end the history, the next
 * prompt follows); a dropped message can leave two of a role side by side too. Strict
 * alternation is what Anthropic-compatible endpoints (Bedrock, Vertex, proxies) require.
 */
export function toAnthropicMessages(messages: readonly LlmMessage[]): MessageParam[] {
  const result: { role: LlmMessage['role']; content: ContentBlockParam[] }[] = [];
  messages.forEach((message, index) => {
    const blocks = message.content.map((part) => toBlock(part, message.role, index)).filter((block): block is ContentBlockParam => block !== undefined);
    if (blocks.length === 0) return;
    const previous = result.at(-1);
    if (previous?.role === message.role) previous.content.push(...blocks);
    else result.push({ role: message.role, content: blocks });
  });
  // Anthropic wants tool results first in a user turn; the rest keeps its order after them.
  return result.map((turn) =>
    turn.role === 'user' ? { role: 'user', content: [...turn.content.filter((b) => b.type === 'tool_result'), ...turn.content.filter((b) => b.type !== 'tool_result')] } : turn,
  );
}

/** Anthropic's `tool_choice` for ours. */
export function toToolChoice(choice: NonNullable<LlmRequest['toolChoice']>): ToolChoice {
  return choice.type === 'tool' ? { type: 'tool', name: choice.name } : { type: choice.type };
}

/** Block types that take a `cache_control` breakpoint. */
export const CACHEABLE_BLOCKS: ReadonlySet<string> = new Set(['text', 'image', 'tool_use', 'tool_result']);

function withCacheBreakpoint(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  if (last === undefined || typeof last.content === 'string') return messages;
  const blocks = [...last.content];
  const tail = blocks.at(-1);
  if (tail === undefined || !CACHEABLE_BLOCKS.has(tail.type)) return messages;
  blocks[blocks.length - 1] = { ...tail, cache_control: EPHEMERAL } as ContentBlockParam;
  return [...messages.slice(0, -1), { ...last, content: blocks } as MessageParam];
}

/**
 * Builds the Messages API body for one {@link LlmRequest}: system prompt, messages, tools
 * (`input_schema` = the tool's JSON Schema), tool choice, limits and, when enabled, prompt-cache
 * breakpoints (last tool, system prompt, last message: the prefix reused by the next turn).
 */
export function toAnthropicRequest(request: LlmRequest, settings: AnthropicRequestSettings): MessageCreateParamsStreaming {
  const messages = toAnthropicMessages(request.messages);
  const tools: Tool[] = request.tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool['input_schema'],
    ...(settings.promptCaching && index === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  const system: TextBlockParam[] | undefined =
    request.system === '' ? undefined : [{ type: 'text', text: request.system, ...(settings.promptCaching ? { cache_control: EPHEMERAL } : {}) }];
  const thinking = settings.thinking;
  return {
    model: settings.model,
    max_tokens: request.maxTokens ?? settings.maxTokens,
    stream: true,
    ...(system === undefined ? {} : { system }),
    messages: settings.promptCaching ? withCacheBreakpoint(messages) : messages,
    ...(tools.length === 0 ? {} : { tools }),
    ...(request.toolChoice === undefined || tools.length === 0 ? {} : { tool_choice: toToolChoice(request.toolChoice) }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(thinking === undefined
      ? {}
      : { thinking: thinking.type === 'enabled' ? { type: 'enabled' as const, budget_tokens: thinking.budgetTokens } : { type: thinking.type } }),
  };
}
