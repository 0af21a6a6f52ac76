import { CodeError } from '@a3s-lab/code-core';
import type { SearchEngine } from './search-engine.js';
import { SearchCircuitBreaker } from './search-circuit-breaker.js';

/** The {@link ToolServices} key under which a session exposes its {@link WebSearchService}. */
export const WEB_SEARCH_SERVICE = 'webSearch';

/** Options of {@link createWebSearchService}. */
export interface WebSearchServiceOptions {
  /** The configured engines, in preference order. */
  readonly engines: readonly SearchEngine[];
  /** Engines a call that names none uses. Default: the first engine. */
  readonly defaultEngines?: readonly string[];
  /** Breaker settings per engine (see {@link SearchCircuitBreaker}). */
  readonly breaker?: { readonly threshold?: number; readonly cooldownMs?: number; readonly now?: () => number };
}

/** A session's search engines with one circuit breaker per engine. */
export interface WebSearchService {
  readonly engines: ReadonlyMap<string, SearchEngine>;
  readonly defaultEngines: readonly string[];
  breaker(engine: string): SearchCircuitBreaker;
}

/**
 * Creates the per-session search service `web_search` reads from `services.webSearch`.
 *
 * @throws CodeError CONFIG_ERROR for duplicate engine names, no engines, or default engines that
 *   are not configured.
 */
export function createWebSearchService(options: WebSearchServiceOptions): WebSearchService {
  const engines = new Map<string, SearchEngine>();
  for (const engine of options.engines) {
    if (engines.has(engine.name)) throw new CodeError('CONFIG_ERROR', `web_search engine '${engine.name}' is configured twice`, { details: { engine: engine.name } });
    engines.set(engine.name, engine);
  }
  const first = options.engines[0];
  if (first === undefined) throw new CodeError('CONFIG_ERROR', 'web_search needs at least one engine', { details: { field: 'webSearch.engines' } });
  const defaultEngines = options.defaultEngines ?? [first.name];
  const unknown = defaultEngines.find((name) => !engines.has(name));
  if (unknown !== undefined) {
    throw new CodeError('CONFIG_ERROR', `web_search default engine '${unknown}' is not configured (configured: ${[...engines.keys()].join(', ')})`, { details: { field: 'webSearch.defaultEngines', engine: unknown } });
  }
  if (defaultEngines.length === 0) throw new CodeError('CONFIG_ERROR', 'web_search default_engines is empty', { details: { field: 'webSearch.defaultEngines' } });
  const breakers = new Map<string, SearchCircuitBreaker>();
  return {
    engines,
    defaultEngines,
    breaker(engine) {
      let breaker = breakers.get(engine);
      if (breaker === undefined) {
        breaker = new SearchCircuitBreaker(options.breaker ?? {});
        breakers.set(engine, breaker);
      }
      return breaker;
    },
  };
}

/** True when `value` looks like a {@link WebSearchService}. */
export function isWebSearchService(value: unknown): value is WebSearchService {
  return typeof value === 'object' && value !== null && (value as { engines?: unknown }).engines instanceof Map && typeof (value as { breaker?: unknown }).breaker === 'function';
}
