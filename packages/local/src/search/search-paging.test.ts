import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GlobOptions, SearchOptions, SearchResult } from '@a3s-lab/code-core';

import { LocalWorkspaceBackend } from '../local-workspace-backend.js';
import { FallbackEngine } from './fallback-engine.js';
import { RipgrepEngine } from './ripgrep-engine.js';
import { findRipgrep } from './ripgrep-path.js';
import { runGlob } from './run-glob.js';
import { runSearch } from './run-search.js';
import type { EngineFilesRequest, EngineRecord, EngineSearchRequest, SearchEngine } from './search-engine.js';
import { SearchResultCache } from './search-result-cache.js';

/** Wraps a real engine and counts the scans it starts (the injectable counter of these tests). */
class CountingEngine implements SearchEngine {
  scans = 0;
  readonly name: string;
  constructor(private readonly inner: SearchEngine) {
    this.name = inner.name;
  }
  search(request: EngineSearchRequest): AsyncIterable<readonly EngineRecord[]> {
    this.scans += 1;
    return this.inner.search(request);
  }
  listFiles(request: EngineFilesRequest): AsyncIterable<readonly string[]> {
    this.scans += 1;
    return this.inner.listFiles(request);
  }
}

let root = '';
let engines: { name: string; make: () => SearchEngine }[] = [];

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'a3s-paging-')));
  const files: Record<string, string> = { '.gitignore': 'ignored/\n', 'ignored/x.txt': 'needle ignored\n' };
  // Names whose order differs between plain string order and ripgrep's path order.
  for (const dir of ['a', 'a-b', 'a.b', 'B', 'é', 'z/deep/er']) {
    for (let index = 0; index < 40; index += 1) files[`${dir}/f${index}.txt`] = `x\nneedle ${index}\n${index % 3 === 0 ? 'needle again\n' : ''}y\n`;
  }
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, dirname(path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  // Distinct mtimes (recency order), some equal (ties in path order).
  let second = 1_700_000_000;
  for (const path of Object.keys(files).sort()) {
    second += path.endsWith('0.txt') ? 0 : 1;
    await utimes(join(root, path), second, second);
  }
  const rg = await findRipgrep();
  engines = [{ name: 'fallback', make: () => new FallbackEngine() }];
  if (rg !== null) engines.push({ name: 'ripgrep', make: () => new RipgrepEngine(rg) });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const base = (): Omit<EngineSearchRequest, 'mode'> => ({ rootReal: root, searchPath: '.', searchPathIsFile: false, pattern: 'needle', caseInsensitive: false, context: 0 });
const filesRequest = (): EngineFilesRequest => ({ rootReal: root, searchPath: '.', glob: '**/*.txt' });

async function allPages(engine: SearchEngine, options: SearchOptions, cache: SearchResultCache | undefined): Promise<SearchResult[]> {
  const pages: SearchResult[] = [];
  let cursor: string | undefined;
  do {
    const page = await runSearch(engine, base(), { ...options, ...(cursor === undefined ? {} : { cursor }) }, cache);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return pages;
}

async function allGlobPages(engine: SearchEngine, options: GlobOptions, cache: SearchResultCache | undefined): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await runGlob(engine, filesRequest(), { ...options, ...(cursor === undefined ? {} : { cursor }) }, cache);
    pages.push([...page.items]);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return pages;
}

describe('paging through kept result sets', () => {
  it('serves every page exactly as a rescan would, and the pages concatenate to the full answer', async () => {
    for (const { make } of engines) {
      for (const outputMode of ['content', 'files_with_matches', 'count'] as const) {
        const options: SearchOptions = { pattern: 'needle', outputMode, limit: 13 };
        const cached = await allPages(make(), options, new SearchResultCache());
        const rescanned = await allPages(make(), options, undefined);
        expect(cached).toEqual(rescanned);
        const whole = await runSearch(make(), base(), { ...options, limit: 1_000_000 }, undefined);
        const items = outputMode === 'content' ? cached.flatMap((page) => page.lines ?? []) : cached.flatMap((page) => page.files ?? []);
        expect(items).toEqual(outputMode === 'content' ? whole.lines : whole.files);
        expect(items.length).toBeGreaterThan(200);
      }
      for (const sort of ['path', 'backend'] as const) {
        const cached = await allGlobPages(make(), { pattern: '**/*.txt', limit: 9, sort }, new SearchResultCache());
        expect(cached).toEqual(await allGlobPages(make(), { pattern: '**/*.txt', limit: 9, sort }, undefined));
        const whole = await runGlob(make(), filesRequest(), { pattern: '**/*.txt', limit: 1_000_000, sort }, undefined);
        expect(cached.flat()).toEqual(whole.items);
        expect(whole.items).toHaveLength(240);
      }
    }
  });

  it('puts a parallel scan into ripgrep path order: a/ before a-b/ before a.b/, bytes not UTF-16', async () => {
    for (const { make } of engines) {
      const result = await runSearch(make(), base(), { pattern: 'needle', outputMode: 'count', limit: 1_000_000 }, undefined);
      const dirs = [...new Set((result.files ?? []).map((file) => file.path.split('/')[0]))];
      expect(dirs).toEqual(['B', 'a', 'a-b', 'a.b', 'z', 'é']);
      expect(result.files?.slice(0, 3).map((file) => file.path)).toEqual(['B/f0.txt', 'B/f1.txt', 'B/f10.txt']);
    }
  });

  it('costs a logarithmic number of scans for 20+ pages, and one scan for all pages of a count', async () => {
    for (const { make } of engines) {
      const engine = new CountingEngine(make());
      const pages = await allPages(engine, { pattern: 'needle', outputMode: 'files_with_matches', limit: 10 }, new SearchResultCache());
      expect(pages.length).toBe(24);
      // Page 1 stops early; page 2 reads 8 pages ahead; then each miss at least quadruples the prefix.
      expect(engine.scans).toBeLessThanOrEqual(3);
      const uncached = new CountingEngine(make());
      await allPages(uncached, { pattern: 'needle', outputMode: 'files_with_matches', limit: 10 }, undefined);
      expect(uncached.scans).toBe(24);

      const counting = new CountingEngine(make());
      expect((await allPages(counting, { pattern: 'needle', outputMode: 'count', limit: 10 }, new SearchResultCache())).length).toBe(24);
      expect(counting.scans).toBe(1);

      const globbing = new CountingEngine(make());
      expect((await allGlobPages(globbing, { pattern: '**/*.txt', limit: 10, sort: 'backend' }, new SearchResultCache())).length).toBe(24);
      expect(globbing.scans).toBe(1);

      // Path order: the first page streams and stops early; the second lists everything in
      // parallel, sorts it and keeps it, so every later page is served from the cache.
      const byPath = new CountingEngine(make());
      expect((await allGlobPages(byPath, { pattern: '**/*.txt', limit: 10, sort: 'path' }, new SearchResultCache())).length).toBe(24);
      expect(byPath.scans).toBe(2);
    }
  });

  it('rescans after an entry expired, and keeps no set larger than its byte budget', async () => {
    let now = 0;
    const cache = new SearchResultCache({ ttlMs: 1_000, now: () => now });
    const engine = new CountingEngine(engines[engines.length - 1]!.make());
    const first = await runSearch(engine, base(), { pattern: 'needle', outputMode: 'count', limit: 10 }, cache);
    const cursor = first.nextCursor;
    if (cursor === null) throw new Error('expected a second page');
    now = 999;
    const second = await runSearch(engine, base(), { pattern: 'needle', outputMode: 'count', limit: 10, cursor }, cache);
    expect(engine.scans).toBe(1);
    now = 2_000;
    const again = await runSearch(engine, base(), { pattern: 'needle', outputMode: 'count', limit: 10, cursor }, cache);
    expect(engine.scans).toBe(2);
    expect(again).toEqual(second);

    const tiny = new SearchResultCache({ maxBytes: 1_000 });
    const small = new CountingEngine(engines[engines.length - 1]!.make());
    const pages = await allPages(small, { pattern: 'needle', outputMode: 'count', limit: 60 }, tiny);
    expect(pages).toHaveLength(4);
    expect(small.scans).toBe(4);
    expect(tiny.size).toEqual({ entries: 0, bytes: 0 });

    // Later pages whose preceding items exceed the budget stream as without a cache, still exact.
    for (const outputMode of ['content', 'files_with_matches'] as const) {
      const options: SearchOptions = { pattern: 'needle', outputMode, limit: 40 };
      const streamed = await allPages(new CountingEngine(engines[engines.length - 1]!.make()), options, new SearchResultCache({ maxBytes: 2_000 }));
      expect(streamed).toEqual(await allPages(engines[engines.length - 1]!.make(), options, undefined));
    }
    const globbed = await allGlobPages(engines[engines.length - 1]!.make(), { pattern: '**/*.txt', limit: 40, sort: 'path' }, new SearchResultCache({ maxBytes: 2_000 }));
    expect(globbed.flat()).toHaveLength(240);
  });

  it('evicts the least recently used set beyond maxEntries', () => {
    const cache = new SearchResultCache({ maxEntries: 2 });
    const set = (key: string): void => cache.set(key, { kind: 'paths', items: [key], complete: true }, 10, cache.generation);
    set('a');
    set('b');
    expect(cache.get('a')).toBeDefined();
    set('c');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size).toEqual({ entries: 2, bytes: 20 });
    // A scan that started before a clear() does not store its (stale) result.
    const before = cache.generation;
    cache.clear();
    cache.set('d', { kind: 'paths', items: ['d'], complete: true }, 10, before);
    expect(cache.get('d')).toBeUndefined();
  });
});

