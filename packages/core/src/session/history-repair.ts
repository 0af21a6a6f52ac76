import type { LlmContentPart, LlmMessage } from '../llm/llm-client.js';

/**
 * Keeps a conversation valid after a run stopped mid-way: every tool call of the last assistant
 * message gets a tool result (an error saying why it did not run), so the next request is
 * accepted by every provider.
 */
export function repairHistory(history: LlmMessage[], reason: string): void {
  const last = history.at(-1);
  if (last === undefined || last.role !== 'assistant') return;
  const calls = last.content.filter((p): p is Extract<LlmContentPart, { type: 'tool_call' }> => p.type === 'tool_call');
  if (calls.length === 0) return;
  history.push({
    role: 'user',
    content: calls.map((c) => ({ type: 'tool_result' as const, toolCallId: c.id, content: `not executed: ${reason}`, isError: true })),
  });
}
