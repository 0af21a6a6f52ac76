import type { Style } from './ansi.js';
import { sanitizeTerminalText } from './ansi.js';
import { truncateToWidth } from './display-width.js';

/** Longest key argument shown on a tool line. */
export const MAX_KEY_ARGUMENT_CHARS = 80;

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Collapses whitespace (a multi-line command becomes one line), drops control characters and
 * escape sequences, and cuts text wider than `max` display columns with `…`.
 */
export function oneLine(text: string, max = MAX_KEY_ARGUMENT_CHARS): string {
  const flat = sanitizeTerminalText(text).replace(/\s+/g, ' ').trim();
  return truncateToWidth(flat, max);
}

/**
 * The one argument that says what a call does: the command of `bash`, the path of file tools,
 * the pattern of searches... Falls back to the first string argument.
 */
export function keyArgument(toolName: string, argsValue: unknown): string {
  const args = asRecord(argsValue);
  const pick = (...names: string[]): string | undefined => names.map((n) => asString(args[n])).find((v) => v !== undefined);
  let key: string | undefined;
  switch (toolName) {
    case 'bash':
      key = pick('command');
      break;
    case 'read':
      key = pick('file_path') ?? (Array.isArray(args['files']) ? `${args['files'].length} files` : undefined);
      break;
    case 'write':
    case 'edit':
    case 'patch':
      key = pick('file_path');
      break;
    case 'grep': {
      const pattern = pick('pattern');
      const where = pick('path', 'glob');
      key = pattern === undefined ? undefined : where === undefined ? pattern : `${pattern}  in ${where}`;
      break;
    }
    case 'glob':
      key = pick('pattern');
      break;
    case 'ls':
      key = pick('path') ?? '.';
      break;
    case 'git':
      key = [pick('command'), pick('subcommand')].filter((v) => v !== undefined).join(' ');
      break;
    case 'program':
      key = pick('path') ?? 'script';
      break;
    case 'batch':
      key = Array.isArray(args['invocations']) ? `${args['invocations'].length} calls` : undefined;
      break;
    case 'web_fetch':
      key = pick('url');
      break;
    case 'task':
      key = pick('description', 'agent');
      break;
    default:
      key = Object.values(args).map(asString).find((v) => v !== undefined);
  }
  return oneLine(key ?? '');
}

/** `0.4s`, `12s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0.0s';
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** What a finished call is shown as. */
export interface ToolLineInput {
  readonly toolName: string;
  readonly args: unknown;
  readonly exitCode: number;
  readonly durationMs: number;
  /** `tool_end.error_kind.type` (`permission_denied`, `timeout`, `cancelled`...). */
  readonly errorKind?: string;
  /** The reason of a `permission_denied`. */
  readonly deniedReason?: string;
  /** Nesting depth (calls made inside `program` / `batch`). */
  readonly depth?: number;
}

/** One compact line per call: `✓ bash  node test.js  0.4s` / `✗ bash  npm test  1.2s  exit 1`. */
export function formatToolLine(input: ToolLineInput, style: Style): string {
  const ok = input.exitCode === 0;
  const mark = ok ? style.green('✓') : style.red('✗');
  const key = keyArgument(input.toolName, input.args);
  const name = sanitizeTerminalText(input.toolName);
  let status: string;
  if (ok) status = '';
  else if (input.errorKind === 'permission_denied') status = style.red(`denied${input.deniedReason === undefined ? '' : `: ${oneLine(input.deniedReason, 120)}`}`);
  else if (input.errorKind === 'timeout') status = style.red('timed out');
  else if (input.errorKind === 'cancelled') status = style.yellow('cancelled');
  else status = style.red(`exit ${input.exitCode}`);
  const indent = '  '.repeat(input.depth ?? 0);
  const parts = [`${indent}${mark} ${style.bold(name)}`, key === '' ? undefined : style.cyan(key), style.dim(formatDuration(input.durationMs)), status === '' ? undefined : status];
  return parts.filter((p) => p !== undefined).join('  ');
}

/**
 * A unified diff for the terminal: headers bold, hunks cyan, additions green, deletions red.
 * Each line is indented so it reads as part of the tool call above it.
 */
export function formatDiff(diff: string, style: Style, indent = '    '): string {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return lines
    .map((raw) => {
      // Diff lines are file content: whatever the file holds must not reach the terminal raw.
      const line = sanitizeTerminalText(raw);
      if (line.startsWith('+++') || line.startsWith('---')) return indent + style.bold(line);
      if (line.startsWith('@@')) return indent + style.cyan(line);
      if (line.startsWith('+')) return indent + style.green(line);
      if (line.startsWith('-')) return indent + style.red(line);
      return indent + style.dim(line);
    })
    .join('\n');
}

/**
 * The few lines of a `bash` result worth showing under its tool line: the command's own output
 * (the tool's `stdout:` / `stderr:` / `exit code:` framing removed), at most `maxLines` from the
 * end, since the end of a test run is where the verdict is (`maxLines + 1` lines are shown whole).
 */
export function outputPreview(output: string, maxLines = 6): string[] {
  const lines = output.split('\n').filter((line) => line.length > 0 && line !== 'stdout:' && line !== 'stderr:' && !/^exit code: /.test(line) && line !== '(no output)');
  // The "… N more lines" marker takes a line itself: hiding one line would save nothing and hide
  // what may matter (the demo's fixed test is the first line of the second run).
  if (lines.length <= maxLines + 1) return lines.map((l) => oneLine(l, 160));
  return [`… ${lines.length - maxLines} more line${lines.length - maxLines === 1 ? "" : "s"}`, ...lines.slice(-maxLines).map((l) => oneLine(l, 160))];
}
