import { closeOpenParts } from './project-text.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import type { ToolPartState, UIMessageState } from './ui-message-state.js';

/** Opens the tool part of `toolCallId` (closing the text before it) unless it is open already. */
export function openToolPart(state: UIMessageState, toolCallId: string, toolName: string, foreign = false): { part: ToolPartState; chunks: UIMessageChunk[] } {
  const existing = state.tools.get(toolCallId);
  if (existing !== undefined) return { part: existing, chunks: [] };
  const part: ToolPartState = { toolName, phase: 'input-streaming', approvalId: null, approved: null, foreign };
  state.tools.set(toolCallId, part);
  state.stepTools.push(toolCallId);
  return { part, chunks: [...closeOpenParts(state), { type: 'tool-input-start', toolCallId, toolName }] };
}

/** `tool_input_delta`: the model streams the call's JSON arguments. */
export function projectToolInputDelta(state: UIMessageState, toolCallId: string, toolName: string, delta: string): UIMessageChunk[] {
  const { part, chunks } = openToolPart(state, toolCallId, toolName);
  if (part.phase === 'input-streaming' && delta.length > 0) chunks.push({ type: 'tool-input-delta', toolCallId, inputTextDelta: delta });
  return chunks;
}

/** `tool_start`: the call's complete input. */
export function projectToolStart(state: UIMessageState, toolCallId: string, toolName: string, input: unknown): UIMessageChunk[] {
  const { part, chunks } = openToolPart(state, toolCallId, toolName);
  if (part.phase !== 'input-streaming') return chunks;
  part.phase = 'input';
  chunks.push({ type: 'tool-input-available', toolCallId, toolName, input });
  return chunks;
}

/** What `tool-output-available` carries for a call that ran. */
export interface ToolOutput {
  readonly output: string;
  readonly exitCode: number;
  readonly durationMs: number;
  readonly metadata?: unknown;
  readonly artifacts?: unknown;
}

/**
 * `tool_end`: a denied or timed-out call is `tool-output-denied` (it never ran), exit code 0 is
 * `tool-output-available` with {@link ToolOutput}, anything else `tool-output-error`.
 */
export function projectToolEnd(state: UIMessageState, toolCallId: string, toolName: string, result: ToolOutput): UIMessageChunk[] {
  const chunks = state.tools.has(toolCallId) ? [] : projectToolStart(state, toolCallId, toolName, {});
  const part = state.tools.get(toolCallId);
  if (part === undefined || part.phase === 'done') return chunks;
  part.phase = 'done';
  if (part.approved === false) chunks.push({ type: 'tool-output-denied', toolCallId });
  else if (result.exitCode === 0) chunks.push({ type: 'tool-output-available', toolCallId, output: result });
  else chunks.push({ type: 'tool-output-error', toolCallId, errorText: result.output.length > 0 ? result.output : `exit code ${result.exitCode}` });
  return chunks;
}

/** The end of the run: every tool part still open gets a final state (denied, or an error saying the run ended first). */
export function settleToolParts(state: UIMessageState, status: string): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  for (const [toolCallId, part] of state.tools) {
    if (part.phase === 'done') continue;
    part.phase = 'done';
    if (part.approved === false) chunks.push({ type: 'tool-output-denied', toolCallId });
    else chunks.push({ type: 'tool-output-error', toolCallId, errorText: `the run ended (${status}) before this call finished` });
  }
  return chunks;
}
