import { CodeError } from '../../errors/code-error.js';
import type { ReconciliationDetails, RunJournal } from '../../journal/run-journal.js';
import { toolStepKey } from '../../journal/run-journal.js';
import type { ToolOutput } from '../../tools/tool-result.js';
import type { InvocationCall, StageStop } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { capabilitiesOf } from './permission-target.js';
import { sanitizeOutput } from './sanitize-output.js';

/** The run's journal for a call it records: top-level model calls only (their ids come from the recorded model response). */
export function journalOf(deps: KernelDeps, call: InvocationCall): RunJournal | null {
  const journal = deps.journal.current;
  return journal !== null && call.origin === 'agent' && call.parentToolId === undefined ? journal : null;
}

/**
 * Stage 10a (after every governance stage, before the queue and execution): a recorded outcome is
 * the call's result, without executing again; a start without an outcome runs again only when the
 * tool declares the call idempotent (or the host chose `retry`), or the call journals its own steps
 * (`selfJournaling`: a subagent task, entered again to replay its child run's steps), otherwise the
 * run stops with SESSION_ERROR `details.needs_reconciliation`; a new call's start is recorded
 * before it executes. A tool's own capabilities never make a started call run again unless it is
 * idempotent (`resumable` means cursor-resumable, not safe to repeat).
 */
export async function consultJournal(journal: RunJournal, call: InvocationCall, selfJournaling: boolean): Promise<StageStop | undefined> {
  const key = toolStepKey(call.toolId);
  const tool = call.tool!;
  // A self-journaling call (a subagent task: its child run journals every step of its own under
  // this call's id) is entered again and resumes from those steps; its start is already recorded.
  const entry = await journal.toolCall(key, selfJournaling ? { resumable: true } : undefined);
  if (entry !== null && entry.outcome !== null) {
    // It ran (in an earlier attempt): the lifecycle says so.
    call.lifecycle.transition('running');
    return { output: entry.outcome, outcome: (entry.outcome.exitCode ?? 0) === 0 ? 'completed' : 'failed' };
  }
  // A self-journaling call's start must be durable before it runs (its child's steps follow under
  // it); any other idempotent call may have its start written with its outcome.
  const idempotent = !selfJournaling && call.capabilities(() => capabilitiesOf(tool, call.args)).idempotent === true;
  if (entry !== null && !entry.retry) {
    if (selfJournaling) return undefined;
    if (!idempotent) {
      const details: ReconciliationDetails = { needs_reconciliation: true, tool_id: call.toolId, tool_name: call.toolName };
      throw new CodeError('SESSION_ERROR', `tool call '${call.toolId}' (${call.toolName}) started before its process stopped and its outcome is unknown; '${call.toolName}' is not idempotent, so the run needs reconciliation (retry it or record its outcome)`, {
        details: { ...details },
      });
    }
  }
  await journal.recordToolStart(key, { toolName: call.toolName, args: call.args }, idempotent ? { idempotent: true } : undefined);
  return undefined;
}

/** Records an executed call's outcome (redacted, as events and snapshots carry it). */
export function recordOutcome(deps: KernelDeps, journal: RunJournal, call: InvocationCall, output: ToolOutput): Promise<void> {
  return journal.recordToolOutcome(toolStepKey(call.toolId), sanitizeOutput(deps.security, output));
}

/** True for the error {@link consultJournal} stops a run with. */
export function isReconciliationError(error: unknown): error is CodeError {
  return CodeError.hasCode(error, 'SESSION_ERROR') && error.details['needs_reconciliation'] === true;
}
