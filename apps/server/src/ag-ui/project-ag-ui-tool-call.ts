import { EventType } from '@ag-ui/core';
import type { AGUIEvent } from '@ag-ui/core';
import type { AgUiState, AgUiToolCall } from './ag-ui-state.js';
import { closeAgUiMessages } from './project-ag-ui-text.js';

function open(state: AgUiState, toolCallId: string, toolName: string): { call: AgUiToolCall; events: AGUIEvent[] } {
  const existing = state.tools.get(toolCallId);
  if (existing !== undefined) return { call: existing, events: [] };
  const call: AgUiToolCall = { name: toolName, ended: false, resulted: false, approved: null, reason: null };
  state.tools.set(toolCallId, call);
  return { call, events: [...closeAgUiMessages(state), { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: toolName }] };
}

/** `tool_input_delta` as TOOL_CALL_START (once) and TOOL_CALL_ARGS. */
export function projectAgUiToolArgs(state: AgUiState, toolCallId: string, toolName: string, delta: string): AGUIEvent[] {
  const { call, events } = open(state, toolCallId, toolName);
  if (!call.ended && delta.length > 0) events.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta });
  return events;
}

/**
 * `tool_start` (or a confirmation of a call not seen yet): the complete arguments. A call whose
 * arguments were not streamed gets them as one TOOL_CALL_ARGS; then TOOL_CALL_END.
 */
export function projectAgUiToolStart(state: AgUiState, toolCallId: string, toolName: string, args: unknown): AGUIEvent[] {
  const streamed = state.tools.has(toolCallId);
  const { call, events } = open(state, toolCallId, toolName);
  if (call.ended) return events;
  if (!streamed) events.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(args ?? {}) });
  events.push({ type: EventType.TOOL_CALL_END, toolCallId });
  call.ended = true;
  return events;
}

/** The TOOL_CALL_RESULT of a call: its output, or why it did not run. */
export function agUiToolResult(toolCallId: string, content: string): AGUIEvent {
  return { type: EventType.TOOL_CALL_RESULT, messageId: `${toolCallId}-result`, toolCallId, content, role: 'tool' };
}

/** `tool_end` as TOOL_CALL_RESULT: the output, or `Denied: ...` / `Not run: ...` for a call that never ran. */
export function projectAgUiToolEnd(state: AgUiState, toolCallId: string, toolName: string, output: string, exitCode: number): AGUIEvent[] {
  const events = projectAgUiToolStart(state, toolCallId, toolName, {});
  const call = state.tools.get(toolCallId);
  if (call === undefined || call.resulted) return events;
  call.resulted = true;
  if (call.approved === false) events.push(agUiToolResult(toolCallId, `${call.reason === 'timed out' ? 'Not run: the confirmation timed out' : 'Denied'}${call.reason !== null && call.reason !== 'timed out' ? `: ${call.reason}` : ''}`));
  else events.push(agUiToolResult(toolCallId, exitCode === 0 || output.length > 0 ? output : `exit code ${exitCode}`));
  return events;
}

/** At the end of the run: calls still open are ended, and get a result saying the run ended first. */
export function settleAgUiToolCalls(state: AgUiState, status: string): AGUIEvent[] {
  const events: AGUIEvent[] = [];
  for (const [toolCallId, call] of state.tools) {
    if (!call.ended) events.push({ type: EventType.TOOL_CALL_END, toolCallId });
    if (!call.resulted) events.push(agUiToolResult(toolCallId, call.approved === false ? 'Denied' : `Not finished: the run ended (${status})`));
    call.ended = true;
    call.resulted = true;
  }
  return events;
}
