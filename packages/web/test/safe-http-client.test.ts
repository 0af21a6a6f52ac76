import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { createSafeHttpClient } from '../src/index.js';
import { startServer } from './http-fixtures.js';

const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in ~64 KiB
const server = await startServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://x');
  switch (url.pathname) {
    case '/bomb':
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      response.end(BOMB);
      return;
    case '/br':
      response.writeHead(200, { 'content-encoding': 'br' });
      response.end(brotliCompressSync(Buffer.from('brotli body')));
      return;
    case '/deflate':
      response.writeHead(200, { 'content-encoding': 'deflate' });
      response.end(deflateSync(Buffer.from('deflate body')));
      return;
    case '/corrupt':
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(Buffer.from('not gzip at all'));
      return;
    case '/weird':
      response.writeHead(200, { 'content-encoding': 'compress' });
      response.end('x');
      return;
    case '/big':
      response.end(Buffer.alloc(300_000, 'a'));
      return;
    case '/hang':
      response.writeHead(200);
      response.write('start');
      return; // never ends
    case '/echo':
      response.end(request.url);
      return;
    case '/moved':
      response.writeHead(301, { location: '/echo?from=moved&token=abc' });
      response.end();
      return;
    case '/away':
      response.writeHead(302, { location: 'https://docs.example.org/page?api_key=k&x=1' });
      response.end();
      return;
    case '/see-other':
      response.writeHead(303, { location: '/method' });
      response.end();
      return;
    case '/method':
      response.end(request.method);
      return;
    case '/limited':
      response.writeHead(429, { 'retry-after': '7' });
      response.end('slow down');
      return;
    default:
      response.end('ok');
  }
});
afterAll(() => server.close());

const web = createSafeHttpClient({ allowHosts: ['127.0.0.1'], maxResponseBytes: 1024 * 1024, timeoutMs: 5000 });
const text = (body: Uint8Array): string => new TextDecoder().decode(body);
const failure = async (promise: Promise<unknown>): Promise<CodeError> => {
  const error = await promise.then(() => null, (thrown: unknown) => thrown);
  if (!CodeError.isInstance(error)) throw new Error(`expected a CodeError, got ${String(error)}`);
  return error;
};

describe('createSafeHttpClient', () => {
  it('stops a decompression bomb at the byte cap', async () => {
    const response = await web.fetch({ url: `${server.origin}/bomb` });
    expect(response.truncated).toBe(true);
    expect(response.body.byteLength).toBe(1024 * 1024);
  });

  it('honours a smaller per-request cap but never a larger one', async () => {
    const small = await web.fetch({ url: `${server.origin}/big`, maxBytes: 1000 });
    expect(small).toMatchObject({ truncated: true });
    expect(small.body.byteLength).toBe(1000);
    const capped = await web.fetch({ url: `${server.origin}/bomb`, maxBytes: 1e12 });
    expect(capped.body.byteLength).toBe(1024 * 1024);
  });

  it('decodes br and deflate; corrupt and unknown encodings are transport errors', async () => {
    expect(text((await web.fetch({ url: `${server.origin}/br` })).body)).toBe('brotli body');
    expect(text((await web.fetch({ url: `${server.origin}/deflate` })).body)).toBe('deflate body');
    expect((await failure(web.fetch({ url: `${server.origin}/corrupt` }))).details['errorKind']).toMatchObject({ type: 'transport' });
    expect((await failure(web.fetch({ url: `${server.origin}/weird` }))).details['errorKind']).toMatchObject({ type: 'transport' });
  });

  it('strips sensitive query parameters before the request is sent', async () => {
    const response = await web.fetch({ url: `${server.origin}/echo?q=rust&api_key=SECRET1&access_token=SECRET2&X-Amz-Signature=SECRET3&page=2` });
    expect(text(response.body)).toBe('/echo?q=rust&page=2');
    expect(response.url).toBe(`${server.origin}/echo?q=rust&page=2`);
    expect(JSON.stringify(server.hits)).not.toContain('SECRET');
  });

  it('follows same-origin redirects (stripped) and hands cross-origin ones back', async () => {
    const moved = await web.fetch({ url: `${server.origin}/moved` });
    expect(text(moved.body)).toBe('/echo?from=moved');
    expect(moved.redirects).toEqual([`${server.origin}/echo?from=moved`]);
    const away = await web.fetch({ url: `${server.origin}/away` });
    expect(away.status).toBe(302);
    expect(away.headers['location']).toBe('https://docs.example.org/page?x=1');
  });

  it('turns a POST into a GET on 303', async () => {
    const response = await web.fetch({ url: `${server.origin}/see-other`, method: 'POST', body: 'q=1' });
    expect(text(response.body)).toBe('GET');
  });

  it('returns HTTP error statuses with their headers (callers classify them)', async () => {
    const response = await web.fetch({ url: `${server.origin}/limited` });
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
  });

  it('times out with a timeout error kind', async () => {
    const error = await failure(web.fetch({ url: `${server.origin}/hang`, timeoutMs: 100 }));
    expect(error.details['errorKind']).toMatchObject({ type: 'timeout', op: 'web_fetch' });
  });

  it('keeps its deadline while DNS hangs', async () => {
    const stuck = createSafeHttpClient({ resolver: () => new Promise(() => undefined), timeoutMs: 100 });
    const error = await failure(stuck.fetch({ url: 'http://slow-dns.test/' }));
    expect(error.details['errorKind']).toMatchObject({ type: 'timeout' });
  });

  it('is cancelled by its abort signal', async () => {
    const controller = new AbortController();
    const pending = web.fetch({ url: `${server.origin}/hang`, abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await failure(pending)).details['errorKind']).toMatchObject({ type: 'cancelled' });
  });

  it('reports a refused connection as transport', async () => {
    const closed = await startServer();
    await closed.close();
    const error = await failure(web.fetch({ url: `${closed.origin}/` }));
    expect(error.details['errorKind']).toMatchObject({ type: 'transport', op: 'web_fetch' });
  });
});
