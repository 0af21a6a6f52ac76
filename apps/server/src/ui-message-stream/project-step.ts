import { closeOpenParts } from './project-text.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import type { UIMessageState } from './ui-message-state.js';

/**
 * `turn_start`: one model call is one step of the message. A retried turn (`retry: true`)
 * replaces what its failed attempt streamed: `reset-step` removes the step's parts.
 */
export function projectTurnStart(state: UIMessageState, retry: boolean): UIMessageChunk[] {
  if (state.inStep && retry) {
    const chunks = closeOpenParts(state);
    for (const id of state.stepTools) state.tools.delete(id);
    state.stepTools = [];
    chunks.push({ type: 'reset-step' });
    return chunks;
  }
  if (state.inStep) return [];
  state.inStep = true;
  state.stepTools = [];
  return [{ type: 'start-step' }];
}

/** `turn_end` (and the end of the run): closes the open parts and the step. */
export function projectTurnEnd(state: UIMessageState): UIMessageChunk[] {
  const chunks = closeOpenParts(state);
  if (state.inStep) chunks.push({ type: 'finish-step' });
  state.inStep = false;
  state.stepTools = [];
  return chunks;
}
