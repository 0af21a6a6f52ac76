import type { SearchHit } from './search-engine.js';

/** A merged result: a hit and every engine that returned it. */
export interface MergedSearchHit extends SearchHit {
  readonly engines: readonly string[];
}

/**
 * The identity of a result URL for de-duplication: host lower-cased without `www.`, no
 * fragment, no trailing slash, no `utm_*` tracking parameters; scheme ignored.
 */
export function searchResultKey(url: string): string {
  try {
    const parsed = new URL(url);
    const params = [...parsed.searchParams].filter(([name]) => !name.toLowerCase().startsWith('utm_'));
    const query = params.length === 0 ? '' : `?${new URLSearchParams(params).toString()}`;
    return `${parsed.hostname.toLowerCase().replace(/^www\./, '')}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname.replace(/\/+$/, '')}${query}`;
  } catch {
    return url;
  }
}

/**
 * Merges per-engine result lists (each in rank order) into one list of at most `limit`: engines
 * take turns rank by rank (engine order breaks ties), a URL already taken is folded into the
 * first hit (its engine added, the longer snippet kept).
 */
export function mergeSearchResults(lists: readonly { readonly engine: string; readonly hits: readonly SearchHit[] }[], limit: number): MergedSearchHit[] {
  const merged: { hit: SearchHit; engines: string[] }[] = [];
  const byKey = new Map<string, { hit: SearchHit; engines: string[] }>();
  const depth = Math.max(0, ...lists.map((list) => list.hits.length));
  for (let rank = 0; rank < depth; rank += 1) {
    for (const { engine, hits } of lists) {
      const hit = hits[rank];
      if (hit === undefined) continue;
      const key = searchResultKey(hit.url);
      const existing = byKey.get(key);
      if (existing !== undefined) {
        if (!existing.engines.includes(engine)) existing.engines.push(engine);
        if (hit.snippet.length > existing.hit.snippet.length) existing.hit = { ...existing.hit, snippet: hit.snippet };
        continue;
      }
      const entry = { hit, engines: [engine] };
      byKey.set(key, entry);
      merged.push(entry);
    }
  }
  return merged.slice(0, limit).map(({ hit, engines }) => ({ ...hit, engines }));
}
