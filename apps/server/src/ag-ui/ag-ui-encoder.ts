import { EventType } from '@ag-ui/core';
import type { AGUIEvent, Interrupt } from '@ag-ui/core';
import { isKnownAgentEvent } from '@a3s-lab/code';
import type { AgentEvent, RunRecord } from '@a3s-lab/code';
import { isNestedToolEvent, unhandledEvent } from '../projection-scope.js';
import { runUsageTokens } from '../run-usage-tokens.js';
import { createAgUiState } from './ag-ui-state.js';
import { agUiCustom } from './project-ag-ui-custom.js';
import { projectAgUiPlan } from './project-ag-ui-plan.js';
import { closeAgUiMessages, projectAgUiReasoning, projectAgUiText } from './project-ag-ui-text.js';
import { projectAgUiToolArgs, projectAgUiToolEnd, projectAgUiToolStart, settleAgUiToolCalls } from './project-ag-ui-tool-call.js';

/** What an interrupt for a confirmation expects back in `resume[].payload`. */
export const CONFIRMATION_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string', maxLength: 2000 } },
  required: ['approved'],
  additionalProperties: false,
} as const;


/**
 * Projects one run's recorded v1 events onto AG-UI events for one AG-UI run (`threadId` = the
 * session id, `runId` = the client's run id; a confirmation ends the AG-UI run with an
 * interrupt and the next one, resuming it, continues the same A3S run). Stateful; ids come from
 * event sequences.
 */
export class AgUiEncoder {
  readonly #state = createAgUiState();
  readonly #threadId: string;
  readonly #runId: string;
  readonly #a3sRunId: string;

  constructor(ids: { readonly threadId: string; readonly runId: string; readonly a3sRunId: string }) {
    this.#threadId = ids.threadId;
    this.#runId = ids.runId;
    this.#a3sRunId = ids.a3sRunId;
  }

