// The server as an attack surface (SECURITY.md #12): bearer token on every API request, Host and
// Origin checks against DNS rebinding and cross-site pages, body caps, workspaces confined to
// the configured roots, and no client-chosen policy.
import { request } from 'node:http';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness({ maxBodyBytes: 4096 });
});
afterAll(async () => {
  await h.cleanup();
});

const errorOf = async (response: Response): Promise<[number, string]> => [response.status, ((await response.json()) as { error: { code: string } }).error.code];

/** A raw request with a chosen Host header (fetch does not let callers set it). */
function rawGet(path: string, headers: Record<string, string>): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const url = new URL(h.server.url);
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve([res.statusCode ?? 0, (JSON.parse(body) as { error: { code: string } }).error.code]));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication', () => {
  it('401 without a token, with a wrong one, and with a non-Bearer scheme; every API route', async () => {
    for (const path of ['/api/sessions', '/api/sessions/s_x/runs', '/api/sessions/s_x/runs/r/stream', '/api/nope']) {
      const response = await fetch(`${h.server.url}${path}`);
      expect(await errorOf(response)).toEqual([401, 'UNAUTHORIZED']);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await errorOf(await h.api('/api/sessions', { headers: { authorization: `Bearer ${TEST_TOKEN}x` } }))).toEqual([401, 'UNAUTHORIZED']);
    expect(await errorOf(await h.api('/api/sessions', { headers: { authorization: `Basic ${TEST_TOKEN}` } }))).toEqual([401, 'UNAUTHORIZED']);
    const post = await fetch(`${h.server.url}/api/sessions`, { method: 'POST', body: JSON.stringify({ workspace: h.repo }), headers: { 'content-type': 'application/json' } });
    expect(await errorOf(post)).toEqual([401, 'UNAUTHORIZED']);
    expect((await h.api('/api/sessions')).status).toBe(200);
  });
});

describe('Origin and Host (DNS rebinding, cross-site pages)', () => {
  it('403 for a foreign Origin, even with the token; the own origin passes', async () => {
    expect(await errorOf(await h.api('/api/sessions', { headers: { origin: 'https://evil.example' } }))).toEqual([403, 'FORBIDDEN_ORIGIN']);
    expect(await errorOf(await h.api('/api/sessions', { headers: { origin: 'null' } }))).toEqual([403, 'FORBIDDEN_ORIGIN']);
    expect(await errorOf(await h.api('/api/sessions', { headers: { origin: `http://127.0.0.1:${h.server.port + 1}` } }))).toEqual([403, 'FORBIDDEN_ORIGIN']);
    expect((await h.api('/api/sessions', { headers: { origin: h.server.url } })).status).toBe(200);
  });

  it('403 for a foreign Host header (a rebound DNS name), for the API and the UI alike', async () => {
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    expect(await rawGet('/api/sessions', { ...auth, host: `evil.example:${h.server.port}` })).toEqual([403, 'FORBIDDEN_HOST']);
    expect(await rawGet('/', { host: `evil.example:${h.server.port}` })).toEqual([403, 'FORBIDDEN_HOST']);
    expect(await rawGet('/api/nope', { ...auth, host: `localhost:${h.server.port}` })).toEqual([404, 'NOT_FOUND']);
  });

  it('the UI shell is served without a token, with a strict CSP and no framing', async () => {
    const page = await fetch(`${h.server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // The Vite build: one hashed module script, no inline script (the CSP would refuse it).
    const html = await page.text();
    const script = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = await fetch(`${h.server.url}${script ?? ''}`);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });
});

describe('request bodies', () => {
  it('413 over the cap, 400 for non-JSON and for fields the server does not act on', async () => {
    const big = JSON.stringify({ workspace: h.repo, pad: 'x'.repeat(5000) });
    expect(await errorOf(await h.api('/api/sessions', { method: 'POST', body: big }))).toEqual([413, 'BODY_TOO_LARGE']);
    expect(await errorOf(await h.api('/api/sessions', { method: 'POST', body: 'not json' }))).toEqual([400, 'BAD_REQUEST']);
    // A client cannot choose the permission policy: the field is refused, not ignored.
    const policy = await h.api('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo, permissionPolicy: { allow: ['*'] } }) });
    expect(await errorOf(policy)).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('workspace roots', () => {
  it('403 outside the roots (sibling prefix, .., symlink out); 400 for relative or missing paths', async () => {
    const post = (workspace: string) => h.api('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace }) });
    expect(await errorOf(await post(join(h.dir, 'outside')))).toEqual([403, 'WORKSPACE_NOT_ALLOWED']);
    expect(await errorOf(await post(join(h.dir, 'root', '..', 'outside')))).toEqual([403, 'WORKSPACE_NOT_ALLOWED']);
    symlinkSync(join(h.dir, 'outside'), join(h.dir, 'root', 'link-out'));
    expect(await errorOf(await post(join(h.dir, 'root', 'link-out')))).toEqual([403, 'WORKSPACE_NOT_ALLOWED']);
    expect(await errorOf(await post('relative/path'))).toEqual([400, 'BAD_REQUEST']);
    expect(await errorOf(await post(join(h.dir, 'root', 'missing')))).toEqual([400, 'BAD_REQUEST']);
    expect((await post(h.repo)).status).toBe(201);
  });
});
