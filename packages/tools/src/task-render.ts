import { boundUtf8HeadTail } from '@a3s-lab/code-core/util';
import type { SubagentTaskResult } from '@a3s-lab/code-core';

/** Byte budget of a task result shown to the parent model (the full transcript stays in the session). */
export const TASK_RESULT_MAX_BYTES = 16_384;

/** The parent model's view of one task: a header line and the child's answer (or error), bounded. */
export function renderTaskResult(result: SubagentTaskResult, maxBytes: number = TASK_RESULT_MAX_BYTES): string {
  const header = `[${result.agent} ${result.taskId}] ${result.status}: ${result.description} (${result.turns} turn(s), ${result.toolCallsCount} tool call(s), ${result.usage.totalTokens} tokens)`;
  const body = result.status === 'completed' ? result.text : `${result.error?.code ?? 'ERROR'}: ${result.error?.message ?? 'failed'}`;
  const bounded = boundUtf8HeadTail(body, Math.max(256, maxBytes - header.length - 1));
  return `${header}\n${bounded.text}`;
}

/** JSON-safe summary of a task for result metadata (no transcript). */
export function taskSummary(result: SubagentTaskResult): Record<string, unknown> {
  return {
    task_id: result.taskId,
    agent: result.agent,
    description: result.description,
    status: result.status,
    child_session_id: result.childSessionId,
    turns: result.turns,
    tool_calls: result.toolCallsCount,
    usage: { prompt_tokens: result.usage.promptTokens, completion_tokens: result.usage.completionTokens, total_tokens: result.usage.totalTokens },
    duration_ms: result.durationMs,
    ...(result.error === null ? {} : { error: result.error }),
  };
}
