import { CodeError } from '@a3s-lab/code-core';
import { stripSensitiveQueryParams } from '@a3s-lab/code-core/util';
import type { ToolErrorKind, WebClient, WebResponse } from '@a3s-lab/code-core';
import { statusErrorKind } from './web-status.js';

/** One search hit. */
export interface SearchHit {
  readonly title: string;
  /** Absolute http(s) URL, sensitive query parameters stripped. */
  readonly url: string;
  readonly snippet: string;
}

/** What an engine gets for one query. */
export interface SearchEngineRequest {
  readonly query: string;
  /** Most hits wanted. */
  readonly limit: number;
  /** The session's safe web client: engines reach the network only through it. */
  readonly client: WebClient;
  /** Deadline of this engine's exchange, ms. */
  readonly timeoutMs: number;
  readonly abortSignal: AbortSignal;
}

/**
 * A search engine behind `web_search`. `search` resolves with hits in rank order (possibly none,
 * when the engine found nothing) or throws a CodeError carrying `details.errorKind`
 * (`rate_limited`, `transport`, `timeout`, `cancelled`): a page it cannot read is a `transport`
 * failure, never an empty success.
 */
export interface SearchEngine {
  /** Name used in `engines` arguments and config (`duckduckgo`, `brave`...). */
  readonly name: string;
  /** `html`, `rss` or `api`: how the engine is read (shown in metadata). */
  readonly protocol: 'html' | 'rss' | 'api';
  search(request: SearchEngineRequest): Promise<readonly SearchHit[]>;
}

/** Fetches an engine's endpoint and turns a non-2xx status into a typed failure. */
export async function fetchEngine(engine: string, request: SearchEngineRequest, url: string, headers: Readonly<Record<string, string>>): Promise<WebResponse> {
  const response = await request.client.fetch({ url, headers, redirects: 'all', timeoutMs: request.timeoutMs, abortSignal: request.abortSignal, maxBytes: 4 * 1024 * 1024 });
  const kind = statusErrorKind(response.status, response.headers, response.url, `search:${engine}`);
  if (kind !== null) {
    // A 404 or 403 from an engine endpoint is the engine failing, not the query being wrong.
    const kindForEngine: ToolErrorKind = kind.type === 'not_found' || kind.type === 'invalid_argument' ? { type: 'transport', op: `search:${engine}`, message: `HTTP ${response.status}` } : kind;
    throw engineFailure(engine, `HTTP ${response.status}`, kindForEngine);
  }
  return response;
}

/** A page an engine cannot read: a `transport` failure naming the engine. */
export function unreadablePage(engine: string, why: string): CodeError {
  return engineFailure(engine, why, { type: 'transport', op: `search:${engine}`, message: why });
}

/** An engine failure of any kind, naming the engine. */
export function engineFailure(engine: string, why: string, errorKind: ToolErrorKind): CodeError {
  return new CodeError('TOOL_ERROR', `${engine}: ${why}`, { details: { engine, errorKind } });
}

/** A hit with a usable http(s) URL, whitespace collapsed; `null` when the URL is not one. */
export function cleanHit(title: string, url: string, snippet: string): SearchHit | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const tidy = (text: string): string => text.replace(/\s+/g, ' ').trim();
  return { title: tidy(title) || parsed.hostname, url: stripSensitiveQueryParams(parsed.toString()), snippet: tidy(snippet) };
}
