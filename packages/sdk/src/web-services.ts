import type { SearchEngineConfig, WebSearchConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import { WEB_CLIENT_SERVICE } from '@a3s-lab/code-core/kernel';
import type { SandboxNetwork, ToolServices, WebFetchOptions } from '@a3s-lab/code-core';
import { WEB_SEARCH_SERVICE, createBingRssEngine, createBraveEngine, createDuckDuckGoEngine, createWebSearchService } from '@a3s-lab/code-tools';
import type { SearchEngine } from '@a3s-lab/code-tools';
import { createSafeHttpClient } from '@a3s-lab/code-web';

/** The search engines of an agent and the ones a call naming none uses. */
export interface SearchEngineSet {
  readonly engines: readonly SearchEngine[];
  readonly defaultEngines?: readonly string[];
}

const KINDS = ['duckduckgo', 'bing', 'brave'] as const;

/**
 * The engines of the config's `web_search` block (default: `duckduckgo` alone). Engine objects
 * are stateless and shared by the agent's sessions; breakers live in each session's service.
 *
 * @throws CodeError CONFIG_ERROR for an engine of unknown kind or an API engine without `api_key`.
 */
export function createSearchEngines(config: WebSearchConfig | undefined): SearchEngineSet {
  const entries = Object.entries(config?.engines ?? { duckduckgo: {} });
  const engines = entries.map(([name, engine]) => createEngine(name, engine));
  return { engines, ...(config?.defaultEngines === undefined ? {} : { defaultEngines: config.defaultEngines }) };
}

function createEngine(name: string, engine: SearchEngineConfig): SearchEngine {
  const kind = engine.kind ?? (KINDS as readonly string[]).find((known) => known === name);
  const baseUrl = engine.baseUrl === undefined ? {} : { baseUrl: engine.baseUrl };
  switch (kind) {
    case 'duckduckgo':
      return createDuckDuckGoEngine({ name, ...baseUrl });
    case 'bing':
      return createBingRssEngine({ name, ...baseUrl });
    case 'brave':
      if (engine.apiKey === undefined || engine.apiKey === '') {
        throw new CodeError('CONFIG_ERROR', `web_search engine '${name}' (brave) needs api_key, e.g. api_key = env("BRAVE_API_KEY")`, { details: { field: `webSearch.engines.${name}.apiKey` } });
      }
      return createBraveEngine({ name, apiKey: engine.apiKey, ...baseUrl });
    default:
      throw new CodeError('CONFIG_ERROR', `web_search engine '${name}' has no known kind: set kind = ${KINDS.map((k) => `"${k}"`).join(' | ')}`, { details: { field: `webSearch.engines.${name}.kind` } });
  }
}

/**
 * One session's web services: the safe HTTP client (its `webFetch` options: allow-list, caps)
 * under {@link WEB_CLIENT_SERVICE} and the search service (engines + per-session breakers) under
 * `WEB_SEARCH_SERVICE`. `network`: the session's `sandbox.network` when the host set one, a
 * ceiling over every fetch and search (`none` refuses them, `{ allow }` lets only listed hosts
 * through); unset, the web tools keep their own policy (decision: docs/decisions/sandbox.md).
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR for a bad `webFetch.allowHosts` or
 *   `sandbox.network.allow` entry.
 */
export function createWebServices(webFetch: WebFetchOptions | undefined, search: SearchEngineSet, network?: SandboxNetwork): ToolServices {
  return {
    [WEB_CLIENT_SERVICE]: createSafeHttpClient({
      ...(network === undefined ? {} : { network }),
      ...(webFetch?.allowHosts === undefined ? {} : { allowHosts: webFetch.allowHosts }),
      ...(webFetch?.maxResponseBytes === undefined ? {} : { maxResponseBytes: webFetch.maxResponseBytes }),
      ...(webFetch?.timeoutMs === undefined ? {} : { timeoutMs: webFetch.timeoutMs }),
      ...(webFetch?.maxRedirects === undefined ? {} : { maxRedirects: webFetch.maxRedirects }),
    }),
    [WEB_SEARCH_SERVICE]: createWebSearchService({ engines: search.engines, ...(search.defaultEngines === undefined ? {} : { defaultEngines: search.defaultEngines }) }),
  };
}
