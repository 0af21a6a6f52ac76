import type { AgentEventOfType } from '@a3s-lab/code';
import type { Style } from './ansi.js';
import { revealInvisible } from './ansi.js';
import type { CliOutput } from './cli-io.js';
import type { LineReader } from './line-reader.js';
import { formatDiff, keyArgument } from './tool-summary.js';

/** How asks are answered: a human at the terminal, `--yes`, or nobody (denied). */
export type ConfirmationMode = 'interactive' | 'auto-approve' | 'deny';

/** What a human answered. */
export type ConfirmationAnswer = 'yes' | 'no' | 'always';

/** The part of a session the handler needs. */
export interface ConfirmingSession {
  confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<boolean>;
}

/** Options of {@link ConfirmationHandler}. */
export interface ConfirmationHandlerOptions {
  readonly session: ConfirmingSession;
  readonly mode: ConfirmationMode;
  /** Reads the human's answers (interactive mode). */
  readonly reader?: LineReader;
  /** Where questions and denial messages go (stderr). */
  readonly prompt: CliOutput;
  readonly style: Style;
  /** Called before a question is printed (stops the spinner, ends partial output). */
  readonly beforeQuestion?: () => void;
}

/** The message (and denial reason) for an ask that nobody can answer. */
export const NON_INTERACTIVE_DENIAL =
  'confirmation needed but stdin is not a terminal; re-run with --yes to approve asks, or with --permission-mode accept-edits|yolo to allow more tools without asking';

/** Parses an answer: y/yes, n/no (and empty: the safe default), a/always; `null` for anything else. */
export function parseAnswer(text: string): ConfirmationAnswer | null {
  const answer = text.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'n' || answer === 'no' || answer === '') return 'no';
  if (answer === 'a' || answer === 'always') return 'always';
  return null;
}

/**
 * Answers `confirmation_required` events through `session.confirmToolUse`, one at a time in
 * arrival order. "always" puts the tool in a session allow-set: later asks for it are approved
 * without a question.
 */
export class ConfirmationHandler {
  /** Tools the human allowed for the rest of the session. */
  readonly allowed = new Set<string>();
  readonly #options: ConfirmationHandlerOptions;
  #queue: Promise<void> = Promise.resolve();
  #cancelled = false;

  constructor(options: ConfirmationHandlerOptions) {
    this.#options = options;
  }

  /** Queues an answer to a `confirmation_required` event. */
  handle(event: AgentEventOfType<'confirmation_required'>): void {
    this.#queue = this.#queue.then(() => this.#answer(event)).catch(() => undefined);
  }

  /** Resolves when every queued ask has been answered. */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** Stops asking (Ctrl-C): an open question is abandoned; cancellation settles the asks. */
  cancel(): void {
    this.#cancelled = true;
    this.#options.reader?.cancel();
  }

