import type { LlmContentPart, LlmMessage } from '@a3s-lab/code-core';
import { assertNever } from '@a3s-lab/code-core/util';

/** One message part in the GenAI conventions' JSON shape (`gen_ai.input.messages` / `output.messages`). */
type GenAiPart = Readonly<Record<string, unknown>>;

/**
 * Our messages in the conventions' shape: `[{ role, parts: [{ type: 'text', content }, { type:
 * 'tool_call', id, name, arguments }, { type: 'tool_call_response', id, response }, ...] }]`.
 * Images are named by media type only: their bytes never go into a span.
 */
export function genAiMessages(messages: readonly LlmMessage[]): { role: string; parts: GenAiPart[] }[] {
  return messages.map((message) => ({
    // A user message made only of tool results is the conventions' `tool` role.
    role: message.role === 'user' && message.content.length > 0 && message.content.every((part) => part.type === 'tool_result') ? 'tool' : message.role,
    parts: message.content.map(genAiPart),
  }));
}

/** `gen_ai.system_instructions`: the system prompt as one text part. */
export function genAiSystemInstructions(system: string): GenAiPart[] {
  return system === '' ? [] : [{ type: 'text', content: system }];
}

function genAiPart(part: LlmContentPart): GenAiPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', content: part.text };
    case 'reasoning':
      return part.redacted === true ? { type: 'reasoning', content: '[redacted by the provider]' } : { type: 'reasoning', content: part.text };
    case 'tool_call':
      return { type: 'tool_call', id: part.id, name: part.name, arguments: part.input };
    case 'tool_result':
      return { type: 'tool_call_response', id: part.toolCallId, response: part.content, ...(part.isError ? { is_error: true } : {}) };
    case 'image':
      return { type: 'blob', modality: 'image', mime_type: part.mediaType };
    default:
      return assertNever(part, 'content part');
  }
}
