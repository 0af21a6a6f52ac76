import { isKnownAgentEvent } from '@a3s-lab/code';
import type { AgentEvent, RunRecord } from '@a3s-lab/code';
import { isNestedToolEvent, unhandledEvent } from '../projection-scope.js';
import { runUsageTokens } from '../run-usage-tokens.js';
import type { RunUsageTokens } from '../run-usage-tokens.js';
import { projectConfirmationAnswer, projectConfirmationRequired } from './project-confirmation.js';
import { projectNotice, projectPlan, projectSubagent, projectVerification } from './project-run-data.js';
import { projectTurnEnd, projectTurnStart } from './project-step.js';
import { projectReasoningDelta, projectTextDelta } from './project-text.js';
import { projectToolEnd, projectToolInputDelta, projectToolStart, settleToolParts } from './project-tool-call.js';
import type { UIFinishReason, UIMessageChunk } from './ui-message-chunk.js';
import { createUIMessageState } from './ui-message-state.js';

/** Usage in the protocol's terms (the AI SDK's `LanguageModelUsage` names), in `finish`'s metadata. */
export type UIMessageUsage = RunUsageTokens;

/**
 * Projects one run's recorded v1 events onto the UI message stream protocol: one assistant
 * message per run (message id = run id), built by the `project-*` modules, one per kind of
 * event. Stateful (open parts, tool part phases); ids come from event sequences, so encoding the
 * same events again yields the same chunks, which is what makes a resumed stream a replay.
 */
export class UIMessageEncoder {
  readonly #state = createUIMessageState();
  readonly #runId: string;
  readonly #sessionId: string;

  constructor(run: { readonly runId: string; readonly sessionId: string }) {
    this.#runId = run.runId;
    this.#sessionId = run.sessionId;
  }

  /** The `start` chunk of every stream of this run. */
  start(): UIMessageChunk {
    return { type: 'start', messageId: this.#runId, messageMetadata: { runId: this.#runId, sessionId: this.#sessionId } };
  }

  /** The chunks of one recorded event (often none). */
  encode(event: AgentEvent, sequence: number): UIMessageChunk[] {
    const state = this.#state;
    if (!isKnownAgentEvent(event)) return [];
    switch (event.type) {
      case 'turn_start':
        return projectTurnStart(state, event.payload.retry === true);
      case 'turn_end':
        return projectTurnEnd(state);
      case 'text_delta':
        return projectTextDelta(state, event.payload.text, sequence);
      case 'reasoning_delta':
        return projectReasoningDelta(state, event.payload.text, sequence);
      case 'tool_input_delta':
        return projectToolInputDelta(state, event.payload.tool_id, event.payload.tool_name ?? '', event.payload.delta);
      case 'tool_start':
        return isNestedToolEvent(event.payload) ? [] : projectToolStart(state, event.payload.tool_id, event.payload.tool_name, event.payload.args);
      case 'tool_end':
        if (isNestedToolEvent(event.payload)) return [];
        return projectToolEnd(state, event.payload.tool_id, event.payload.tool_name, {
          output: event.payload.output,
          exitCode: event.payload.exit_code,
          durationMs: event.payload.duration_ms,
          ...(event.payload.metadata === undefined ? {} : { metadata: event.payload.metadata }),
          ...(event.payload.artifacts === undefined ? {} : { artifacts: event.payload.artifacts }),
        });
      case 'confirmation_required':
        return projectConfirmationRequired(state, event.payload.tool_id, event.payload.tool_name, event.payload.args, event.payload.confirmation_id ?? event.payload.tool_id, event.payload.notice);
      case 'confirmation_received':
        return projectConfirmationAnswer(state, event.payload.tool_id, event.payload.approved, event.payload.reason);
      case 'confirmation_timeout':
        return projectConfirmationAnswer(state, event.payload.tool_id, false, event.payload.action === 'expired_on_resume' ? 'expired' : 'timed out');
      case 'task_updated':
        return projectPlan(event.payload.plan);
      case 'planning_end':
        return event.payload.plan === undefined ? [] : projectPlan(event.payload.plan);
      case 'subagent_start':
        return projectSubagent('start', event.payload, sequence);
      case 'subagent_progress':
        return projectSubagent('progress', event.payload, sequence);
      case 'subagent_end':
        return projectSubagent('end', event.payload, sequence);
      case 'agent_end':
        return projectVerification(event.payload.verification_summary);
      case 'error':
      case 'permission_denied':
      case 'budget_threshold_hit':
      case 'context_compacted':
      case 'persistence_failed':
        return projectNotice(event.type, event.payload, sequence);
      case 'agent_start':
      case 'tool_execution_start':
      case 'tool_output_delta':
      case 'planning_start':
      case 'step_start':
      case 'step_end':
      case 'mcp_tools_changed':
        return [];
      default:
        return unhandledEvent(event);
    }
  }

  /** A retention gap (events evicted before they were read): a notice, then the message goes on. */
  gap(firstAvailableSequence: number): UIMessageChunk[] {
    return [{ type: 'data-notice', id: `gap-${firstAvailableSequence}`, data: { event: 'gap', firstAvailableSequence } }];
  }

  /** The end of a stream that stops at a pending approval: the client answers it with its next request. */
  pause(lastSequence: number): UIMessageChunk[] {
    return [{ type: 'finish', finishReason: 'tool-calls', messageMetadata: { runId: this.#runId, sessionId: this.#sessionId, status: 'running', lastSequence } }];
  }

  /** The end of the run: open parts closed, tool parts settled, `error` / `abort` for a failed / cancelled run, `finish` with usage. */
  finish(run: RunRecord): UIMessageChunk[] {
    const chunks = [...projectTurnEnd(this.#state), ...settleToolParts(this.#state, run.status)];
    let finishReason: UIFinishReason = 'stop';
    if (run.status === 'failed') {
      finishReason = 'error';
      chunks.push({ type: 'error', errorText: run.error === null ? 'the run failed' : `${run.error.code}: ${run.error.message}` });
    } else if (run.status === 'cancelled') {
      finishReason = 'other';
      chunks.push({ type: 'abort', reason: 'cancelled' });
    }
    const usage: UIMessageUsage = runUsageTokens(run);
    chunks.push({ type: 'finish', finishReason, messageMetadata: { runId: this.#runId, sessionId: this.#sessionId, status: run.status, lastSequence: run.lastSequence, usage } });
    return chunks;
  }
}
