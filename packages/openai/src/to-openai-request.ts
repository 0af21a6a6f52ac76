import { CodeError } from '@a3s-lab/code-core';
import type { LlmContentPart, LlmMessage, LlmRequest } from '@a3s-lab/code-core';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';

/** Which body field carries the output limit. */
export type OpenAIMaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** Client-level settings that shape every request body. */
export interface OpenAIRequestSettings {
  readonly model: string;
  /** Output limit when the request does not set one; omitted when undefined. */
  readonly maxTokens?: number | undefined;
  readonly maxTokensField: OpenAIMaxTokensField;
}

type ToolResultPart = Extract<LlmContentPart, { type: 'tool_result' }>;

function invalidRequest(message: string, details: Record<string, unknown>): CodeError {
  return new CodeError('LLM_ERROR', message, { details: { provider: 'openai', status: null, retryable: false, reason: 'invalid_request', ...details } });
}

function imagePart(mediaType: string, data: string): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` } };
}

/** A user turn as one message: a plain string when it is a single text, else content parts. */
function userMessage(parts: readonly ChatCompletionContentPart[]): ChatCompletionMessageParam | undefined {
  if (parts.length === 0) return undefined;
  const only = parts[0];
  // Plain strings are understood by every OpenAI-compatible server; part arrays are not.
  if (parts.length === 1 && only?.type === 'text') return { role: 'user', content: only.text };
  return { role: 'user', content: [...parts] };
}

function toolMessages(results: readonly ToolResultPart[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = results.map((result) => ({ role: 'tool', tool_call_id: result.toolCallId, content: result.content }));
  // `tool` messages carry text only: images a tool returned follow in a user message that says
  // which call they belong to.
  const imageParts = results.flatMap((result): ChatCompletionContentPart[] =>
    (result.images ?? []).length === 0
      ? []
      : [{ type: 'text', text: `Images returned by tool call ${result.toolCallId}:` }, ...(result.images ?? []).map((image) => imagePart(image.mediaType, image.data))],
  );
  const images = userMessage(imageParts);
  return images === undefined ? messages : [...messages, images];
}

function mapUser(message: LlmMessage, index: number): ChatCompletionMessageParam[] {
  const results: ToolResultPart[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') results.push(part);
    else if (part.type === 'text') {
      if (part.text !== '') parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') parts.push(imagePart(part.mediaType, part.data));
    else throw invalidRequest(`${part.type} parts belong to assistant messages`, { messageIndex: index, part: part.type });
  }
  // Tool results must directly follow the assistant message that made the calls.
  const user = userMessage(parts);
  return [...toolMessages(results), ...(user === undefined ? [] : [user])];
}

function mapAssistant(message: LlmMessage, index: number): ChatCompletionMessageParam[] {
  const texts: string[] = [];
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'tool_call') {
      // Invalid input from the model is replayed as `{}`: arguments must be a JSON object.
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } });
    } else if (part.type === 'reasoning') {
      // Chat Completions has no reasoning input; DeepSeek/vLLM ask not to send it back.
    } else throw invalidRequest(`${part.type} parts belong to user messages`, { messageIndex: index, part: part.type });
  }
  const text = texts.join('');
  if (text === '' && toolCalls.length === 0) return [];
  return [{ role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) }];
}

/** Maps our conversation to Chat Completions messages (without the system message). */
export function toOpenAIMessages(messages: readonly LlmMessage[]): ChatCompletionMessageParam[] {
  return messages.flatMap((message, index) => (message.role === 'user' ? mapUser(message, index) : mapAssistant(message, index)));
}

function toToolChoice(choice: NonNullable<LlmRequest['toolChoice']>): ChatCompletionToolChoiceOption {
  if (choice.type === 'auto') return 'auto';
  if (choice.type === 'any') return 'required';
  return { type: 'function', function: { name: choice.name } };
}

/**
 * Builds the streaming Chat Completions body for one {@link LlmRequest}: system message first,
 * assistant `tool_calls`, `tool` results, images as data URLs, function tools, tool choice, and
 * `stream_options.include_usage` so the final chunk carries usage.
 */
export function toOpenAIRequest(request: LlmRequest, settings: OpenAIRequestSettings): ChatCompletionCreateParamsStreaming {
  const tools: ChatCompletionFunctionTool[] = request.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters as Record<string, unknown> },
  }));
  const maxTokens = request.maxTokens ?? settings.maxTokens;
  return {
    model: settings.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [...(request.system === '' ? [] : [{ role: 'system' as const, content: request.system }]), ...toOpenAIMessages(request.messages)],
    ...(tools.length === 0 ? {} : { tools }),
    ...(request.toolChoice === undefined || tools.length === 0 ? {} : { tool_choice: toToolChoice(request.toolChoice) }),
    ...(maxTokens === undefined ? {} : { [settings.maxTokensField]: maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}
