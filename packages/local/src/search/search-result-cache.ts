import { LRUCache } from 'lru-cache';
import type { EngineRecord } from './search-engine.js';

/** Limits of a {@link SearchResultCache}. */
export interface SearchResultCacheOptions {
  /** How long a result set stays usable after it was scanned. Default 120,000 ms. */
  readonly ttlMs?: number;
  /** Result sets kept at most (least recently used dropped first). Default 16. */
  readonly maxEntries?: number;
  /** Estimated memory of all kept result sets together, in bytes. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Clock in milliseconds (tests pass their own); default `Date.now`. */
  readonly now?: () => number;
}

/** A kept result set: the first `items.length` items of a query's answer, in answer order. */
export type CachedResult =
  | { readonly kind: 'records'; readonly items: readonly EngineRecord[]; readonly complete: boolean }
  | { readonly kind: 'paths'; readonly items: readonly string[]; readonly complete: boolean };

interface Entry {
  readonly result: CachedResult;
  readonly bytes: number;
  readonly expiresAt: number;
}

/** Default limits. */
export const DEFAULT_SEARCH_CACHE_TTL_MS = 120_000;
export const DEFAULT_SEARCH_CACHE_ENTRIES = 16;
export const DEFAULT_SEARCH_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Bounded, expiring store of search and glob result sets, keyed by the query a cursor belongs to,
 * so fetching page N serves from memory instead of rescanning the tree. `complete: false` entries
 * hold a prefix of the answer (the scan stopped early or the set exceeded the byte budget).
 * The owner clears it whenever the workspace is written through the backend. Count, byte and age
 * bounds are `lru-cache`'s (least recently used dropped first).
 */
export class SearchResultCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly #entries: LRUCache<string, CachedResult>;
  #clears = 0;

  constructor(options: SearchResultCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_SEARCH_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_SEARCH_CACHE_ENTRIES;
    this.maxBytes = options.maxBytes ?? DEFAULT_SEARCH_CACHE_BYTES;
    const now = options.now;
    this.#entries = new LRUCache<string, CachedResult>({
      max: this.maxEntries,
      maxSize: this.maxBytes,
      ttl: this.ttlMs,
      // Exact expiry (a test's clock moves in steps); an expired entry is dropped when read.
      ttlResolution: 0,
      // lru-cache reads a start time of 0 as "no TTL": a custom clock (a test's, from 0) is offset.
      ...(now === undefined ? {} : { perf: { now: () => now() + 1 } }),
    });
  }

  /** The live result set stored under `key`, or `undefined` (never stored, expired or evicted). */
  get(key: string): CachedResult | undefined {
    return this.#entries.get(key);
  }

  /** Changes on every {@link clear}: a scan started before a write must not store its result after it. */
  get generation(): number {
    return this.#clears;
  }

  /**
   * Stores a result set of an estimated `bytes` scanned during `generation`; one larger than
   * `maxBytes`, or scanned before the last {@link clear}, is not kept.
   */
  set(key: string, result: CachedResult, bytes: number, generation: number): void {
    this.#entries.delete(key);
    if (bytes > this.maxBytes || generation !== this.#clears) return;
    this.#entries.set(key, result, { size: Math.max(1, bytes) });
  }

  /** Drops every result set (the workspace changed). */
  clear(): void {
    this.#clears += 1;
    this.#entries.clear();
  }

  /** Number of result sets kept and their estimated bytes. */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize };
  }
}

/** Estimated heap bytes of one record (strings are UTF-16; paths of one file share a string). */
export function recordBytes(record: EngineRecord): number {
  return record.kind === 'line' ? 64 + record.text.length * 2 : 48 + record.path.length * 2;
}

/** Estimated heap bytes of one path. */
export function pathBytes(path: string): number {
  return 40 + path.length * 2;
}
