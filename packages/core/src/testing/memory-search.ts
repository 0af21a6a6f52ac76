import { CodeError } from '../errors/code-error.js';
import type { SearchLine, SearchOptions, SearchResult } from '../workspace/workspace-backend.js';
import { globToRegExp } from '../glob/glob-to-regexp.js';

/** One file offered to {@link searchMemoryFiles}. */
export interface MemorySearchFile {
  /** Canonical workspace-relative path. */
  readonly path: string;
  /** Path relative to the search root (what a glob filter matches). */
  readonly relative: string;
  readonly content: Uint8Array;
}

const decoder = new TextDecoder('utf-8');
const BINARY_SNIFF_BYTES = 8192;

/** Parses a decimal offset cursor; anything else is an invalid argument. */
export function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) {
    const message = `invalid cursor '${cursor}'`;
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
  return Number(cursor);
}

/**
 * Searches in-memory files with a JS RegExp, with the {@link SearchResult} semantics of the
 * interface: files in path order, binary files skipped, non-content modes build no line text,
 * offset cursors over lines (content) or files (other modes).
 */
export function searchMemoryFiles(files: readonly MemorySearchFile[], options: SearchOptions): SearchResult {
  const regex = compilePattern(options.pattern, options.caseInsensitive === true);
  const globFilter = options.glob === undefined ? null : globToRegExp(options.glob);
  const globOnBaseName = options.glob !== undefined && !options.glob.includes('/');
  const content = options.outputMode === 'content';
  const context = content ? Math.max(0, options.context ?? 0) : 0;
  const lines: SearchLine[] = [];
  const counts: { path: string; count: number }[] = [];
  let totalMatches = 0;
  for (const file of files) {
    if (globFilter !== null) {
      const subject = globOnBaseName ? (file.relative.split('/').pop() ?? file.relative) : file.relative;
      if (!globFilter.test(subject)) continue;
    }
    if (file.content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
    const text = decoder.decode(file.content);
    const fileLines = text.split('\n');
    if (fileLines.length > 1 && fileLines[fileLines.length - 1] === '') fileLines.pop();
    let count = 0;
    const include = content ? new Map<number, boolean>() : null;
    for (let index = 0; index < fileLines.length; index += 1) {
      if (!regex.test(stripCr(fileLines[index] as string))) continue;
      count += 1;
      if (include === null) continue;
      for (let near = Math.max(0, index - context); near <= Math.min(fileLines.length - 1, index + context); near += 1) {
        if (near === index) include.set(near, true);
        else if (!include.has(near)) include.set(near, false);
      }
    }
    if (count === 0) continue;
    totalMatches += count;
    counts.push({ path: file.path, count });
    if (include !== null) {
      for (const index of [...include.keys()].sort((a, b) => a - b)) {
        lines.push({ path: file.path, line: index + 1, text: stripCr(fileLines[index] as string), match: include.get(index) === true });
      }
    }
  }
  const start = parseCursor(options.cursor);
  const limit = Math.max(1, options.limit);
  const total = content ? lines.length : counts.length;
  const end = start + limit;
  const nextCursor = end < total ? String(end) : null;
  const base = { mode: options.outputMode, totalMatches, totalFiles: counts.length, nextCursor };
  return content ? { ...base, lines: lines.slice(start, end) } : { ...base, files: counts.slice(start, end) };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Compiles a ripgrep-style pattern as a JS RegExp (a leading `(?i)` becomes the `i` flag). */
function compilePattern(pattern: string, caseInsensitive: boolean): RegExp {
  let source = pattern;
  let flags = caseInsensitive ? 'i' : '';
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline !== null) {
    source = source.slice(inline[0].length);
    for (const flag of inline[1] ?? '') if ((flag === 'i' || flag === 'm' || flag === 's') && !flags.includes(flag)) flags += flag;
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const message = `invalid regular expression '${pattern}': ${error instanceof Error ? error.message : String(error)}`;
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message }, pattern } });
  }
}
