import type { SearchEngine, SearchHit } from './search-engine.js';
import { cleanHit, fetchEngine, unreadablePage } from './search-engine.js';
import { utf8Decoder } from './tool-support.js';

/** The keyless RSS endpoint of Bing web search. */
export const BING_RSS_URL = 'https://www.bing.com/search';

/** Options of {@link createBingRssEngine}. */
export interface BingRssEngineOptions {
  /** Engine name. Default `bing`. */
  readonly name?: string;
  /** Endpoint (`format=rss` and `q` are added). Default {@link BING_RSS_URL}. */
  readonly baseUrl?: string;
}

/**
 * A keyless engine reading Bing's RSS results (`?format=rss`): each `<item>`'s title, link and
 * description. A body that is not an RSS/Atom feed is a `transport` failure.
 */
export function createBingRssEngine(options: BingRssEngineOptions = {}): SearchEngine {
  const name = options.name ?? 'bing';
  const baseUrl = options.baseUrl ?? BING_RSS_URL;
  return {
    name,
    protocol: 'rss',
    async search(request) {
      // Loaded on first search: sessions that never search do not pay for importing the parser.
      const { DomUtils, parseDocument } = await import('htmlparser2');
      const url = new URL(baseUrl);
      url.searchParams.set('format', 'rss');
      url.searchParams.set('q', request.query);
      const response = await fetchEngine(name, request, url.toString(), { accept: 'application/rss+xml, application/xml;q=0.9' });
      const feed = DomUtils.getFeed(parseDocument(utf8Decoder.decode(response.body), { xmlMode: true }).children);
      if (feed === null) throw unreadablePage(name, 'the response is not an RSS feed');
      const hits: SearchHit[] = [];
      for (const item of feed.items) {
        const hit = cleanHit(item.title ?? '', item.link ?? '', item.description ?? '');
        if (hit !== null) hits.push(hit);
        if (hits.length >= request.limit) break;
      }
      return hits;
    },
  };
}
