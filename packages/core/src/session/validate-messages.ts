import { CodeError } from '../errors/code-error.js';
import type { LlmMessage } from '../llm/llm-client.js';

const ROLES = new Set(['user', 'assistant']);
const PART_TYPES = new Set(['text', 'image', 'tool_call', 'tool_result', 'reasoning']);

/**
 * Checks that `messages` is a conversation this runtime can send: an array of `{role, content}`
 * with a known role and content parts of known types. Throws SESSION_CONFIGURATION_ERROR naming
 * the first bad entry (`history[3].content`), before anything changes.
 */
export function validateMessages(messages: unknown, field: string): LlmMessage[] {
  if (!Array.isArray(messages)) throw badHistory(field, 'an array of messages', messages);
  messages.forEach((message: unknown, i) => {
    const at = `${field}[${i}]`;
    if (typeof message !== 'object' || message === null) throw badHistory(at, 'a message object', message);
    const m = message as Record<string, unknown>;
    if (typeof m['role'] !== 'string' || !ROLES.has(m['role'])) throw badHistory(`${at}.role`, "'user' or 'assistant'", m['role']);
    const content = m['content'];
    if (!Array.isArray(content)) throw badHistory(`${at}.content`, 'an array of content parts', content);
    content.forEach((part: unknown, j) => {
      const type = typeof part === 'object' && part !== null ? (part as Record<string, unknown>)['type'] : undefined;
      if (typeof type !== 'string' || !PART_TYPES.has(type)) throw badHistory(`${at}.content[${j}].type`, `one of ${[...PART_TYPES].join(', ')}`, type);
    });
  });
  return messages as LlmMessage[];
}

function badHistory(field: string, expected: string, value: unknown): CodeError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return new CodeError('SESSION_CONFIGURATION_ERROR', `invalid ${field}: expected ${expected}, got ${got}`, { details: { field, expected } });
}
