import { EventType } from '@ag-ui/core';
import type { AGUIEvent } from '@ag-ui/core';
import type { AgUiState } from './ag-ui-state.js';

/** Closes the open text and reasoning messages (before a tool call, a step's end or the run's end). */
export function closeAgUiMessages(state: AgUiState): AGUIEvent[] {
  const events: AGUIEvent[] = [];
  if (state.text !== null) events.push({ type: EventType.TEXT_MESSAGE_END, messageId: state.text });
  if (state.reasoning !== null) events.push({ type: EventType.REASONING_MESSAGE_END, messageId: state.reasoning }, { type: EventType.REASONING_END, messageId: state.reasoning });
  state.text = null;
  state.reasoning = null;
  return events;
}

/** `text_delta` as TEXT_MESSAGE_START (at the first delta, id `<runId>-text-<sequence>`) and TEXT_MESSAGE_CONTENT. */
export function projectAgUiText(state: AgUiState, runId: string, delta: string, sequence: number): AGUIEvent[] {
  const events: AGUIEvent[] = [];
  if (state.reasoning !== null) events.push(...closeAgUiMessages(state));
  if (state.text === null) {
    state.text = `${runId}-text-${sequence}`;
    events.push({ type: EventType.TEXT_MESSAGE_START, messageId: state.text, role: 'assistant' });
  }
  if (delta.length > 0) events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: state.text, delta });
  return events;
}

/** `reasoning_delta` as REASONING_START / REASONING_MESSAGE_START and REASONING_MESSAGE_CONTENT. */
export function projectAgUiReasoning(state: AgUiState, runId: string, delta: string, sequence: number): AGUIEvent[] {
  const events: AGUIEvent[] = [];
  if (state.text !== null) events.push(...closeAgUiMessages(state));
  if (state.reasoning === null) {
    state.reasoning = `${runId}-reasoning-${sequence}`;
    events.push({ type: EventType.REASONING_START, messageId: state.reasoning }, { type: EventType.REASONING_MESSAGE_START, messageId: state.reasoning, role: 'reasoning' });
  }
  if (delta.length > 0) events.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: state.reasoning, delta });
  return events;
}
