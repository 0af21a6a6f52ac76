import { CodeError } from '@a3s-lab/code-core';

/** True for the error a journaled child's run stops with when a call's outcome is unknown. */
export function isReconciliation(error: CodeError): boolean {
  return error.code === 'SESSION_ERROR' && error.details['needs_reconciliation'] === true;
}

/** The child's reconciliation error as the parent's run stops with it: the call named in the run's journal. */
export function reconciliationOfChild(error: CodeError, taskId: string): CodeError {
  const toolId = `${taskId}/${String(error.details['tool_id'])}`;
  return new CodeError('SESSION_ERROR', `subagent task '${taskId}': ${error.message}`, {
    details: { ...error.details, tool_id: toolId, task_id: taskId },
    cause: error,
  });
}

/** The error a task ends with when its signal aborted: `task cancelled: <reason>`. */
export function cancelled(signal: AbortSignal, cause?: unknown): CodeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled';
  return CodeError.cancelled(`task cancelled: ${reason}`, cause === undefined ? {} : { cause });
}
