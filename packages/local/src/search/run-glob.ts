import { lstat } from 'node:fs/promises';

import type { GlobOptions, Page } from '@a3s-lab/code-core';

import { comparePathOrder } from './path-order.js';
import { checkLimit, READ_AHEAD_PAGES, readAhead } from './run-search.js';
import { decodeCursor, encodeCursor } from '@a3s-lab/code-core/internal';
import type { EngineFilesRequest, SearchEngine } from './search-engine.js';
import { pathBytes } from './search-result-cache.js';
import type { SearchResultCache } from './search-result-cache.js';

/** lstat calls in flight at once while ordering by recency. */
const STAT_CONCURRENCY = 64;

/**
 * Lists files matching a glob through `engine`, paged by an opaque cursor.
 *
 * `sort: 'path'` is ripgrep's path order (directories depth first, names sorted; stops as soon as
 * the page is full). `sort: 'backend'` is the local backend's natural order: most recently
 * modified first (nanosecond mtime), ties in path order; it lists every match (in parallel, any
 * order) and stats each one.
 *
 * With a `cache`, a recency-ordered listing is kept whole for the following pages, and a later
 * path-ordered page that misses the cache scans ahead and keeps that prefix (see `runSearch`).
 */
export async function runGlob(engine: SearchEngine, request: EngineFilesRequest, options: GlobOptions, cache?: SearchResultCache): Promise<Page<string>> {
  const limit = checkLimit(options.limit);
  const query = { p: request.searchPath, g: request.glob, s: options.sort };
  const offset = decodeCursor(options.cursor, query);
  const key = JSON.stringify(['glob', request.rootReal, request.searchPath, request.glob, options.sort]);
  const needed = offset + limit + 1;
  const generation = cache?.generation ?? 0;
  const cached = cache?.get(key);
  let ordered: readonly string[];
  if (cached?.kind === 'paths' && (cached.complete || cached.items.length >= needed)) {
    ordered = cached.items;
  } else if (options.sort === 'backend') {
    ordered = await byRecency(engine, request);
    cache?.set(key, { kind: 'paths', items: ordered, complete: true }, ordered.reduce((sum, path) => sum + pathBytes(path), 0), generation);
  } else {
    const prefix = cache !== undefined && offset > 0 ? await readAhead(engine.listFiles(request), needed, Math.max(4 * needed, needed + READ_AHEAD_PAGES * limit), cache.maxBytes, pathBytes) : null;
    if (prefix !== null) cache?.set(key, { kind: 'paths', items: prefix.items, complete: prefix.complete }, prefix.bytes, generation);
    // Without a kept prefix: the paths up to the end of the page (and one more proving a next page).
    ordered = prefix?.items ?? (await readAhead(engine.listFiles(request), needed, needed, Number.POSITIVE_INFINITY, pathBytes))?.items ?? [];
  }
  const items = ordered.slice(offset, offset + limit);
  return { items, nextCursor: ordered.length > offset + limit ? encodeCursor(offset + limit, query) : null };
}

/**
 * Every match, most recently modified first (nanosecond mtime), ties in path order. The listing
 * runs unsorted on every core; paths are stat'ed while it is still running (at most
 * {@link STAT_CONCURRENCY} at once), so the stats overlap the walk instead of following it.
 */
async function byRecency(engine: SearchEngine, request: EngineFilesRequest): Promise<string[]> {
  const paths: string[] = [];
  const mtimes: bigint[] = [];
  let next = 0;
  let listed = false;
  let waiting: (() => void)[] = [];
  const wakeAll = (): void => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (next < paths.length) {
        const index = next;
        next += 1;
        try {
          mtimes[index] = (await lstat(`${request.rootReal}/${paths[index] as string}`, { bigint: true })).mtimeNs;
        } catch {
          mtimes[index] = -1n;
        }
        continue;
      }
      if (listed) return;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  const workers = Array.from({ length: STAT_CONCURRENCY }, worker);
  try {
    for await (const batch of engine.listFiles({ ...request, order: 'any' })) {
      for (const path of batch) paths.push(path);
      wakeAll();
    }
  } finally {
    listed = true;
    wakeAll();
    await Promise.all(workers);
  }
  const order = paths.map((_, index) => index);
  order.sort((a, b) => {
    const x = mtimes[a] as bigint;
    const y = mtimes[b] as bigint;
    return x === y ? comparePathOrder(paths[a] as string, paths[b] as string) : x > y ? -1 : 1;
  });
  return order.map((index) => paths[index] as string);
}
