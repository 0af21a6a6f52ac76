import { afterAll, describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { createSafeHttpClient } from '../src/index.js';
import type { HostResolver, ResolvedAddress } from '../src/index.js';
import { redirector, startServer } from './http-fixtures.js';
import type { CountingServer } from './http-fixtures.js';

// Every hostile URL and redirect chain must be refused with NOTHING sent to the target: the target
// server counts its hits and must end the suite with none. DNS is a fake map (no network).
// Started at module load: the test tables below are built from their ports.
const target = await startServer();
const T = target.port;
const hop = await startServer(redirector);
let decoy: CountingServer | undefined;

const answers: Record<string, readonly ResolvedAddress[]> = {
  'evil.test': [{ address: '127.0.0.1', family: 4 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'v6loop.test': [{ address: '::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'meta.test': [{ address: '169.254.169.254', family: 4 }],
};
const lookups: string[] = [];
const resolver: HostResolver = async (hostname) => {
  lookups.push(hostname);
  const found = answers[hostname];
  if (found === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

afterAll(async () => {
  await target.close();
  await hop.close();
  await decoy?.close();
});

function client(extra: readonly string[] = []) {
  // Only the redirector's own port is allowed: the target's port on the same address is not.
  return createSafeHttpClient({ allowHosts: [`127.0.0.1:${hop.port}`, ...extra], resolver, timeoutMs: 5000 });
}

async function refusal(promise: Promise<unknown>): Promise<CodeError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(CodeError.isInstance(error), `expected a refusal, got ${String(error)}`).toBe(true);
  return error as CodeError;
}

const hostileUrls = (): string[] => [
  `http://127.0.0.1:${T}/`,
  `http://localhost:${T}/`,
  `http://LOCALHOST.:${T}/`,
  `http://foo.localhost:${T}/`,
  `http://[::1]:${T}/`,
  `http://[::ffff:127.0.0.1]:${T}/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${T}/`,
  `http://[::127.0.0.1]:${T}/`,
  `http://[64:ff9b::7f00:1]:${T}/`,
  `http://[2002:7f00:1::]:${T}/`,
  `http://0x7f.1:${T}/`,
  `http://0x7f000001:${T}/`,
  `http://2130706433:${T}/`,
  `http://017700000001:${T}/`,
  `http://0177.0.0.1:${T}/`,
  `http://127.1:${T}/`,
  `http://127.0.0.1.:${T}/`,
  `http://0.0.0.0:${T}/`,
  `http://0:${T}/`,
  `http://[::]:${T}/`,
  `http://user:pw@127.0.0.1:${T}/`,
  `http://${hop.host}:${hop.port}@127.0.0.1:${T}/`,
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://100.100.100.200/latest/meta-data/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  `http://evil.test:${T}/`,
  `http://mixed.test:${T}/`,
  `http://v6loop.test:${T}/`,
  `http://mapped.test/`,
  `https://127.0.0.1:${T}/`,
];

describe('SSRF: hostile URLs are refused before anything is sent', () => {
  it('has at least 25 hostile URLs', () => {
    expect(hostileUrls().length).toBeGreaterThanOrEqual(25);
  });

  it.each(hostileUrls().map((url) => [url]))('refuses %s', async (url) => {
    const error = await refusal(client().fetch({ url }));
    expect(error.code).toBe('SECURITY_ERROR');
    expect(error.details['errorKind']).toMatchObject({ type: 'permission_denied' });
    expect(target.hits).toEqual([]);
  });

  it.each([['file:///etc/passwd'], ['gopher://127.0.0.1:70/_'], ['ftp://127.0.0.1/'], ['javascript:alert(1)'], ['not a url']])('refuses %s as an invalid argument', async (url) => {
    const error = await refusal(client().fetch({ url }));
    expect(error.details['errorKind']).toMatchObject({ type: 'invalid_argument' });
  });
});

describe('SSRF: redirect chains are re-checked at every hop', () => {
  const via = (to: string, status = 302): string => `${hop.origin}/to?s=${status}&u=${encodeURIComponent(to)}`;
  const chains = (): string[] => [
    via('http://169.254.169.254/latest/meta-data/'),
    via(`http://[::ffff:127.0.0.1]:${T}/`),
    via(`http://0x7f.1:${T}/`),
    via(`http://2130706433:${T}/`),
    via(`http://localhost:${T}/`),
    via(`http://evil.test:${T}/`),
    via('http://meta.test/latest/meta-data/'),
    via(`http://127.0.0.1:${T}/`, 307),
    via(`http://127.0.0.1:${T}/`, 308),
    via(`http://127.0.0.1:${T}/`, 301),
    via(`http://127.0.0.1:${T}/`, 303),
    via(via(via(`http://127.0.0.1:${T}/`))),
    via('file:///etc/passwd'),
  ];

  it.each(chains().map((url) => [url]))('refuses %s (following every redirect)', async (url) => {
    const error = await refusal(client().fetch({ url, redirects: 'all' }));
    expect(error.code).toBe('SECURITY_ERROR');
    expect(target.hits).toEqual([]);
  });

  it.each(chains().map((url) => [url]))('refuses %s or hands the hop back unfollowed (same-origin mode)', async (url) => {
    // A cross-origin hop whose host needs DNS is not resolved here: it comes back as the 3xx, for
    // the caller to govern as a new call (where the checks above refuse it). Nothing is followed.
    const outcome = await client()
      .fetch({ url })
      .then(
        (response) => response,
        (error: unknown) => error,
      );
    if (CodeError.isInstance(outcome)) expect(outcome.code).toBe('SECURITY_ERROR');
    else expect(outcome).toMatchObject({ status: 302, redirects: [] });
    expect(target.hits).toEqual([]);
  });

  it('caps a redirect loop', async () => {
    const loop = `${hop.origin}/to?u=${encodeURIComponent('/to?u=' + encodeURIComponent('/to?u=/to%3Fu%3D%252F'))}`;
    const error = await refusal(createSafeHttpClient({ allowHosts: ['127.0.0.1'], maxRedirects: 2 }).fetch({ url: loop }));
    expect(error.details['errorKind']).toMatchObject({ type: 'transport', op: 'redirect' });
  });
});

describe('SSRF: DNS answers that change between check and connect', () => {
  it('connects to the checked address and re-resolves (and refuses) on the next hop', async () => {
    // First answer: 127.0.0.2 (allow-listed, a decoy on the target's port). Every later answer:
    // 127.0.0.1, the target. A client that resolved again at connect time would hit the target.
    decoy = await startServer(
      (request, response) => {
        if (request.url === '/start') {
          response.writeHead(302, { location: '/next' });
          response.end();
        } else response.end('decoy');
      },
      { host: '127.0.0.2', port: T },
    );
    let calls = 0;
    const rebinding: HostResolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    };
    const web = createSafeHttpClient({ allowHosts: ['127.0.0.2'], resolver: rebinding });
    const ok = await web.fetch({ url: `http://rebind.test:${T}/plain` });
    expect(new TextDecoder().decode(ok.body)).toBe('decoy');
    expect(calls).toBe(1);
    const error = await refusal(web.fetch({ url: `http://rebind.test:${T}/start` }));
    expect(error.code).toBe('SECURITY_ERROR');
    expect(decoy.hits).toEqual(['GET /plain']);
    expect(target.hits).toEqual([]);
  });
});

describe('allow-listing', () => {
  it('reaches 127.0.0.1 when allowed, and only on the allowed port', async () => {
    const allowed = createSafeHttpClient({ allowHosts: [`127.0.0.1:${hop.port}`] });
    const response = await allowed.fetch({ url: `${hop.origin}/` });
    expect(response.status).toBe(200);
    await refusal(allowed.fetch({ url: `http://127.0.0.1:${T}/` }));
    expect(target.hits).toEqual([]);
  });

  it('rejects malformed entries naming the field', () => {
    expect(() => createSafeHttpClient({ allowHosts: ['http://x.dev/'] })).toThrow(/webFetch\.allowHosts\[0\]/);
    expect(() => createSafeHttpClient({ allowHosts: ['x.dev:99999'] })).toThrow(/port/);
  });
});
