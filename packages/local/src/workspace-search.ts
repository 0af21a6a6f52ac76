import { lstat } from 'node:fs/promises';
import { posix } from 'node:path';

import { CodeError, HostFailure, toHostFailure } from '@a3s-lab/code-core';
import type { GlobOptions, Page, SearchOptions, SearchResult } from '@a3s-lab/code-core';
import { anchorGlob } from '@a3s-lab/code-core/util';

import type { ConfinedPath } from './confine-path.js';
import { fileKindOf, notRegularFile, readRegularFile } from './open-regular-file.js';
import type { DenyReadRules } from './sandbox/deny-read.js';
import { withoutDenied } from './sandbox/deny-read.js';
import { FallbackEngine } from './search/fallback-engine.js';
import { findRipgrep, isExecutable } from './search/ripgrep-path.js';
import { RipgrepEngine } from './search/ripgrep-engine.js';
import { runGlob } from './search/run-glob.js';
import { runSearch } from './search/run-search.js';
import type { SearchEngine } from './search/search-engine.js';
import { SearchResultCache } from './search/search-result-cache.js';
import type { SearchResultCacheOptions } from './search/search-result-cache.js';

/** What {@link WorkspaceSearch} is built from (the backend's options of the same names). */
export interface WorkspaceSearchOptions {
  readonly searchEngine?: 'auto' | 'ripgrep' | 'fallback' | undefined;
  readonly ripgrepPath?: string | undefined;
  readonly searchCache?: SearchResultCacheOptions | false | undefined;
  readonly rootReal: () => Promise<string>;
  /** The sandbox policy's deny-read rules: denied files are neither listed nor searched. */
  readonly denyRead: DenyReadRules | undefined;
}

/**
 * The search and glob of one local workspace over already confined paths: the engine (ripgrep,
 * else the TypeScript fallback; picked once), the deny-read filter on it, and the result cache
 * the backend clears on every write and command.
 *
 * @throws CodeError CONFIG_ERROR for a bad `searchCache` option.
 */
export class WorkspaceSearch {
  /** The kept result sets; undefined with `searchCache: false`. */
  readonly cache: SearchResultCache | undefined;
  readonly #options: WorkspaceSearchOptions;
  #engine: Promise<SearchEngine> | undefined;

  constructor(options: WorkspaceSearchOptions) {
    this.#options = options;
    this.cache = options.searchCache === false ? undefined : new SearchResultCache(checkCacheOptions(options.searchCache ?? {}));
  }

  /** Paths matching `options.pattern` below the confined directory `directory`. */
  async glob(directory: ConfinedPath, options: GlobOptions): Promise<Page<string>> {
    checkPattern(options.pattern, 'glob pattern');
    const engine = await this.engine();
    return runGlob(
      engine,
      { rootReal: await this.#options.rootReal(), searchPath: directory.relative, glob: anchorGlob(directory.relative, options.pattern), ...signalOf(options.abortSignal) },
      options,
      this.cache,
    );
  }

  /** Matches of `options.pattern` in the confined file or directory `target`. */
  async search(target: ConfinedPath, options: SearchOptions): Promise<SearchResult> {
    if (!target.exists) throw new HostFailure('NotFound', `no such file or directory: ${target.relative}`, { path: target.relative, details: { hostCode: 'ENOENT' } });
    checkPattern(options.pattern, 'search pattern', true);
    if (options.glob !== undefined) checkPattern(options.glob, 'glob filter');
    const stats = await lstat(target.absolute).catch((error: unknown) => {
      throw toHostFailure(error, target.relative);
    });
    const isFile = stats.isFile();
    // A FIFO, socket or device would block the search (ripgrep or the fallback) on open.
    if (!isFile && !stats.isDirectory()) throw notRegularFile(target.relative, fileKindOf(stats));
    const rootReal = await this.#options.rootReal();
    if (isFile && ((await readRegularFile(target.absolute, target.relative)) ?? Buffer.alloc(0)).includes(0)) {
      // A binary file named explicitly: ripgrep would print a notice instead of lines; both
      // engines report no match instead.
      return { mode: options.outputMode, ...(options.outputMode === 'content' ? { lines: [] } : { files: [] }), totalMatches: 0, totalFiles: 0, nextCursor: null };
    }
    const engine = await this.engine();
    return runSearch(
      engine,
      {
        rootReal,
        searchPath: target.relative,
        searchPathIsFile: isFile,
        pattern: options.pattern,
        caseInsensitive: options.caseInsensitive === true,
        context: options.outputMode === 'content' ? Math.max(0, Math.floor(options.context ?? 0)) : 0,
        ...(options.glob === undefined ? {} : { glob: anchorGlob(isFile ? posix.dirname(target.relative) : target.relative, options.glob) }),
        ...signalOf(options.abortSignal),
      },
      options,
      this.cache,
    );
  }

  /** The engine in use (picked on first use; a failed pick is tried again by the next call). */
  engine(): Promise<SearchEngine> {
    // Files the sandbox policy denies are not listed or searched either (same rules as `cat`).
    const denyRead = this.#options.denyRead;
    this.#engine ??= this.#pick().then(async (engine) => (denyRead === undefined ? engine : withoutDenied(engine, denyRead.insideWorkspace(await this.#options.rootReal()))));
    return this.#engine;
  }

  async #pick(): Promise<SearchEngine> {
    const choice = this.#options.searchEngine ?? 'auto';
    if (choice === 'fallback') return new FallbackEngine();
    const configured = this.#options.ripgrepPath;
    const path = configured !== undefined ? ((await isExecutable(configured)) ? configured : null) : await findRipgrep();
    if (path !== null) return new RipgrepEngine(path);
    if (choice === 'ripgrep') {
      this.#engine = undefined;
      throw new HostFailure('Unavailable', 'the ripgrep binary is not available', { details: { hostCode: 'ENOENT' } });
    }
    return new FallbackEngine();
  }
}

function checkCacheOptions(options: SearchResultCacheOptions): SearchResultCacheOptions {
  for (const name of ['ttlMs', 'maxEntries', 'maxBytes'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      const message = `searchCache.${name} must be a positive integer, got ${String(value)}`;
      throw new CodeError('CONFIG_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
    }
  }
  return options;
}

function checkPattern(pattern: unknown, what: string, allowEmpty = false): void {
  if (typeof pattern !== 'string' || (!allowEmpty && pattern === '') || pattern.includes('\0')) {
    const message = `${what} must be a non-empty string without NUL bytes`;
    throw new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
  }
}

function signalOf(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal === undefined ? {} : { abortSignal: signal };
}
