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

/** A small LRU of converted documents, bounded by count, bytes and age. */
export class WebDocumentCache {
  readonly #entries = new Map<string, WebDocument>();
  #bytes = 0;

  get(key: string, nowMs = Date.now()): WebDocument | undefined {
    const document = this.#entries.get(key);
    if (document === undefined) return undefined;
    this.#entries.delete(key);
    if (nowMs - document.fetchedAtMs > WEB_DOCUMENT_CACHE_TTL_MS) {
      this.#bytes -= document.bytes.byteLength;
      return undefined;
    }
    this.#entries.set(key, document);
    return document;
  }

  set(key: string, document: WebDocument): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= previous.bytes.byteLength;
    }
    if (document.bytes.byteLength > WEB_DOCUMENT_CACHE_BYTES) return;
    this.#entries.set(key, document);
    this.#bytes += document.bytes.byteLength;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= WEB_DOCUMENT_CACHE_ENTRIES && this.#bytes <= WEB_DOCUMENT_CACHE_BYTES) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes.byteLength;
    }
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