  async #answer(event: AgentEventOfType<'confirmation_required'>): Promise<void> {
    const { session, mode, style } = this.#options;
    // The confirmation id names THIS request: an answer can never approve a later call that
    // reuses the tool id. (Older cores send none: the tool id then.)
    const confirmationId = event.payload.confirmation_id;
    const toolId = confirmationId !== undefined && confirmationId.length > 0 ? confirmationId : event.toolId;
    const toolName = event.toolName;
    const shownName = revealInvisible(toolName);
    if (this.#cancelled) return;
    if (this.allowed.has(toolName)) {
      await session.confirmToolUse(toolId, true, `'${toolName}' is always allowed for this session`);
      return;
    }
    if (mode === 'auto-approve') {
      await session.confirmToolUse(toolId, true, 'approved by --yes');
      return;
    }
    const what = describeCall(toolName, event.payload.args);
    if (mode === 'deny') {
      this.#options.prompt.write(`${style.yellow('a3s-code:')} denied ${what}: ${NON_INTERACTIVE_DENIAL}\n`);
      await session.confirmToolUse(toolId, false, NON_INTERACTIVE_DENIAL);
      return;
    }
    this.#options.beforeQuestion?.();
    const reader = this.#options.reader;
    const preview = changePreview(toolName, event.payload.args);
    if (preview.length > 0) this.#options.prompt.write(`${formatDiff(revealInvisible(preview), style, '    ')}\n`);
    // What approving unlocks beyond the call (a `task`: what its child may run without asking).
    const notice = event.payload.notice;
    if (notice !== undefined && notice.length > 0) this.#options.prompt.write(`  ${style.dim(revealInvisible(notice))}\n`);
    for (;;) {
      this.#options.prompt.write(`${style.yellow('?')} ${style.bold('Allow')} ${what}\n  ${style.bold('[y]')}es / ${style.bold('[n]')}o / ${style.bold('[a]')}lways allow ${shownName} this session › `);
      const line = reader === undefined ? null : await reader.next();
      if (line === null) {
        // End of input or Ctrl-C: nobody will answer; an open ask is refused (cancel settles it too).
        this.#options.prompt.write('\n');
        if (!this.#cancelled) await session.confirmToolUse(toolId, false, 'no answer: input closed');
        return;
      }
      const answer = parseAnswer(line);
      if (answer === null) {
        this.#options.prompt.write(`  please answer y, n or a\n`);
        continue;
      }
      if (answer === 'always') this.allowed.add(toolName);
      const approved = answer !== 'no';
      await session.confirmToolUse(toolId, approved, approved ? (answer === 'always' ? `'${toolName}' allowed for this session` : 'approved by the user') : 'denied by the user');
      return;
    }
  }
}

/** Longest change preview shown with a question, in lines. */
const MAX_PREVIEW_LINES = 24;

/**
 * What an `edit` / `write` / `patch` call would change, as diff-like lines (`-old`, `+new`), so
 * the human judges the change rather than a JSON blob. `''` for other tools.
 */
export function changePreview(toolName: string, argsValue: unknown): string {
  const args = typeof argsValue === 'object' && argsValue !== null ? (argsValue as Record<string, unknown>) : {};
  const text = (name: string): string | undefined => (typeof args[name] === 'string' ? args[name] : undefined);
  const prefixed = (value: string, mark: string): string[] => value.replace(/\n$/, '').split('\n').map((line) => `${mark}${line}`);
  let lines: string[] = [];
  if (toolName === 'edit' && text('old_string') !== undefined && text('new_string') !== undefined) {
    lines = [...prefixed(text('old_string') as string, '-'), ...prefixed(text('new_string') as string, '+')];
  } else if (toolName === 'write' && text('content') !== undefined) {
    lines = prefixed(text('content') as string, '+');
  } else if (toolName === 'patch' && text('diff') !== undefined) {
    lines = (text('diff') as string).replace(/\n$/, '').split('\n');
  }
  if (lines.length > MAX_PREVIEW_LINES) lines = [...lines.slice(0, MAX_PREVIEW_LINES), ` … ${lines.length - MAX_PREVIEW_LINES} more lines`];
  return lines.join('\n');
}

/**
 * Most characters of a command or of the arguments shown with a question. Far above what fits
 * a tool line: a human approves what they read, so nothing may hide past a short cut.
 */
export const MAX_ASKED_TEXT_CHARS = 8_000;

/** `text` without control characters, cut at {@link MAX_ASKED_TEXT_CHARS} with a note of what was left out. */
function askedText(text: string): string {
  const safe = revealInvisible(text);
  if (safe.length <= MAX_ASKED_TEXT_CHARS) return safe;
  return `${safe.slice(0, MAX_ASKED_TEXT_CHARS)}… (${safe.length - MAX_ASKED_TEXT_CHARS} more characters not shown)`;
}

/**
 * `bash to run: npm test` or `edit on src/a.ts` (+ the arguments) — what the human is asked
 * about. The command and the arguments are shown whole (up to {@link MAX_ASKED_TEXT_CHARS}); a
 * multi-line command keeps its lines, indented.
 */
export function describeCall(rawToolName: string, args: unknown): string {
  const key = revealInvisible(keyArgument(rawToolName, args));
  const toolName = revealInvisible(rawToolName);
  if (rawToolName === 'bash') {
    const command = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)['command'] : undefined;
    if (typeof command !== 'string') return `bash to run: ${key}`;
    const shown = askedText(command.replace(/\n+$/, ''));
    return shown.includes('\n') ? `bash to run:\n${shown.split('\n').map((line) => `    ${line}`).join('\n')}` : `bash to run: ${shown}`;
  }
  if (changePreview(rawToolName, args) !== '') return `${toolName} on ${key}`;
  let json = '';
  try {
    json = JSON.stringify(args) ?? '';
  } catch {
    json = '';
  }
  // JSON escapes C0 controls but not the C1 ones (an 8-bit CSI).
  json = askedText(json);
  return `${toolName}${key === '' ? '' : ` on ${key}`}${json === '' || json === '{}' ? '' : `\n  args: ${json}`}`;
}
