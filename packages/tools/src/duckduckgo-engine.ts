import type { SearchEngine, SearchHit } from './search-engine.js';
import { cleanHit, engineFailure, fetchEngine, unreadablePage } from './search-engine.js';
import { utf8Decoder } from './tool-support.js';

/** The keyless HTML endpoint of DuckDuckGo. */
export const DUCKDUCKGO_HTML_URL = 'https://html.duckduckgo.com/html/';

/** Options of {@link createDuckDuckGoEngine}. */
export interface DuckDuckGoEngineOptions {
  /** Engine name. Default `duckduckgo`. */
  readonly name?: string;
  /** Endpoint. Default {@link DUCKDUCKGO_HTML_URL}. */
  readonly baseUrl?: string;
}

/**
 * A keyless engine reading DuckDuckGo's HTML results page (`div.result` blocks with an
 * `a.result__a` link and a `.result__snippet`; ads skipped; `/l/?uddg=` redirect links unwrapped).
 * A page with neither results nor a no-results notice (a block page, a changed layout) is a
 * `transport` failure; an anomaly/captcha page is `rate_limited`.
 */
export function createDuckDuckGoEngine(options: DuckDuckGoEngineOptions = {}): SearchEngine {
  const name = options.name ?? 'duckduckgo';
  const baseUrl = options.baseUrl ?? DUCKDUCKGO_HTML_URL;
  return {
    name,
    protocol: 'html',
    async search(request) {
      // Loaded on first search: sessions that never search do not pay for importing the parser.
      const { DomUtils, parseDocument } = await import('htmlparser2');
      const url = new URL(baseUrl);
      url.searchParams.set('q', request.query);
      const response = await fetchEngine(name, request, url.toString(), { accept: 'text/html' });
      const html = utf8Decoder.decode(response.body);
      const document = parseDocument(html);
      const hasClass = (element: { attribs: Record<string, string> }, cls: string): boolean => (element.attribs['class'] ?? '').split(/\s+/).includes(cls);
      const blocks = DomUtils.findAll((element) => hasClass(element, 'result') && !hasClass(element, 'result--ad'), document.children);
      const hits: SearchHit[] = [];
      for (const block of blocks) {
        const link = DomUtils.findOne((element) => element.name === 'a' && hasClass(element, 'result__a'), block.children);
        if (link === null) continue;
        const snippet = DomUtils.findOne((element) => hasClass(element, 'result__snippet'), block.children);
        const hit = cleanHit(DomUtils.textContent(link), unwrap(link.attribs['href'] ?? '', url), snippet === null ? '' : DomUtils.textContent(snippet));
        if (hit !== null) hits.push(hit);
        if (hits.length >= request.limit) break;
      }
      if (hits.length > 0) return hits;
      if (/anomaly-modal|challenge-form|captcha/i.test(html)) {
        throw engineFailure(name, 'the engine answered with a captcha page', { type: 'rate_limited' });
      }
      if (DomUtils.findOne((element) => hasClass(element, 'no-results') || element.attribs['id'] === 'links', document.children) !== null) return hits;
      throw unreadablePage(name, 'unrecognised results page');
    },
  };
}

/** DuckDuckGo wraps result links as `//duckduckgo.com/l/?uddg=<target>`. */
function unwrap(href: string, base: URL): string {
  try {
    const url = new URL(href, base);
    const target = url.pathname === '/l/' ? url.searchParams.get('uddg') : null;
    return target ?? url.toString();
  } catch {
    return href;
  }
}
