import type { SearchEngine, SearchHit } from './search-engine.js';
import { cleanHit, fetchEngine, unreadablePage } from './search-engine.js';
import { utf8Decoder } from './tool-support.js';

/** The Brave Search web API endpoint. */
export const BRAVE_SEARCH_URL = 'https://api.search.brave.com/res/v1/web/search';

/** Options of {@link createBraveEngine}. */
export interface BraveEngineOptions {
  /** Subscription token (`X-Subscription-Token`), from the agent config. */
  readonly apiKey: string;
  /** Engine name. Default `brave`. */
  readonly name?: string;
  /** Endpoint. Default {@link BRAVE_SEARCH_URL}. */
  readonly baseUrl?: string;
}

/**
 * An API engine over the Brave Search web API: `GET ?q=&count=` with the key in the
 * `X-Subscription-Token` header (a header, so the client's query-parameter stripping never
 * touches it), reading `web.results[]` `{ title, url, description }`. A body that is not that
 * JSON is a `transport` failure; 429 is `rate_limited` with its `Retry-After`.
 */
export function createBraveEngine(options: BraveEngineOptions): SearchEngine {
  const name = options.name ?? 'brave';
  const baseUrl = options.baseUrl ?? BRAVE_SEARCH_URL;
  return {
    name,
    protocol: 'api',
    async search(request) {
      const url = new URL(baseUrl);
      url.searchParams.set('q', request.query);
      url.searchParams.set('count', String(Math.min(20, request.limit)));
      const response = await fetchEngine(name, request, url.toString(), { accept: 'application/json', 'x-subscription-token': options.apiKey });
      let body: unknown;
      try {
        body = JSON.parse(utf8Decoder.decode(response.body));
      } catch {
        throw unreadablePage(name, 'the response is not JSON');
      }
      const web = (body as { web?: { results?: unknown } } | null)?.web;
      if (web === undefined) {
        // Brave omits `web` when nothing matched; any other shape is not a search answer.
        if (typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'search') return [];
        throw unreadablePage(name, 'the response has no web results');
      }
      if (!Array.isArray(web.results)) throw unreadablePage(name, 'web.results is not a list');
      const hits: SearchHit[] = [];
      for (const item of web.results as unknown[]) {
        const record = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
        const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/<[^>]*>/g, '') : '');
        const hit = cleanHit(text(record['title']), text(record['url']), text(record['description']));
        if (hit !== null) hits.push(hit);
        if (hits.length >= request.limit) break;
      }
      return hits;
    },
  };
}
