import { openToolPart, projectToolStart } from './project-tool-call.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import type { UIMessageState } from './ui-message-state.js';

/**
 * `confirmation_required`: `tool-approval-request` on the call's tool part, the approval id
 * being the confirmation id (what the client's answer names). A confirmation for a call this
 * run's model did not make (a subagent's child call asking the same human) gets a tool part of
 * its own first, so it can be answered the same way.
 */
export function projectConfirmationRequired(state: UIMessageState, toolCallId: string, toolName: string, args: unknown, approvalId: string, notice: string | undefined): UIMessageChunk[] {
  const foreign = !state.tools.has(toolCallId);
  const { part, chunks } = openToolPart(state, toolCallId, toolName, foreign);
  if (part.phase === 'input-streaming') chunks.push(...projectToolStart(state, toolCallId, toolName, args));
  if (part.phase === 'done') return chunks;
  part.phase = 'asked';
  part.approvalId = approvalId;
  chunks.push({ type: 'tool-approval-request', approvalId, toolCallId, ...(notice === undefined ? {} : { reason: notice }) });
  return chunks;
}

/**
 * `confirmation_received` / `confirmation_timeout`: the recorded answer, whoever gave it (this
 * client, another tab, the API), as `tool-approval-response`. A timeout is a denial with reason
 * `timed out`. A subagent's call gets its final state here (its result is the subagent's).
 */
export function projectConfirmationAnswer(state: UIMessageState, toolCallId: string, approved: boolean, reason: string | undefined): UIMessageChunk[] {
  const part = state.tools.get(toolCallId);
  if (part === undefined || part.phase !== 'asked' || part.approvalId === null) return [];
  part.phase = 'answered';
  part.approved = approved;
  const chunks: UIMessageChunk[] = [{ type: 'tool-approval-response', approvalId: part.approvalId, approved, ...(reason === undefined ? {} : { reason }) }];
  if (part.foreign) {
    part.phase = 'done';
    chunks.push(approved ? { type: 'tool-output-available', toolCallId, output: { approved: true, note: 'approved; the call runs inside the subagent' } } : { type: 'tool-output-denied', toolCallId });
  }
  return chunks;
}