  /**
   * RUN_STARTED. After priming (a continuation) the earlier AG-UI run ended at its interrupt,
   * which closed its messages and step, and this run snapshots the state again.
   */
  start(): AGUIEvent {
    this.#state.sentState = null;
    this.#state.step = null;
    this.#state.text = null;
    this.#state.reasoning = null;
    return { type: EventType.RUN_STARTED, threadId: this.#threadId, runId: this.#runId, metadata: { a3sRunId: this.#a3sRunId } };
  }

  /** The AG-UI events of one recorded event (often none). */
  encode(event: AgentEvent, sequence: number): AGUIEvent[] {
    const state = this.#state;
    if (!isKnownAgentEvent(event)) return [];
    switch (event.type) {
      case 'turn_start': {
        if (state.step !== null) return [];
        state.step = `turn-${event.payload.turn}`;
        return [{ type: EventType.STEP_STARTED, stepName: state.step }];
      }
      case 'turn_end':
        return this.#closeStep();
      case 'text_delta':
        return projectAgUiText(state, this.#a3sRunId, event.payload.text, sequence);
      case 'reasoning_delta':
        return projectAgUiReasoning(state, this.#a3sRunId, event.payload.text, sequence);
      case 'tool_input_delta':
        return projectAgUiToolArgs(state, event.payload.tool_id, event.payload.tool_name ?? '', event.payload.delta);
      case 'tool_start':
        return isNestedToolEvent(event.payload) ? [] : projectAgUiToolStart(state, event.payload.tool_id, event.payload.tool_name, event.payload.args);
      case 'tool_end':
        return isNestedToolEvent(event.payload) ? [] : projectAgUiToolEnd(state, event.payload.tool_id, event.payload.tool_name, event.payload.output, event.payload.exit_code);
      case 'confirmation_required':
        // The interrupt itself ends the AG-UI run (see `interrupt`); the call is told first.
        return projectAgUiToolStart(state, event.payload.tool_id, event.payload.tool_name, event.payload.args);
      case 'confirmation_received':
      case 'confirmation_timeout': {
        const approved = event.type === 'confirmation_received' ? event.payload.approved : false;
        const reason = event.type === 'confirmation_received' ? (event.payload.reason ?? null) : 'timed out';
        const call = state.tools.get(event.payload.tool_id);
        if (call !== undefined) {
          call.approved = approved;
          call.reason = reason;
        }
        return [agUiCustom('confirmation', { toolCallId: event.payload.tool_id, toolName: event.payload.tool_name, approved, ...(reason === null ? {} : { reason }) })];
      }
      case 'task_updated':
        return projectAgUiPlan(state, event.payload.plan);
      case 'planning_end':
        return event.payload.plan === undefined ? [] : projectAgUiPlan(state, event.payload.plan);
      case 'subagent_start':
      case 'subagent_progress':
      case 'subagent_end':
        return [agUiCustom('subagent', { phase: event.type.slice('subagent_'.length), ...event.payload })];
      case 'agent_end':
        return event.payload.verification_summary === undefined ? [] : [agUiCustom('verification', event.payload.verification_summary)];
      case 'error':
      case 'permission_denied':
      case 'budget_threshold_hit':
      case 'context_compacted':
      case 'persistence_failed':
        return [agUiCustom('notice', { event: event.type, ...event.payload })];
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

  /** Events up to `firstAvailableSequence` were evicted before they were read. */
  gap(firstAvailableSequence: number): AGUIEvent[] {
    return [agUiCustom('notice', { event: 'gap', firstAvailableSequence })];
  }

  /**
   * Ends the AG-UI run at the pending confirmation asked by `event`: RUN_FINISHED with the
   * interrupt outcome (id = the confirmation id, `resume[].payload` = `{ approved, reason? }`).
   */
  interrupt(event: AgentEvent, timestampMs: number): AGUIEvent[] {
    const p = event.payload;
    const toolCallId = String(p['tool_id']);
    const id = typeof p['confirmation_id'] === 'string' ? p['confirmation_id'] : toolCallId;
    const timeoutMs = typeof p['timeout_ms'] === 'number' ? p['timeout_ms'] : 0;
    const interrupt: Interrupt = {
      id,
      reason: 'tool_approval',
      message: typeof p['notice'] === 'string' ? p['notice'] : `Allow ${String(p['tool_name'])}?`,
      toolCallId,
      responseSchema: CONFIRMATION_RESPONSE_SCHEMA,
      ...(timeoutMs > 0 ? { expiresAt: new Date(timestampMs + timeoutMs).toISOString() } : {}),
      metadata: { toolName: p['tool_name'], args: p['args'] },
    };
    return [...this.#closeStep(), { type: EventType.RUN_FINISHED, threadId: this.#threadId, runId: this.#runId, outcome: { type: 'interrupt', interrupts: [interrupt] } }];
  }

  /** The end of the A3S run: RUN_FINISHED (success with the final text and usage, or cancelled) or RUN_ERROR. */
  finish(run: RunRecord): AGUIEvent[] {
    const events = [...this.#closeStep(), ...settleAgUiToolCalls(this.#state, run.status)];
    const usage = [runUsageTokens(run)];
    if (run.status === 'failed') events.push({ type: EventType.RUN_ERROR, message: run.error?.message ?? 'the run failed', ...(run.error === null ? {} : { code: run.error.code }), usage });
    else if (run.status === 'cancelled') events.push({ type: EventType.RUN_FINISHED, threadId: this.#threadId, runId: this.#runId, outcome: { type: 'cancelled' }, usage });
    else events.push({ type: EventType.RUN_FINISHED, threadId: this.#threadId, runId: this.#runId, outcome: { type: 'success' }, result: { text: run.text }, usage });
    return events;
  }

  #closeStep(): AGUIEvent[] {
    const events = closeAgUiMessages(this.#state);
    if (this.#state.step !== null) events.push({ type: EventType.STEP_FINISHED, stepName: this.#state.step });
    this.#state.step = null;
    return events;
  }
}
