// The session's sandbox network policy as a ceiling over every web hop (issue 31, one policy
// for every tool): `none` fetches nothing, `{ allow }` only listed host:ports, on every redirect too.
import { afterAll, describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { createSafeHttpClient } from '../src/index.js';
import { redirector, startServer } from './http-fixtures.js';

const hop = await startServer(redirector);
const target = await startServer();

afterAll(async () => {
  await hop.close();
  await target.close();
});

async function refusal(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(CodeError.hasCode(error, 'SECURITY_ERROR')).toBe(true);
  return (error as CodeError).message;
}

describe('createSafeHttpClient({ network })', () => {
  it("'none' refuses every fetch before connecting, whatever allowHosts says", async () => {
    const client = createSafeHttpClient({ network: 'none', allowHosts: ['127.0.0.1'] });
    expect(await refusal(client.fetch({ url: `${target.origin}/` }))).toMatch(/sandbox network policy is 'none'/);
    expect(target.hits).toEqual([]);
  });

  it('an allow-list reaches the listed host:port (private or not) and refuses a redirect to any other', async () => {
    const client = createSafeHttpClient({ network: { allow: [`127.0.0.1:${hop.port}`] } });
    expect((await client.fetch({ url: `${hop.origin}/` })).status).toBe(200);
    const message = await refusal(client.fetch({ url: `${hop.origin}/to?u=${encodeURIComponent(`${target.origin}/`)}`, redirects: 'all' }));
    expect(message).toMatch(new RegExp(`127\\.0\\.0\\.1:${target.port} is not on the sandbox network allow-list`));
    expect(target.hits).toEqual([]);
    // A name is compared as written, like the process proxy does: `localhost` is not `127.0.0.1`.
    expect(await refusal(client.fetch({ url: `http://localhost:${hop.port}/` }))).toMatch(/not on the sandbox network allow-list/);
  });

  it("'full' leaves the address guard and allowHosts in charge", async () => {
    expect(await refusal(createSafeHttpClient({ network: 'full' }).fetch({ url: `${target.origin}/` }))).toMatch(/allowHosts/);
    expect((await createSafeHttpClient({ network: 'full', allowHosts: ['127.0.0.1'] }).fetch({ url: `${target.origin}/` })).status).toBe(200);
  });

  it('a bad allow entry is a configuration error naming sandbox.network.allow', () => {
    expect(() => createSafeHttpClient({ network: { allow: ['http://x/'] } })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field: 'sandbox.network.allow[0]' }) }));
  });
});
