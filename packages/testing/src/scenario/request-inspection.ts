import type { RecordedRequest } from '../server/recorded-request.js';

/** A tool result found in a recorded request, protocol-neutral. */
export interface RecordedToolResult {
  /** Anthropic `tool_use_id` / OpenAI `tool_call_id`. */
  readonly toolCallId: string;
  /** Text content (text blocks joined with `\n`). */
  readonly content: string;
  /** Anthropic `is_error`; always false for OpenAI, which has no such flag. */
  readonly isError: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a string or an array of content blocks (text blocks only). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is Json => isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block['text'] as string)
    .join('\n');
}

function messagesOf(request: RecordedRequest): Json[] {
  const messages = isObject(request.body) ? request.body['messages'] : undefined;
  return Array.isArray(messages) ? messages.filter(isObject) : [];
}

/**
 * Every tool result in the conversation the request sent, oldest first. Lets a scenario
 * function answer based on what the tools returned: `toolResultsOf(request).at(-1)`.
 */
export function toolResultsOf(request: RecordedRequest): RecordedToolResult[] {
  const results: RecordedToolResult[] = [];
  for (const message of messagesOf(request)) {
    if (request.protocol === 'openai') {
      if (message['role'] === 'tool' && typeof message['tool_call_id'] === 'string') {
        results.push({ toolCallId: message['tool_call_id'], content: contentText(message['content']), isError: false });
      }
      continue;
    }
    const content = message['content'];
    if (message['role'] !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) {
      if (isObject(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        results.push({ toolCallId: block['tool_use_id'], content: contentText(block['content']), isError: block['is_error'] === true });
      }
    }
  }
  return results;
}

/** Text of the last user message of the request (`''` when there is none). */
export function lastUserText(request: RecordedRequest): string {
  const user = messagesOf(request).filter((message) => message['role'] === 'user').at(-1);
  return user === undefined ? '' : contentText(user['content']);
}

/** The system prompt of the request: Anthropic `system`, or OpenAI `system`/`developer` messages joined. */
export function systemPromptOf(request: RecordedRequest): string {
  if (request.protocol === 'anthropic') return isObject(request.body) ? contentText(request.body['system']) : '';
  return messagesOf(request)
    .filter((message) => message['role'] === 'system' || message['role'] === 'developer')
    .map((message) => contentText(message['content']))
    .join('\n');
}

/** Names of the tools the request offered the model (`tools[].name` / `tools[].function.name`). */
export function toolNamesOf(request: RecordedRequest): string[] {
  const tools = isObject(request.body) ? request.body['tools'] : undefined;
  if (!Array.isArray(tools)) return [];
  return tools.filter(isObject).flatMap((tool) => {
    const name = request.protocol === 'openai' && isObject(tool['function']) ? tool['function']['name'] : tool['name'];
    return typeof name === 'string' ? [name] : [];
  });
}
