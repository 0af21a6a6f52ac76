import { toolStepKey } from '@a3s-lab/code-core';
import type { JournaledAnswer, JournaledToolCall, LlmStreamEvent, RunJournal, ToolOutput, ToolStartOptions } from '@a3s-lab/code-core';

const TOOL_KEY_PREFIX = toolStepKey('');

/**
 * The journal of a run inside a journaled run's step (a subagent task's child run), in the same
 * run journal under the child's `scope` (its task id, derived from the parent's `task` call id:
 * the same on every attempt that replays the parent's recorded model response). The child's ids
 * are `<scope>/<id>`: its tool calls are steps `tool-<scope>/<tool_call_id>`, its confirmations
 * `confirmation-<scope>/<tool_call_id>` (the ids the parent's confirmations and
 * `fleet.reconcile` name), and its run is `<runId>/<scope>`, so its model responses are
 * `model-<runId>/<scope>-<n>`. Recorded results replay and reconciliation rules are the run's.
 *
 * `beforeLive` is called when the child reaches a step that is not recorded (a model response, a
 * tool call or a confirmation answer it would now ask for) before the child goes on live; it may
 * throw to stop the child there (a fan-out whose deadline passed while no process ran it).
 */
export function childRunJournal(journal: RunJournal, scope: string, options: ChildRunJournalOptions = {}): RunJournal {
  const { beforeLive } = options;
  const gated = <T>(found: T | null): T | null => {
    if (found === null) beforeLive?.();
    return found;
  };
  const id = (toolId: string): string => `${scope}/${toolId}`;
  // Keys the child's kernel computes as `tool-<id>` name the scoped id; other keys (model,
  // compaction) already carry the child's run id.
  const key = (k: string): string => (k.startsWith(TOOL_KEY_PREFIX) ? toolStepKey(id(k.slice(TOOL_KEY_PREFIX.length))) : k);
  const child: RunJournal = {
    runId: `${journal.runId}/${scope}`,
    modelResponse: async (k: string): Promise<readonly LlmStreamEvent[] | null> => gated(await journal.modelResponse(key(k))),
    recordModelResponse: (k: string, events: readonly LlmStreamEvent[]): Promise<void> => journal.recordModelResponse(key(k), events),
    toolCall: async (k: string, call?: { readonly resumable?: boolean }): Promise<JournaledToolCall | null> => gated(await journal.toolCall(key(k), call)),
    recordToolStart: (k: string, call: { readonly toolName: string; readonly args: unknown }, options?: ToolStartOptions): Promise<void> => journal.recordToolStart(key(k), call, options),
    recordToolOutcome: (k: string, outcome: ToolOutput): Promise<void> => journal.recordToolOutcome(key(k), outcome),
    confirmationAnswer: async (toolId: string): Promise<JournaledAnswer | null> => gated(await journal.confirmationAnswer(id(toolId))),
    recordConfirmationRequest: (toolId: string, request: { readonly toolName: string; readonly args: unknown }): Promise<void> => journal.recordConfirmationRequest(id(toolId), request),
    recordConfirmationAnswer: (toolId: string, answer: JournaledAnswer): Promise<void> => journal.recordConfirmationAnswer(id(toolId), answer),
  };
  const live = journal.liveAfterReplay;
  return live === undefined ? child : { ...child, liveAfterReplay: () => live.call(journal) };
}

/** Options of {@link childRunJournal}. */
export interface ChildRunJournalOptions {
  /** Called at the child's first unrecorded step (and each one after); throws to stop the child. */
  readonly beforeLive?: () => void;
}

/**
 * The scope of a subagent task's child run in its parent's journal: `task_<parent call id>_<n>`
 * (`n` the task's place in its `parallel_task`, 0 for `task`), the parent call's id reduced to
 * characters safe in session ids and keys.
 */
export function childTaskScope(parentToolId: string, index: number): string {
  return `task_${parentToolId.replace(/[^A-Za-z0-9_-]/g, '_')}_${index}`;
}
