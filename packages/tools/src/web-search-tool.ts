import { CodeError, defineTool, toolFailure } from '@a3s-lab/code-core';
import { WEB_CLIENT_SERVICE, isWebClient } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, Tool, ToolErrorKind, ToolOutput, ToolParametersSchema, WebClient } from '@a3s-lab/code-core';
import { mergeSearchResults } from './merge-search-results.js';
import type { MergedSearchHit } from './merge-search-results.js';
import type { SearchEngine, SearchHit } from './search-engine.js';
import { WEB_SEARCH_SERVICE, isWebSearchService } from './web-search-service.js';
import type { WebSearchService } from './web-search-service.js';
import { invalidArgument, readOnlyCapabilities } from './tool-support.js';

/** Results per call when no `limit` is given. */
export const DEFAULT_WEB_SEARCH_LIMIT = 10;
/** Largest `limit`. */
export const MAX_WEB_SEARCH_LIMIT = 50;
/** Per-engine deadline in seconds when no `timeout` is given. */
export const DEFAULT_WEB_SEARCH_TIMEOUT_S = 10;
/** Largest `timeout` in seconds. */
export const MAX_WEB_SEARCH_TIMEOUT_S = 60;

/** How one engine did for one call. */
interface EngineOutcome {
  readonly engine: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly hits: readonly SearchHit[];
  readonly error?: { readonly message: string; readonly kind: ToolErrorKind };
}

/** The JSON Schema of `web_search`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 2000, description: 'Search terms' },
    engines: { type: 'array', maxItems: 8, items: { type: 'string' }, description: 'Engine names' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_WEB_SEARCH_LIMIT, description: 'Default 10' },
    timeout: { type: 'integer', minimum: 1, maximum: MAX_WEB_SEARCH_TIMEOUT_S, description: 'Seconds, default 10' },
    format: { enum: ['text', 'json'], description: 'Default text' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `web_search`, read from its schema. */
type WebSearchArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * Creates the `web_search` tool: the query goes to the chosen engines (default: the session's
 * default engines) in parallel through the session's safe web client; results are de-duplicated
 * and merged rank by rank. `metadata.status` is `complete` (every engine answered), `partial`
 * (some failed, results from the others, `partial_failure` error kind, exit 0) or `failed` (no
 * results and an engine error: a failure, never an empty success). Each engine has a per-session
 * circuit breaker.
 */
export function createWebSearchTool(): Tool<WebSearchArgs> {
  return defineTool({
    name: 'web_search',
    description: 'Search the web: ranked titles, URLs and snippets.',
    parameters: PARAMETERS,
    capabilities: () => readOnlyCapabilities({ maxParallelism: 4, outputKind: 'structured' }),
    async execute(args, context) {
      const client = context.services[WEB_CLIENT_SERVICE];
      const service = context.services[WEB_SEARCH_SERVICE];
      if (!isWebClient(client) || !isWebSearchService(service)) {
        return toolFailure('web search is not configured for this session', { type: 'unsupported', message: 'no web search service' });
      }
      if (args.query.trim() === '') return invalidArgument('query is blank');
      const names = args.engines === undefined || args.engines.length === 0 ? service.defaultEngines : [...new Set(args.engines)];
      const unknown = names.find((name) => !service.engines.has(name));
      if (unknown !== undefined) return invalidArgument(`unknown engine '${unknown}'; configured engines: ${[...service.engines.keys()].join(', ')}`);
      const limit = args.limit ?? DEFAULT_WEB_SEARCH_LIMIT;
      const timeoutMs = (args.timeout ?? DEFAULT_WEB_SEARCH_TIMEOUT_S) * 1000;
      const outcomes = await Promise.all(names.map((name) => runEngine(service, service.engines.get(name) as SearchEngine, client, args.query.trim(), limit, timeoutMs, context.abortSignal)));
      if (context.abortSignal.aborted) return toolFailure('web_search was cancelled', { type: 'cancelled', op: 'web_search' });
      return renderOutcome(args, outcomes, limit);
    },
  });
}

