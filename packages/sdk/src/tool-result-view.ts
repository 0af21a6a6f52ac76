import { CodeError } from '@a3s-lab/code-core';
import type { SubagentTaskResult, ToolResult as CoreToolResult, ToolErrorKind } from '@a3s-lab/code-core';
import { renderTaskResult, taskSummary } from '@a3s-lab/code-tools';

/**
 * A tool result as the SDK returns it: the core result plus `metadataJson`, the metadata as a
 * JSON string (the shape hosts of the original SDK parse).
 */
export interface ToolResult extends CoreToolResult {
  /** `metadata` serialised as JSON, or `null` when there is none. */
  readonly metadataJson: string | null;
}

/**
 * What `session.task()` (and each result of `session.tasks()`) resolves to: the task's result
 * plus the ToolResult fields the `task` tool returns for it.
 */
export interface TaskResult extends SubagentTaskResult {
  /** Always `'task'`. */
  readonly name: 'task';
  /** 0 when the task completed, 1 when it failed or was cancelled. */
  readonly exitCode: number;
  /** The task as the parent model reads it: a header line and the answer (or error), bounded. */
  readonly output: string;
  /** The task's summary (`{ task: { task_id, agent, status, usage, ... } }`) as JSON. */
  readonly metadataJson: string;
}

/** Adds the `task` tool's ToolResult fields to a task result. */
export function toTaskResult(result: SubagentTaskResult): TaskResult {
  return { ...result, name: 'task', exitCode: result.status === 'completed' ? 0 : 1, output: renderTaskResult(result), metadataJson: JSON.stringify({ task: taskSummary(result) }) };
}

/** Adds `metadataJson` to a core result. */
export function toSdkToolResult(result: CoreToolResult): ToolResult {
  let metadataJson: string | null = null;
  if (result.metadata !== undefined) {
    metadataJson = JSON.stringify(result.metadata, (_key, value: unknown) => (value instanceof Uint8Array ? `<${value.byteLength} bytes>` : value));
  }
  return { ...result, metadataJson };
}

/**
 * For helpers that return plain values (`readFile`, `grep`, `glob`, ...): a failed result becomes
 * a thrown error carrying the error kind, so `await session.readFile('missing')` rejects. A call
 * refused for safety — a path that escapes the workspace, a protected path, a deny rule
 * (`errorKind.type === 'permission_denied'`) — is a `SECURITY_ERROR`; any other failure is a
 * `TOOL_ERROR`.
 */
export function throwIfFailed(result: CoreToolResult): void {
  if (result.exitCode === 0) return;
  const details = { tool: result.name, exitCode: result.exitCode, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind as ToolErrorKind }) };
  if (result.errorKind?.type === 'permission_denied') {
    throw new CodeError('SECURITY_ERROR', `${result.name} refused: ${result.errorKind.reason}`, { details });
  }
  throw new CodeError('TOOL_ERROR', `${result.name} failed: ${result.output}`, { details });
}
