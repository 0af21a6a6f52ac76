import type { ChangeBlock } from './line-diff.js';
import { diffLines, splitLinesKeepEol } from './line-diff.js';

/** Options of {@link createUnifiedDiff}. */
export interface UnifiedDiffOptions {
  /** Context lines around each change. Default 3. */
  readonly context?: number;
  /** The file did not exist before (`--- /dev/null`). Default false. */
  readonly created?: boolean;
  /** The file no longer exists after (`+++ /dev/null`). Default false. */
  readonly deleted?: boolean;
}

/** A unified diff with its line statistics. */
export interface UnifiedDiff {
  readonly text: string;
  readonly additions: number;
  readonly deletions: number;
  readonly hunks: number;
}

const NO_NEWLINE = '\\ No newline at end of file\n';

/**
 * The unified diff (`git diff` shape, `a/` and `b/` prefixes) turning `before` into `after`.
 * Lines keep their own terminators, so CRLF lines stay CRLF and a missing final newline gets the
 * `\ No newline at end of file` marker. Identical texts give an empty diff.
 */
export function createUnifiedDiff(path: string, before: string, after: string, options: UnifiedDiffOptions = {}): UnifiedDiff {
  const context = options.context ?? 3;
  // Only the changed window (plus context) is split into lines: a one-line edit of a 10 MB file
  // must not build two 150k-element line arrays.
  const window = changedWindow(before, after, context);
  const a = splitLinesKeepEol(before.slice(window.start, before.length - window.suffix));
  const b = splitLinesKeepEol(after.slice(window.start, after.length - window.suffix));
  const lineOffset = window.lineOffset;
  const blocks = diffLines(a, b);
  if (blocks.length === 0) return { text: '', additions: 0, deletions: 0, hunks: 0 };
  const parts: string[] = [`--- ${options.created === true ? '/dev/null' : `a/${path}`}\n`, `+++ ${options.deleted === true ? '/dev/null' : `b/${path}`}\n`];
  let additions = 0;
  let deletions = 0;
  const groups = groupBlocks(blocks, context);
  for (const group of groups) {
    const first = group[0] as ChangeBlock;
    const last = group[group.length - 1] as ChangeBlock;
    const aStart = Math.max(0, first.aStart - context);
    const aEnd = Math.min(a.length, last.aEnd + context);
    const bStart = first.bStart - (first.aStart - aStart);
    const bEnd = last.bEnd + (aEnd - last.aEnd);
    parts.push(`@@ -${rangeText(lineOffset + aStart, aEnd - aStart)} +${rangeText(lineOffset + bStart, bEnd - bStart)} @@\n`);
    let cursor = aStart;
    for (const block of group) {
      for (let i = cursor; i < block.aStart; i += 1) parts.push(lineText(' ', a[i] as string));
      for (let i = block.aStart; i < block.aEnd; i += 1) parts.push(lineText('-', a[i] as string));
      for (let i = block.bStart; i < block.bEnd; i += 1) parts.push(lineText('+', b[i] as string));
      deletions += block.aEnd - block.aStart;
      additions += block.bEnd - block.bStart;
      cursor = block.aEnd;
    }
    for (let i = cursor; i < aEnd; i += 1) parts.push(lineText(' ', a[i] as string));
  }
  return { text: parts.join(''), additions, deletions, hunks: groups.length };
}

function groupBlocks(blocks: readonly ChangeBlock[], context: number): ChangeBlock[][] {
  const groups: ChangeBlock[][] = [];
  for (const block of blocks) {
    const group = groups[groups.length - 1];
    const previous = group?.[group.length - 1];
    if (group !== undefined && previous !== undefined && block.aStart - previous.aEnd <= 2 * context) group.push(block);
    else groups.push([block]);
  }
  return groups;
}

function rangeText(start: number, count: number): string {
  // Unified convention: an empty range names the line BEFORE it (0 = before the first line).
  return `${count === 0 ? start : start + 1},${count}`;
}

function lineText(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n${NO_NEWLINE}`;
}

/**
 * The region of `a`/`b` worth diffing: a common prefix and suffix (whole lines, minus `context`
 * lines kept for hunk context) are cut off. `start` is the char offset (same in both texts),
 * `suffix` the char length cut from the end of both, `lineOffset` the lines before `start`.
 */
function changedWindow(a: string, b: string, context: number): { start: number; suffix: number; lineOffset: number } {
  const max = Math.min(a.length, b.length);
  let prefix = 0;
  const CHUNK = 65536;
  while (prefix + CHUNK <= max && a.slice(prefix, prefix + CHUNK) === b.slice(prefix, prefix + CHUNK)) prefix += CHUNK;
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  const room = max - prefix;
  while (suffix + CHUNK <= room && a.slice(a.length - suffix - CHUNK, a.length - suffix) === b.slice(b.length - suffix - CHUNK, b.length - suffix)) suffix += CHUNK;
  while (suffix < room && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix += 1;
  // Snap the prefix back to a line start, then keep `context` more lines.
  let start = prefix === 0 ? 0 : a.lastIndexOf('\n', prefix - 1) + 1;
  for (let i = 0; i < context && start > 0; i += 1) start = a.lastIndexOf('\n', start - 2) + 1;
  // Snap the suffix forward so it begins at a line start, then keep `context` more lines.
  let suffixStart = a.length - suffix;
  if (suffixStart < a.length) {
    // Always move past the next newline: it lies inside the common suffix, so the cut is at a
    // line start in BOTH texts (a newline just before the suffix may exist in only one of them).
    const newline = a.indexOf('\n', suffixStart);
    suffixStart = newline === -1 ? a.length : newline + 1;
  }
  for (let i = 0; i < context && suffixStart < a.length; i += 1) {
    const newline = a.indexOf('\n', suffixStart);
    suffixStart = newline === -1 ? a.length : newline + 1;
  }
  const cut = Math.max(0, a.length - Math.max(suffixStart, start));
  let lineOffset = 0;
  for (let at = a.indexOf('\n'); at !== -1 && at < start; at = a.indexOf('\n', at + 1)) lineOffset += 1;
  return { start, suffix: Math.min(cut, b.length - start), lineOffset };
}