describe('LocalWorkspaceBackend drops kept results when the workspace is written through it', () => {
  it('writeFile, deleteFile and exec invalidate; the next page reflects the change', async () => {
    const cached = new LocalWorkspaceBackend(root);
    const fresh = (): LocalWorkspaceBackend => new LocalWorkspaceBackend(root, { searchCache: false });
    const options: SearchOptions = { pattern: 'needle', outputMode: 'count', limit: 50 };
    const first = await cached.search(options);
    const cursor = first.nextCursor;
    if (cursor === null) throw new Error('expected a second page');
    const secondBefore = await cached.search({ ...options, cursor });

    await cached.writeFile({ path: '0-new/first.txt', content: 'needle\nneedle\n' });
    const afterWrite = await cached.search({ ...options, cursor });
    expect(afterWrite).toEqual(await fresh().search({ ...options, cursor }));
    expect(afterWrite).not.toEqual(secondBefore);
    expect(afterWrite.totalFiles).toBe(secondBefore.totalFiles + 1);

    await cached.deleteFile({ path: '0-new/first.txt' });
    expect(await cached.search({ ...options, cursor })).toEqual(secondBefore);

    await cached.exec({ command: 'mkdir -p 0-sh && printf "needle\\n" > 0-sh/x.txt', timeoutMs: 10_000 });
    const afterExec = await cached.search({ ...options, cursor });
    expect(afterExec).toEqual(await fresh().search({ ...options, cursor }));
    expect(afterExec.totalFiles).toBe(secondBefore.totalFiles + 1);
    await cached.exec({ command: 'rm -r 0-sh', timeoutMs: 10_000 });

    const globbed = await cached.glob({ pattern: '**/*.txt', limit: 100, sort: 'backend' });
    await cached.writeFile({ path: 'newest.txt', content: 'x\n' });
    const relisted = await cached.glob({ pattern: '**/*.txt', limit: 100, sort: 'backend' });
    expect(relisted.items[0]).toBe('newest.txt');
    expect(globbed.items).not.toContain('newest.txt');
    await cached.deleteFile({ path: 'newest.txt' });
    await cached.close();
  });

  it('rejects invalid cache limits with a typed error', () => {
    expect(() => new LocalWorkspaceBackend(root, { searchCache: { ttlMs: 0 } })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    expect(() => new LocalWorkspaceBackend(root, { searchCache: { maxBytes: 1.5 } })).toThrow(/maxBytes must be a positive integer/);
  });
});
