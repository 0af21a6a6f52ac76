import { LRUCache } from 'lru-cache';
import type { WebClient } from '@a3s-lab/code-core';

/** A fetched page, converted, kept so continuation calls do not download it again. */
export interface WebDocument {
  /** The converted text as UTF-8 (what offsets count). */
  readonly bytes: Uint8Array;
  readonly finalUrl: string;
  readonly status: number;
  readonly mediaType: string;
  readonly redirects: readonly string[];
  /** True when the download stopped at the response byte cap. */
  readonly sourceTruncated: boolean;
  readonly fetchedAtMs: number;
}

/** Documents kept per session (per web client). */
export const WEB_DOCUMENT_CACHE_ENTRIES = 8;
/** Bytes of converted text kept per session. */
export const WEB_DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;
/** How long a kept document serves continuation calls: 15 minutes. */
export const WEB_DOCUMENT_CACHE_TTL_MS = 15 * 60 * 1000;

/** A small LRU of converted documents, bounded by count, bytes and age (`lru-cache`). */
export class WebDocumentCache {
  readonly #entries = new LRUCache<string, WebDocument>({
    max: WEB_DOCUMENT_CACHE_ENTRIES,
    maxSize: WEB_DOCUMENT_CACHE_BYTES,
    ttl: WEB_DOCUMENT_CACHE_TTL_MS,
    sizeCalculation: (document) => Math.max(1, document.bytes.byteLength),
  });

  get(key: string): WebDocument | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `document` (one larger than the byte bound is not kept; it replaces an older one under `key`). */
  set(key: string, document: WebDocument): void {
    this.#entries.delete(key);
    if (document.bytes.byteLength > WEB_DOCUMENT_CACHE_BYTES) return;
    this.#entries.set(key, document);
  }
}

// The web client is per session, so a cache keyed on it is a per-session cache that goes away
// with the session; the tool objects themselves stay stateless and shared.
const CACHES = new WeakMap<WebClient, WebDocumentCache>();

/** The document cache of the session that owns `client`. */
export function documentCacheFor(client: WebClient): WebDocumentCache {
  let cache = CACHES.get(client);
  if (cache === undefined) {
    cache = new WebDocumentCache();
    CACHES.set(client, cache);
  }
  return cache;
}
