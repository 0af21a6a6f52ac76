import { lstat } from 'node:fs/promises';

import type { GlobOptions, Page } from '@a3s-lab/code-core';

import { checkLimit } from './run-search.js';
import { decodeCursor, encodeCursor } from '@a3s-lab/code-core';
import type { EngineFilesRequest, SearchEngine } from './search-engine.js';

/**
 * Lists files matching a glob through `engine`, paged by an opaque cursor.
 *
 * `sort: 'path'` is ripgrep's path order (directories depth first, names sorted; stops as soon as
 * the page is full). `sort: 'backend'` is the local backend's natural order: most recently
 * modified first (nanosecond mtime), ties in path order; it stats every match.
 */
export async function runGlob(engine: SearchEngine, request: EngineFilesRequest, options: GlobOptions): Promise<Page<string>> {
  const limit = checkLimit(options.limit);
  const query = { p: request.searchPath, g: request.glob, s: options.sort };
  const offset = decodeCursor(options.cursor, query);
  const paths: string[] = [];
  let hasMore = false;
  scan: for await (const batch of engine.listFiles(request)) {
    for (const path of batch) {
      if (options.sort === 'path' && paths.length >= offset + limit) {
        hasMore = true;
        break scan;
      }
      paths.push(path);
    }
  }
  let ordered = paths;
  if (options.sort === 'backend') {
    const stamped = await Promise.all(
      paths.map(async (path, position) => {
        try {
          return { path, position, mtime: (await lstat(`${request.rootReal}/${path}`, { bigint: true })).mtimeNs };
        } catch {
          return { path, position, mtime: -1n };
        }
      }),
    );
    stamped.sort((a, b) => (a.mtime === b.mtime ? a.position - b.position : a.mtime > b.mtime ? -1 : 1));
    ordered = stamped.map((entry) => entry.path);
    hasMore = ordered.length > offset + limit;
  }
  const items = ordered.slice(offset, offset + limit);
  return { items, nextCursor: hasMore ? encodeCursor(offset + limit, query) : null };
}
