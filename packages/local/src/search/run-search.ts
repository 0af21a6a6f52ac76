import { CodeError } from '@a3s-lab/code-core';
import type { SearchLine, SearchOptions, SearchResult } from '@a3s-lab/code-core';

import { comparePathOrder } from './path-order.js';
import { decodeCursor, encodeCursor } from '@a3s-lab/code-core/util';
import type { EngineMode, EngineRecord, EngineSearchRequest, SearchEngine } from './search-engine.js';
import { recordBytes } from './search-result-cache.js';
import type { SearchResultCache } from './search-result-cache.js';

/** A later page scans at least this many pages ahead of the one asked for (then doubles). */
export const READ_AHEAD_PAGES = 8;

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
 *
 * With a `cache`, result sets are kept for later pages: count/summary scans (run in parallel,
 * then sorted into path order) are kept whole; a cursor page of content/files that misses the
 * cache scans ahead (at least {@link READ_AHEAD_PAGES} pages, at least four times as far as asked) and keeps
 * that prefix, so paging through N pages costs O(log N) scans. Pages served from the cache are
 * identical to a rescan (same items, same totals).
 */
export async function runSearch(engine: SearchEngine, base: Omit<EngineSearchRequest, 'mode'>, options: SearchOptions, cache?: SearchResultCache): Promise<SearchResult> {
  const limit = checkLimit(options.limit);
  const mode = options.outputMode;
  const engineMode: EngineMode = mode === 'content' ? 'content' : mode === 'files_with_matches' ? 'files' : 'count';
  const query = { p: base.searchPath, r: base.pattern, g: base.glob ?? null, i: base.caseInsensitive, c: base.context, m: mode };
  const offset = mode === 'summary' ? 0 : decodeCursor(options.cursor, query);
  const request: EngineSearchRequest = { ...base, mode: engineMode };
  const key = JSON.stringify(['search', base.rootReal, base.searchPath, base.pattern, base.glob ?? null, base.caseInsensitive, base.context, engineMode]);
  const source = await recordSource(engine, request, cache, key, engineMode === 'count' ? Number.POSITIVE_INFINITY : offset + limit + 1, offset > 0 ? limit : 0);

  let totalMatches = 0;
  let totalFiles = 0;
  let lastPath: string | null = null;
  let index = 0;
  let hasMore = false;
  const lines: SearchLine[] = [];
  const files: { path: string; count: number }[] = [];

  scan: for await (const batch of source) {
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
 * Where the records of one call come from: the cache when it holds the `needed` first items (or
 * the whole answer); a full parallel scan sorted into path order (`needed` infinite: count mode);
 * a read-ahead prefix scan for a later page; else the engine's path-ordered stream, which the
 * caller leaves as soon as its page is full.
 */
async function recordSource(
  engine: SearchEngine,
  request: EngineSearchRequest,
  cache: SearchResultCache | undefined,
  key: string,
  needed: number,
  readAheadPage: number,
): Promise<AsyncIterable<readonly EngineRecord[]> | Iterable<readonly EngineRecord[]>> {
  const generation = cache?.generation ?? 0;
  const cached = cache?.get(key);
  if (cached?.kind === 'records' && (cached.complete || cached.items.length >= needed)) return [cached.items];
  if (needed === Number.POSITIVE_INFINITY) {
    const records = await collectSorted(engine, request);
    cache?.set(key, { kind: 'records', items: records, complete: true }, records.reduce((sum, record) => sum + recordBytes(record), 0), generation);
    return [records];
  }
  if (cache === undefined || readAheadPage === 0) return engine.search(request);
  const prefix = await readAhead(engine.search(request), needed, Math.max(4 * needed, needed + READ_AHEAD_PAGES * readAheadPage), cache.maxBytes, recordBytes);
  // A page so deep that the records before it exceed the budget streams as without a cache.
  if (prefix === null) return engine.search(request);
  cache.set(key, { kind: 'records', items: prefix.items, complete: prefix.complete }, prefix.bytes, generation);
  return [prefix.items];
}

/**
 * Collects at least `needed` items of a path-ordered stream, continuing up to `wanted` items
 * while their estimated size stays within `budget`; `complete` when the stream ended first.
 * `null` when the `needed` items alone exceed `budget` (the stream is stopped).
 */
export async function readAhead<T>(
  stream: AsyncIterable<readonly T[]>,
  needed: number,
  wanted: number,
  budget: number,
  sizeOf: (item: T) => number,
): Promise<{ items: T[]; complete: boolean; bytes: number } | null> {
  const items: T[] = [];
  let bytes = 0;
  for await (const batch of stream) {
    for (const item of batch) {
      const size = sizeOf(item);
      if (bytes + size > budget) {
        if (items.length < needed) return null;
        return { items, complete: false, bytes };
      }
      if (items.length >= wanted) return { items, complete: false, bytes };
      items.push(item);
      bytes += size;
    }
  }
  return { items, complete: true, bytes };
}

/** Every record of a parallel (unordered) scan, put into path order; each file's records keep their order. */
async function collectSorted(engine: SearchEngine, request: EngineSearchRequest): Promise<EngineRecord[]> {
  const records: EngineRecord[] = [];
  for await (const batch of engine.search({ ...request, order: 'any' })) for (const record of batch) records.push(record);
  // Array.prototype.sort is stable: lines of one file stay in line order.
  return records.sort((a, b) => comparePathOrder(a.path, b.path));
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
