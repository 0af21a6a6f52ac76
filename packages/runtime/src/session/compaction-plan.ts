import type { LlmContentPart, LlmMessage } from '@a3s-lab/code-core';
import { assertNever } from '@a3s-lab/code-core/util';
import { estimateMessageTokens } from './token-estimate.js';

/** First line of the user message that replaces a compacted prefix. */
export const COMPACTION_SUMMARY_MARKER = '[Summary of the earlier conversation]';

// Heads the verbatim copy of the latest user prompt when that prompt fell into the prefix.
const CURRENT_REQUEST_MARKER = '[The current request, verbatim]';

/**
 * Where the retained suffix starts: the earliest index whose suffix fits `budget` (uncalibrated
 * tokens), or the latest possible cut when none fits. `null` when the history cannot be cut.
 *
 * A cut is only allowed right before an assistant message. The summary that replaces the prefix
 * is a user message, so alternation stays valid without synthetic messages; and a tool call's
 * results always sit in the user message right after the call, so no call is separated from its
 * result. Index 0 is never a cut (nothing would be dropped).
 */
export function selectRetainedSuffix(history: readonly LlmMessage[], budget: number): number | null {
  let suffixTokens = 0;
  let latest: number | null = null;
  let chosen: number | null = null;
  for (let i = history.length - 1; i >= 1; i -= 1) {
    const message = history[i] as LlmMessage;
    suffixTokens += estimateMessageTokens(message);
    if (message.role !== 'assistant' || (history[i - 1] as LlmMessage).role !== 'user') continue;
    latest ??= i;
    if (suffixTokens > budget) break;
    chosen = i;
  }
  return chosen ?? latest;
}

/** True for a user message that is a prompt (no tool results), i.e. what a person asked. */
function isPrompt(message: LlmMessage): boolean {
  return message.role === 'user' && !message.content.some((p) => p.type === 'tool_result');
}

/** True for a text part that an earlier compaction wrote (its summary or its verbatim prompt copy). */
function isCompactionText(part: LlmContentPart): boolean {
  return part.type === 'text' && (part.text.startsWith(COMPACTION_SUMMARY_MARKER) || part.text.startsWith(CURRENT_REQUEST_MARKER));
}

/**
 * The parts of the latest user prompt inside `prefix` that must survive compaction verbatim:
 * its text and images, without any earlier summary. Empty when the prefix holds no prompt.
 */
export function latestPromptParts(prefix: readonly LlmMessage[]): LlmContentPart[] {
  for (let i = prefix.length - 1; i >= 0; i -= 1) {
    const message = prefix[i] as LlmMessage;
    if (!isPrompt(message)) continue;
    // An earlier compaction's head holds its summary, then the prompt copied verbatim.
    const own = message.content.filter((p) => !isCompactionText(p));
    if (own.length > 0) return [...own];
  }
  return [];
}

/**
 * The history after compaction: one user message (summary, plus the latest prompt verbatim when
 * it was in the dropped prefix) followed by the retained suffix, which starts with an assistant
 * message (see {@link selectRetainedSuffix}).
 */
export function buildCompactedHistory(history: readonly LlmMessage[], cut: number, summary: string, promptInSuffix: boolean): LlmMessage[] {
  const prefix = history.slice(0, cut);
  const content: LlmContentPart[] = [{ type: 'text', text: `${COMPACTION_SUMMARY_MARKER}\n${summary.trim()}` }];
  if (!promptInSuffix) {
    const prompt = latestPromptParts(prefix);
    if (prompt.length > 0) content.push({ type: 'text', text: CURRENT_REQUEST_MARKER }, ...prompt);
  }
  return [{ role: 'user', content }, ...history.slice(cut)];
}

/** True when the retained suffix holds a user prompt (so the latest prompt needs no copy). */
export function suffixHasPrompt(history: readonly LlmMessage[], cut: number): boolean {
  for (let i = cut; i < history.length; i += 1) if (isPrompt(history[i] as LlmMessage)) return true;
  return false;
}

/**
 * The dropped prefix as a plain-text transcript for the summariser. Plain text, not messages:
 * the summarisation request offers no tools, and providers refuse tool blocks without tool
 * definitions. Each block is bounded so the request fits the window; the middle of a long block
 * is elided because its head and tail carry the most meaning (command, then outcome).
 */
export function renderTranscript(prefix: readonly LlmMessage[], maxChars: number): string {
  const blocks: string[] = [];
  for (const message of prefix) {
    for (const part of message.content) {
      const block = renderPart(message.role, part);
      if (block !== null) blocks.push(block);
    }
  }
  const perBlock = Math.max(200, Math.floor(maxChars / Math.max(1, blocks.length)));
  let text = blocks.map((b) => elide(b, Math.min(perBlock, 4000))).join('\n\n');
  // Many small blocks can still exceed the budget: keep the start (the goal) and the end (the state).
  if (text.length > maxChars) text = elide(text, maxChars);
  return text;
}

function renderPart(role: LlmMessage['role'], part: LlmContentPart): string | null {
  const who = role === 'user' ? 'User' : 'Assistant';
  switch (part.type) {
    case 'text':
      return `${part.text.startsWith(COMPACTION_SUMMARY_MARKER) ? 'Earlier summary' : who}: ${part.text}`;
    case 'image':
      return `${who}: [image ${part.mediaType}]`;
    case 'tool_call':
      return `Assistant called ${part.name}(${JSON.stringify(part.input) ?? ''}) [${part.id}]`;
    case 'tool_result':
      return `Tool result [${part.toolCallId}]${part.isError ? ' (error)' : ''}: ${part.content}`;
    case 'reasoning':
      // Reasoning is the model's scratch work; its conclusions are in the text and calls.
      return null;
    default:
      return assertNever(part, 'content part');
  }
}

function elide(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n[... ${text.length - max} characters elided ...]\n`;
  const keep = Math.max(0, max - note.length);
  const head = Math.ceil(keep / 2);
  return text.slice(0, head) + note + text.slice(text.length - (keep - head));
}
