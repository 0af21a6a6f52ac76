import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvocationKernel, ToolRegistry, WEB_CLIENT_SERVICE } from '@a3s-lab/code-core/kernel';
import type { ToolResult } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { createSafeHttpClient } from '@a3s-lab/code-web';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WEB_SEARCH_SERVICE, createBingRssEngine, createBraveEngine, createDuckDuckGoEngine, createWebSearchService, createWebSearchTool } from '../src/index.js';

// Recorded engine responses served from 127.0.0.1: no test reaches the internet.
const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
interface Reply {
  readonly status?: number;
  readonly type?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly hang?: boolean;
}
const replies: Record<string, Reply> = {};
const requests: { path: string; query: string | null; token: string | undefined }[] = [];
const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://x');
  const engine = url.pathname.split('/')[1] ?? '';
  requests.push({ path: url.pathname, query: url.searchParams.get('q'), token: request.headers['x-subscription-token'] as string | undefined });
  const reply = replies[engine] ?? { status: 404, body: 'no' };
  if (reply.hang === true) return;
  if (engine === 'brave' && request.headers['x-subscription-token'] !== 'BRAVE-KEY') {
    response.writeHead(401);
    response.end('{"type":"ErrorResponse"}');
    return;
  }
  response.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'text/html; charset=utf-8', ...reply.headers });
  response.end(reply.body ?? '');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  replies['ddg'] = { body: fixture('duckduckgo-results.html') };
  replies['bing'] = { type: 'application/rss+xml; charset=utf-8', body: fixture('bing-results.rss') };
  replies['brave'] = { type: 'application/json', body: fixture('brave-results.json') };
});

let now = 0;
function setup(defaultEngines: readonly string[] = ['duckduckgo']) {
  const service = createWebSearchService({
    engines: [
      createDuckDuckGoEngine({ baseUrl: `${origin}/ddg/html/` }),
      createBingRssEngine({ baseUrl: `${origin}/bing/search` }),
      createBraveEngine({ apiKey: 'BRAVE-KEY', baseUrl: `${origin}/brave/res/v1/web/search` }),
    ],
    defaultEngines,
    breaker: { threshold: 2, cooldownMs: 60_000, now: () => now },
  });
  const kernel = new InvocationKernel({
    sessionId: 'search-test',
    registry: new ToolRegistry([createWebSearchTool()]),
    workspace: new MemoryWorkspaceBackend({ files: {} }),
    emit: () => undefined,
    services: { [WEB_CLIENT_SERVICE]: createSafeHttpClient({ allowHosts: ['127.0.0.1'] }), [WEB_SEARCH_SERVICE]: service },
  });
  return (args: Record<string, unknown>, abortSignal?: AbortSignal): Promise<ToolResult> =>
    kernel.invoke({ toolName: 'web_search', args, origin: 'agent', ...(abortSignal === undefined ? {} : { abortSignal }) });
}
const urls = (result: ToolResult): string[] => ((result.metadata as { results: { url: string }[] }).results ?? []).map((hit) => hit.url);

