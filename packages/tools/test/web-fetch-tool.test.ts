import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvocationKernel, ToolRegistry, WEB_CLIENT_SERVICE } from '@a3s-lab/code-core/kernel';
import type { AgentEvent, ToolResult } from '@a3s-lab/code-core';
import type { InvocationKernelOptions } from '@a3s-lab/code-core/kernel';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { createSafeHttpClient } from '@a3s-lab/code-web';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../src/index.js';

// A real HTTP server on 127.0.0.1 (allow-listed); it counts every request.
const hits: string[] = [];
const PARAGRAPH = '<p>Grüße ✓ 漢字 😀 — a <b>bold</b> word and a <a href="https://example.org/x?token=SECRET9&page=2">link</a>.</p>\n';
const BIG_HTML = (() => {
  const parts = ['<!doctype html><html><head><title>Big page</title><script>var tracking = 1;</script></head><body><h1>Start</h1>'];
  let size = parts[0]!.length;
  let index = 0;
  while (size < 5 * 1024 * 1024) {
    const part = `<h2>Section ${index}</h2>${PARAGRAPH}`;
    parts.push(part);
    size += Buffer.byteLength(part);
    index += 1;
  }
  parts.push('<p>THE END</p></body></html>');
  return parts.join('');
})();

function route(request: IncomingMessage, response: ServerResponse): void {
  hits.push(request.url ?? '');
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void => {
    response.writeHead(status, { 'content-type': type, ...headers });
    response.end(body);
  };
  if (path === '/page') return send(200, 'text/html; charset=utf-8', '<html><head><title>Docs &amp; more</title><style>p{}</style></head><body><h1>Install</h1><p>Run <code>npm i</code>, see <a href="/next?session=abc&x=1">next</a>.</p><script>alert(1)</script><pre><code>let x = 1;</code></pre></body></html>');
  if (path === '/latin1') return send(200, 'text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  if (path === '/json') return send(200, 'application/json', '{"name":"a3s","ok":true}');
  if (path === '/big') return send(200, 'text/html; charset=utf-8', BIG_HTML);
  if (path === '/medium') return send(200, 'text/plain; charset=utf-8', 'line of text ✓\n'.repeat(10_000));
  if (path === '/png') return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
  if (path === '/pdf') return send(200, 'application/pdf', '%PDF-1.7\n');
  if (path === '/limited') return send(429, 'text/plain', 'slow down', { 'retry-after': '7' });
  if (path === '/down') return send(503, 'text/plain', 'down');
  if (path === '/away') return send(302, 'text/plain', '', { location: 'https://docs.example.org/moved?api_key=k' });
  return send(404, 'text/plain', 'not here');
}
const server = createServer(route);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function setup(extra: Partial<InvocationKernelOptions> = {}, allowHosts: readonly string[] = ['127.0.0.1']) {
  const events: AgentEvent[] = [];
  const kernel = new InvocationKernel({
    sessionId: 'web-test',
    registry: new ToolRegistry([createWebFetchTool()]),
    workspace: new MemoryWorkspaceBackend({ files: {} }),
    emit: (event) => events.push(event),
    services: { [WEB_CLIENT_SERVICE]: createSafeHttpClient({ allowHosts }) },
    ...extra,
  });
  const fetch = (args: Record<string, unknown>): Promise<ToolResult> => kernel.invoke({ toolName: 'web_fetch', args, origin: 'agent' });
  return { kernel, events, fetch };
}

describe('web_fetch', () => {
  it('converts HTML to markdown: headings, links, code; scripts and styles dropped', async () => {
    const result = await setup().fetch({ url: `${origin}/page` });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('# Docs & more');
    expect(result.output).toContain('# Install');
    expect(result.output).toContain(`Run \`npm i\`, see [next](${origin}/next?x=1).`);
    expect(result.output).toContain('```\nlet x = 1;\n```');
    expect(result.output).not.toContain('alert(1)');
    expect(result.metadata).toMatchObject({ status: 200, content_type: 'text/html', format: 'markdown', offset: 0, next_offset: null, truncated: false });
  });

  it('offers text and raw forms, passes JSON and declared charsets through', async () => {
    const { fetch } = setup();
    const text = await fetch({ url: `${origin}/page`, format: 'text' });
    expect(text.output).toContain('Run npm i, see next.');
    expect(text.output).not.toContain('<p>');
    expect((await fetch({ url: `${origin}/page`, format: 'raw' })).output).toContain('<h1>Install</h1>');
    expect((await fetch({ url: `${origin}/json` })).output).toContain('{"name":"a3s","ok":true}');
    expect((await fetch({ url: `${origin}/latin1` })).output).toContain('café');
  });

  it('refuses binary and PDF content with a typed unsupported error', async () => {
    const { fetch } = setup();
    const png = await fetch({ url: `${origin}/png` });
    expect(png).toMatchObject({ exitCode: 1, errorKind: { type: 'unsupported' }, metadata: { reason: 'unsupported_content', content_type: 'image/png' } });
    expect((await fetch({ url: `${origin}/pdf` })).metadata).toMatchObject({ reason: 'unsupported_content' });
  });

  it('maps HTTP failures to typed kinds: 429 rate_limited with Retry-After, 5xx transport, 404 not_found', async () => {
    const { fetch } = setup();
    expect((await fetch({ url: `${origin}/limited` })).errorKind).toEqual({ type: 'rate_limited', retry_after_ms: 7000 });
    expect((await fetch({ url: `${origin}/down` })).errorKind).toMatchObject({ type: 'transport', message: 'HTTP 503' });
    expect((await fetch({ url: `${origin}/missing` })).errorKind).toMatchObject({ type: 'not_found' });
  });

  it('does not follow a redirect to another host: it names it for a new, governed call', async () => {
    const result = await setup().fetch({ url: `${origin}/away` });
    expect(result.exitCode).toBe(0);
    expect(result.metadata).toMatchObject({ redirect: 'https://docs.example.org/moved' });
    expect(result.output).toContain('call web_fetch with url="https://docs.example.org/moved"');
  });

  it('strips sensitive query parameters from the request and from what the model sees', async () => {
    hits.length = 0;
    const result = await setup().fetch({ url: `${origin}/page?q=1&access_token=SECRET7` });
    expect(hits).toEqual(['/page?q=1']);
    expect(result.output).not.toContain('SECRET');
    expect(result.output).not.toContain('session=abc');
  });

  it('refuses a target that is not allow-listed, sending nothing', async () => {
    hits.length = 0;
    const result = await setup({}, []).fetch({ url: `${origin}/page` });
    expect(result.errorKind).toMatchObject({ type: 'permission_denied' });
    expect(hits).toEqual([]);
  });

  it('is governed by permission rules on the domain', async () => {
    hits.length = 0;
    const denied = setup({ permissionPolicy: { allow: ['web_fetch(domain:docs.rs)'], defaultDecision: 'deny' } });
    const result = await denied.fetch({ url: `${origin}/page` });
    expect(result.errorKind).toMatchObject({ type: 'permission_denied' });
    expect(denied.events.map((event) => event.type)).toContain('permission_denied');
    expect(hits).toEqual([]);
    const allowed = setup({ permissionPolicy: { allow: ['web_fetch(domain:127.0.0.1)'], defaultDecision: 'deny' } });
    expect((await allowed.fetch({ url: `${origin}/json` })).exitCode).toBe(0);
  });

  it('reports unsupported without a web client service', async () => {
    const kernel = new InvocationKernel({ sessionId: 's', registry: new ToolRegistry([createWebFetchTool()]), workspace: new MemoryWorkspaceBackend({ files: {} }), emit: () => undefined });
    const result = await kernel.invoke({ toolName: 'web_fetch', args: { url: `${origin}/page` }, origin: 'agent' });
    expect(result.errorKind).toMatchObject({ type: 'unsupported' });
  });

  it('pages a 5 MB HTML page with bounded outputs, UTF-8 safe, continuation to the end, one download', async () => {
    hits.length = 0;
    const { fetch } = setup();
    const pages: string[] = [];
    let offset: number | null = 0;
    let total = 0;
    let calls = 0;
    let artifact: unknown;
    while (offset !== null) {
      const result: ToolResult = await fetch({ url: `${origin}/big`, offset, max_bytes: 98304 });
      expect(result.exitCode).toBe(0);
      expect(Buffer.byteLength(result.output)).toBeLessThan(98304 + 512);
      const metadata = result.metadata as { offset: number; next_offset: number | null; total_bytes: number; artifact?: string };
      expect(metadata.offset).toBe(offset);
      if (calls === 0) artifact = metadata.artifact;
      total = metadata.total_bytes;
      // The page text sits between the two header lines + blank line and the continuation note.
      const body = result.output.split('\n').slice(3).join('\n');
      pages.push(metadata.next_offset === null ? body : body.slice(0, body.lastIndexOf('\n\n[')));
      offset = metadata.next_offset;
      calls += 1;
    }
    const joined = pages.join('');
    expect(Buffer.byteLength(joined)).toBe(total);
    expect(joined).not.toContain('\uFFFD');
    expect(joined.startsWith('# Big page')).toBe(true);
    expect(joined.trimEnd().endsWith('THE END')).toBe(true);
    expect(joined).not.toContain('tracking');
    expect(joined).not.toContain('SECRET9');
    expect(calls).toBeGreaterThan(20);
    expect(hits).toEqual(['/big']);
    expect(artifact).toBeUndefined(); // bigger than the artifact bound: continuation is the way
  }, 120_000);

  it('stores a multi-page document of moderate size whole as an artifact on its first page', async () => {
    const { fetch } = setup();
    const first = await fetch({ url: `${origin}/medium`, max_bytes: 4096 });
    expect(first.metadata).toMatchObject({ truncated: true, artifact: expect.stringMatching(/^a3s:\/\/tool-output\/web_fetch\//) });
    const second = await fetch({ url: `${origin}/medium`, max_bytes: 4096, offset: (first.metadata as { next_offset: number }).next_offset });
    expect(second.metadata).toMatchObject({ cached: true });
    expect(second.metadata).not.toHaveProperty('artifact');
    expect(second.output.split('\n')[3]).toBe('line of text ✓');
  });

  it('rejects an offset past the end', async () => {
    const result = await setup().fetch({ url: `${origin}/json`, offset: 10_000 });
    expect(result.errorKind).toMatchObject({ type: 'invalid_argument' });
  });
});
