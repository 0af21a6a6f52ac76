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
  const a = splitLinesKeepEol(before);
  const b = splitLinesKeepEol(after);
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
    parts.push(`@@ -${rangeText(aStart, aEnd - aStart)} +${rangeText(bStart, bEnd - bStart)} @@\n`);
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
