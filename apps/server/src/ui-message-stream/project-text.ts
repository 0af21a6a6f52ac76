import type { UIMessageChunk } from './ui-message-chunk.js';
import type { UIMessageState } from './ui-message-state.js';

/** Closes the open text and reasoning parts (before a tool call, a step's end or the finish). */
export function closeOpenParts(state: UIMessageState): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  if (state.text !== null) chunks.push({ type: 'text-end', id: state.text });
  if (state.reasoning !== null) chunks.push({ type: 'reasoning-end', id: state.reasoning });
  state.text = null;
  state.reasoning = null;
  return chunks;
}

/** `text_delta`: a text part (opened at its first delta, id `text-<sequence>`) grows by the delta. */
export function projectTextDelta(state: UIMessageState, text: string, sequence: number): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  if (state.reasoning !== null) {
    chunks.push({ type: 'reasoning-end', id: state.reasoning });
    state.reasoning = null;
  }
  if (state.text === null) {
    state.text = `text-${sequence}`;
    chunks.push({ type: 'text-start', id: state.text });
  }
  if (text.length > 0) chunks.push({ type: 'text-delta', id: state.text, delta: text });
  return chunks;
}

/** `reasoning_delta`: a reasoning part (id `reasoning-<sequence>`) grows by the delta. */
export function projectReasoningDelta(state: UIMessageState, text: string, sequence: number): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  if (state.text !== null) {
    chunks.push({ type: 'text-end', id: state.text });
    state.text = null;
  }
  if (state.reasoning === null) {
    state.reasoning = `reasoning-${sequence}`;
    chunks.push({ type: 'reasoning-start', id: state.reasoning });
  }
  if (text.length > 0) chunks.push({ type: 'reasoning-delta', id: state.reasoning, delta: text });
  return chunks;
}