describe('web_search', () => {
  it('reads the keyless HTML engine: ads skipped, redirect links unwrapped, secrets stripped', async () => {
    const result = await setup()({ query: 'rust serde' });
    expect(result.exitCode).toBe(0);
    expect(result.metadata).toMatchObject({ status: 'complete' });
    expect(urls(result)).toEqual(['https://serde.rs/', 'https://docs.rs/serde/latest/serde/?utm_source=ddg', 'https://github.com/serde-rs/serde']);
    expect(result.output).toContain('1. Overview · Serde');
    expect(result.output).not.toContain('LEAK');
    expect(requests[0]).toMatchObject({ path: '/ddg/html/', query: 'rust serde' });
  });

  it('merges and de-duplicates the keyless RSS and the API engine, rank by rank', async () => {
    const result = await setup()({ query: 'rust serde', engines: ['bing', 'brave', 'duckduckgo'], format: 'json', limit: 50 });
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.output) as { status: string; results: { url: string; engines: string[]; snippet: string }[] };
    expect(parsed.status).toBe('complete');
    const serde = parsed.results.filter((hit) => hit.url.startsWith('https://serde.rs'));
    expect(serde).toHaveLength(1);
    expect(serde[0]?.engines).toEqual(['bing', 'brave', 'duckduckgo']);
    expect(serde[0]?.snippet).toContain('longer snippet from bing');
    expect(parsed.results.map((hit) => hit.url)).toEqual([
      'https://serde.rs/',
      'https://docs.rs/serde_json',
      'https://crates.io/crates/serde_derive',
      'https://docs.rs/serde/latest/serde/?utm_source=ddg',
      'https://blog.example.dev/serde-guide?utm_source=bing',
      'https://github.com/serde-rs/serde',
    ]);
    expect(requests.find((request) => request.path.startsWith('/brave'))?.token).toBe('BRAVE-KEY');
  });

  it('honours limit', async () => {
    expect(urls(await setup()({ query: 'rust serde', engines: ['bing', 'duckduckgo'], limit: 2 }))).toHaveLength(2);
  });

  it('an engine that found nothing is an empty success', async () => {
    replies['ddg'] = { body: fixture('duckduckgo-no-results.html') };
    const result = await setup()({ query: 'zzqxjv' });
    expect(result.exitCode).toBe(0);
    expect(result.metadata).toMatchObject({ status: 'complete', results: [] });
  });

  it('a malformed page is a failure, not an empty success', async () => {
    replies['ddg'] = { body: fixture('malformed.html') };
    const result = await setup()({ query: 'rust serde' });
    expect(result.exitCode).toBe(1);
    expect(result.metadata).toMatchObject({ status: 'failed' });
    expect(result.errorKind).toMatchObject({ type: 'transport' });
  });

  it('429 is rate_limited with the parsed Retry-After; a captcha page is rate_limited too', async () => {
    replies['ddg'] = { status: 429, body: 'slow', headers: { 'retry-after': '30' } };
    expect((await setup()({ query: 'q' })).errorKind).toEqual({ type: 'rate_limited', retry_after_ms: 30_000 });
    replies['ddg'] = { body: fixture('duckduckgo-captcha.html') };
    expect((await setup()({ query: 'q' })).errorKind).toEqual({ type: 'rate_limited' });
  });

  it('one engine failing among several is partial: results kept, failed engine named', async () => {
    replies['bing'] = { status: 503, body: 'down' };
    const result = await setup()({ query: 'rust serde', engines: ['duckduckgo', 'bing'] });
    expect(result.exitCode).toBe(0);
    expect(result.metadata).toMatchObject({ status: 'partial' });
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [1], total: 2 });
    expect(result.output).toContain('bing: HTTP 503');
  });

  it('every engine failing differently is a failed partial_failure', async () => {
    replies['bing'] = { status: 503, body: 'down' };
    replies['brave'] = { type: 'application/json', body: '{"unexpected":true}' };
    const result = await setup()({ query: 'q', engines: ['bing', 'brave'] });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind).toEqual({ type: 'partial_failure', failed: [0, 1], total: 2 });
  });

  it('times out per engine with a timeout kind', async () => {
    replies['ddg'] = { hang: true };
    const result = await setup()({ query: 'q', timeout: 1 });
    expect(result.errorKind).toMatchObject({ type: 'timeout' });
  });

  it('is cancelled by the call scope', async () => {
    replies['ddg'] = { hang: true };
    const controller = new AbortController();
    const pending = setup()({ query: 'q' }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.exitCode).not.toBe(0);
    expect(result.errorKind?.type).toBe('cancelled');
  });

  it('opens a per-session circuit breaker after repeated failures, and closes it after the cooldown', async () => {
    replies['ddg'] = { status: 500, body: 'boom' };
    const search = setup();
    await search({ query: 'a' });
    await search({ query: 'b' });
    const before = requests.length;
    const skipped = await search({ query: 'c' });
    expect(requests.length).toBe(before);
    expect(skipped.output).toContain('circuit open');
    expect(skipped.metadata).toMatchObject({ engines: [{ name: 'duckduckgo', status: 'skipped' }] });
    replies['ddg'] = { body: fixture('duckduckgo-results.html') };
    now += 60_001;
    expect((await search({ query: 'd' })).exitCode).toBe(0);
    // Another session has its own breakers.
    replies['ddg'] = { status: 500, body: 'boom' };
    const other = setup();
    await other({ query: 'e' });
    expect(requests.at(-1)?.query).toBe('e');
  });

  it('rejects unknown engines and bad arguments before any request', async () => {
    const search = setup();
    expect((await search({ query: 'q', engines: ['google'] })).errorKind).toMatchObject({ type: 'invalid_argument' });
    expect((await search({ query: 'q', limit: 51 })).errorKind).toMatchObject({ type: 'invalid_argument' });
    expect((await search({ query: 'q', timeout: 61 })).errorKind).toMatchObject({ type: 'invalid_argument' });
    expect((await search({ query: '   ' })).errorKind).toMatchObject({ type: 'invalid_argument' });
    expect(requests).toEqual([]);
  });

  it('rejects a misconfigured service', () => {
    expect(() => createWebSearchService({ engines: [] })).toThrow(/at least one engine/);
    expect(() => createWebSearchService({ engines: [createDuckDuckGoEngine()], defaultEngines: ['brave'] })).toThrow(/not configured/);
    expect(() => createWebSearchService({ engines: [createDuckDuckGoEngine(), createDuckDuckGoEngine()] })).toThrow(/twice/);
  });
});