async function runEngine(service: WebSearchService, engine: SearchEngine, client: WebClient, query: string, limit: number, timeoutMs: number, abortSignal: AbortSignal): Promise<EngineOutcome> {
  const breaker = service.breaker(engine.name);
  const openFor = breaker.openFor();
  if (openFor !== null) {
    const message = `${engine.name}: skipped, circuit open after repeated failures (retry in ${Math.ceil(openFor / 1000)} s)`;
    return { engine: engine.name, status: 'skipped', hits: [], error: { message, kind: { type: 'transport', op: `search:${engine.name}`, message: 'circuit open' } } };
  }
  try {
    const hits = await engine.search({ query, limit, client, timeoutMs, abortSignal });
    breaker.succeeded();
    return { engine: engine.name, status: 'ok', hits };
  } catch (error) {
    const kind = errorKindOf(error, engine.name);
    if (kind.type !== 'cancelled') breaker.failed();
    return { engine: engine.name, status: 'failed', hits: [], error: { message: error instanceof Error ? error.message : String(error), kind } };
  }
}

function errorKindOf(error: unknown, engine: string): ToolErrorKind {
  const kind = CodeError.isInstance(error) ? error.details['errorKind'] : undefined;
  if (typeof kind === 'object' && kind !== null && typeof (kind as { type?: unknown }).type === 'string') return kind as ToolErrorKind;
  return { type: 'transport', op: `search:${engine}`, message: error instanceof Error ? error.message : String(error) };
}

function renderOutcome(args: WebSearchArgs, outcomes: readonly EngineOutcome[], limit: number): ToolOutput {
  const results = mergeSearchResults(outcomes.map(({ engine, hits }) => ({ engine, hits })), limit);
  const failed = outcomes.flatMap((outcome, index) => (outcome.error === undefined ? [] : [index]));
  // Results despite an engine error are partial; no results with an engine error is a failure.
  const status = failed.length === 0 ? 'complete' : results.length > 0 ? 'partial' : 'failed';
  const engines = outcomes.map((outcome) => ({ name: outcome.engine, status: outcome.status, count: outcome.hits.length, ...(outcome.error === undefined ? {} : { error: outcome.error.message, error_kind: outcome.error.kind }) }));
  const metadata = { status, query: args.query, engines, results };
  const errors = outcomes.flatMap((outcome) => (outcome.error === undefined ? [] : [outcome.error.message]));
  const body = args.format === 'json' ? JSON.stringify({ status, results, errors }) : renderText(args.query, results, errors, status);
  if (status === 'complete') return { output: body, metadata };
  if (status === 'partial') return { output: body, metadata, errorKind: { type: 'partial_failure', failed, total: outcomes.length } };
  return { output: body, exitCode: 1, metadata, errorKind: failureKind(outcomes, failed) };
}

/** One kind for a failed search: the engines' common kind, else `partial_failure` naming them all. */
function failureKind(outcomes: readonly EngineOutcome[], failed: readonly number[]): ToolErrorKind {
  const kinds = outcomes.flatMap((outcome) => (outcome.error === undefined ? [] : [outcome.error.kind]));
  const first = kinds[0];
  if (first !== undefined && kinds.every((kind) => kind.type === first.type)) {
    if (first.type === 'rate_limited') {
      const waits = kinds.map((kind) => (kind.type === 'rate_limited' ? kind.retry_after_ms : undefined)).filter((ms): ms is number => ms !== undefined);
      return waits.length === 0 ? { type: 'rate_limited' } : { type: 'rate_limited', retry_after_ms: Math.min(...waits) };
    }
    if (kinds.length === 1 || first.type === 'timeout' || first.type === 'cancelled') return first;
  }
  return { type: 'partial_failure', failed, total: outcomes.length };
}

function renderText(query: string, results: readonly MergedSearchHit[], errors: readonly string[], status: string): string {
  const lines = [`Search: ${query} (${status}, ${results.length} result${results.length === 1 ? '' : 's'})`];
  results.forEach((hit, index) => {
    lines.push('', `${index + 1}. ${hit.title}`, `   ${hit.url}`);
    if (hit.snippet !== '') lines.push(`   ${hit.snippet}`);
  });
  if (results.length === 0 && errors.length === 0) lines.push('', 'No results.');
  if (errors.length > 0) lines.push('', 'Engine errors:', ...errors.map((error) => `- ${error}`));
  return lines.join('\n');
}
