import { CodeError } from '@a3s-lab/code-core';
import type { SearchLine, SearchOptions, SearchResult } from '@a3s-lab/code-core';

import { decodeCursor, encodeCursor } from '@a3s-lab/code-core';
import type { EngineMode, EngineSearchRequest, SearchEngine } from './search-engine.js';

/**
 * Runs a search through `engine` and shapes the result for `outputMode`, with cursor pages over
 * items (lines in content mode, files otherwise).
 *
 * - content / files_with_matches: the scan stops as soon as the page is full and one more item
 *   proves there is a next page; `totalMatches` / `totalFiles` then count what was scanned up to
 *   that point (exact when `nextCursor` is null, lower bounds otherwise). In files_with_matches
 *   mode `count` is 1 ("has a match"): ripgrep's `-l` stops reading a file at its first match.
 * - count: every file is scanned; totals are exact.
 * - summary: like count, then the `limit` files with the most matching lines (ties by path);
 *   never paginated.
 *
 * Counts are matching LINES, like `rg --count`.
 */
export async function runSearch(engine: SearchEngine, base: Omit<EngineSearchRequest, 'mode'>, options: SearchOptions): Promise<SearchResult> {
  const limit = checkLimit(options.limit);
  const mode = options.outputMode;
  const engineMode: EngineMode = mode === 'content' ? 'content' : mode === 'files_with_matches' ? 'files' : 'count';
  const query = { p: base.searchPath, r: base.pattern, g: base.glob ?? null, i: base.caseInsensitive, c: base.context, m: mode };
  const offset = mode === 'summary' ? 0 : decodeCursor(options.cursor, query);
  const request: EngineSearchRequest = { ...base, mode: engineMode };

  let totalMatches = 0;
  let totalFiles = 0;
  let lastPath: string | null = null;
  let index = 0;
  let hasMore = false;
  const lines: SearchLine[] = [];
  const files: { path: string; count: number }[] = [];

  scan: for await (const batch of engine.search(request)) {
    for (const record of batch) {
      if (record.kind === 'line') {
        if (index >= offset + limit) {
          hasMore = true;
          break scan;
        }
        if (record.path !== lastPath) {
          lastPath = record.path;
          totalFiles += 1;
        }
        if (record.match) totalMatches += 1;
        if (index >= offset) lines.push({ path: record.path, line: record.line, text: record.text, match: record.match });
      } else {
        if (engineMode === 'files' && index >= offset + limit) {
          hasMore = true;
          break scan;
        }
        totalFiles += 1;
        totalMatches += record.count;
        if (mode === 'summary' || (index >= offset && index < offset + limit)) files.push({ path: record.path, count: record.count });
        else if (index >= offset + limit) hasMore = true;
      }
      index += 1;
    }
  }

  const nextCursor = hasMore ? encodeCursor(offset + limit, query) : null;
  if (mode === 'content') return { mode, lines, totalMatches, totalFiles, nextCursor };
  if (mode === 'summary') {
    const top = files.sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, limit);
    return { mode, files: top, totalMatches, totalFiles, nextCursor: null };
  }
  return { mode, files, totalMatches, totalFiles, nextCursor };
}

/**
 * Validates a page size: a positive safe integer.
 *
 * @throws CodeError `TOOL_ERROR` (`invalid_argument`).
 */
export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    const message = `limit must be a positive integer, got ${String(limit)}`;
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
  return limit;
}
