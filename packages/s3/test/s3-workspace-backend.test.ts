import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeError, HostFailure } from '@a3s-lab/code-core';

import { S3WorkspaceBackend } from '../src/s3-workspace-backend.js';
import type { S3WorkspaceBackendOptions } from '../src/index.js';
import { TEST_BUCKET, startS3Fixture } from './helpers/s3-fixture.js';
import type { S3Fixture } from './helpers/s3-fixture.js';

let fixture: S3Fixture;
beforeAll(async () => {
  fixture = await startS3Fixture();
});
afterAll(async () => {
  await fixture.stop();
});

const decoder = new TextDecoder();
const backendAt = (prefix: string, extra: Partial<S3WorkspaceBackendOptions> = {}): S3WorkspaceBackend =>
  new S3WorkspaceBackend({ ...fixture.connection, bucket: TEST_BUCKET, prefix, ...extra });

describe('S3WorkspaceBackend', () => {
  it('declares read/write/list without exec, git or search unless searchEnabled', () => {
    const plain = backendAt('x');
    expect(plain.capabilities).toEqual({ read: true, write: true, list: true, search: false, exec: false, git: false, versionedWrites: true });
    expect(plain.glob).toBeUndefined();
    expect(plain.search).toBeUndefined();
    expect(plain.root).toBe('s3://workspace/x');
    expect(backendAt('/a/b/', { searchEnabled: true }).capabilities.search).toBe(true);
  });

  it('concurrent compare-and-swap writes from two hosts: exactly one wins, the others get Conflict and change nothing', async () => {
    const prefix = `cas/${fixture.freshPrefix()}`;
    const hosts = Array.from({ length: 5 }, () => backendAt(prefix));
    const base = await hosts[0]?.writeFile({ path: 'shared.txt', content: 'base' });
    const outcomes = await Promise.allSettled(hosts.map((host, index) => host.writeFile({ path: 'shared.txt', content: `host ${index}`, expectedVersion: base?.version ?? null })));
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(winners).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(HostFailure.isHostFailure(outcome.reason) && outcome.reason.reason).toBe('Conflict');
        expect((outcome.reason as HostFailure).path).toBe('shared.txt');
      }
    }
    expect(await fixture.getText(`${prefix}/shared.txt`)).toBe(`host ${winners[0]}`);
    // Creates race too: If-None-Match: * lets one through.
    const creates = await Promise.allSettled(hosts.map((host, index) => host.writeFile({ path: 'new.txt', content: `new ${index}`, expectedVersion: null })));
    expect(creates.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });

  it('plain writes are last-writer-wins', async () => {
    const prefix = `cas/${fixture.freshPrefix()}`;
    const a = backendAt(prefix);
    const b = backendAt(prefix);
    await a.writeFile({ path: 'lww.txt', content: 'a' });
    await b.writeFile({ path: 'lww.txt', content: 'b' });
    expect(decoder.decode((await a.readFile({ path: 'lww.txt' }))?.content)).toBe('b');
  });

  it('keeps keys under the prefix: sibling prefixes are invisible, odd characters are url-encoded, long keys refused', async () => {
    const tag = fixture.freshPrefix();
    const one = backendAt(`iso/${tag}/p1`);
    const ten = backendAt(`iso/${tag}/p10`);
    await ten.writeFile({ path: 'secret.txt', content: 'p10 only' });
    await fixture.putText(`iso/${tag}/p1.txt`, 'beside the prefix');
    expect(await one.readFile({ path: 'secret.txt' })).toBeNull();
    expect((await one.list({ path: '.', limit: 10 }))?.items).toEqual([]);

    // (No `&`: s3rver writes it unescaped into listing XML.)
    const odd = 'dir with space/ünïcödé ?#%+=.txt';
    await one.writeFile({ path: odd, content: 'odd' });
    expect(await fixture.keysUnder(`iso/${tag}/p1/`)).toEqual([`iso/${tag}/p1/${odd}`]);
    expect((await one.list({ path: 'dir with space', limit: 10 }))?.items.map((entry) => entry.path)).toEqual([odd]);

    const long = 'n'.repeat(1024);
    const error = await one.writeFile({ path: long, content: 'x' }).catch((caught: unknown) => caught);
    expect(CodeError.hasCode(error, 'TOOL_ERROR')).toBe(true);
    expect((error as CodeError).details['errorKind']).toMatchObject({ type: 'invalid_argument' });
    for (const path of ['../p10/secret.txt', 'a/../../p10/secret.txt', '/iso/x', 'a\\..\\b', 'nul\0']) {
      await expect(one.readFile({ path })).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
    }
    expect((await one.list({ path: '.', limit: 10 }))?.items.map((entry) => entry.name)).toEqual(['dir with space']);
  });

  it('reads byte windows of a large object and refuses whole reads over maxReadBytes', async () => {
    const backend = backendAt(`read/${fixture.freshPrefix()}`, { maxReadBytes: 1000 });
    const text = Array.from({ length: 400 }, (_, index) => `line ${index}`).join('\n');
    await backend.writeFile({ path: 'big.txt', content: text });
    const window = await backend.readFile({ path: 'big.txt', range: { start: 10, length: 20 } });
    expect(decoder.decode(window?.content)).toBe(text.slice(10, 30));
    expect(window?.size).toBe(text.length);
    const end = await backend.readFile({ path: 'big.txt', range: { start: text.length + 5, length: 20 } });
    expect(end?.content.byteLength).toBe(0);
    const whole = await backend.readFile({ path: 'big.txt' }).catch((error: unknown) => error);
    expect((whole as HostFailure).details).toMatchObject({ hostCode: 'EFBIG', size: text.length });
    await backend.writeFile({ path: 'empty.txt', content: '' });
    expect(await backend.readFile({ path: 'empty.txt' })).toMatchObject({ size: 0 });
  });

  it('marks grep and glob truncated with a warning when maxObjectsScanned or maxGrepBytesPerObject cuts the scan', async () => {
    const backend = backendAt(`scan/${fixture.freshPrefix()}`, { searchEnabled: true, maxObjectsScanned: 3, maxGrepBytesPerObject: 16 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await backend.writeFile({ path: `${name}.txt`, content: `hit ${name}\n` });
    await backend.writeFile({ path: 'a.txt', content: 'hit early\nmore text past the limit hit\n' });
    const glob = await backend.glob?.({ pattern: '*.txt', limit: 10, sort: 'path' });
    expect(glob).toMatchObject({ items: ['a.txt', 'b.txt', 'c.txt'], truncated: true });
    expect(glob?.warnings?.[0]).toContain('maxObjectsScanned');
    const grep = await backend.search?.({ pattern: 'hit', outputMode: 'count', limit: 10 });
    expect(grep?.files).toEqual([{ path: 'a.txt', count: 1 }, { path: 'b.txt', count: 1 }, { path: 'c.txt', count: 1 }]);
    expect(grep?.truncated).toBe(true);
    expect(grep?.warnings?.join('\n')).toContain('maxGrepBytesPerObject');
    const complete = backendAt(backend.prefix, { searchEnabled: true });
    expect((await complete.search?.({ pattern: 'hit', outputMode: 'count', limit: 10 }))?.truncated).toBeUndefined();
  });

  it('refuses bad options with CONFIG_ERROR naming the field', () => {
    const bad: [Partial<S3WorkspaceBackendOptions>, string][] = [
      [{ bucket: 'x' }, 'bucket'],
      [{ prefix: 'a/../b' }, 'prefix'],
      [{ region: '' }, 'region'],
      [{ endpoint: 'ftp://host' }, 'endpoint'],
      [{ endpoint: 'http://user:pass@host' }, 'endpoint'],
      [{ maxObjectsScanned: 0 }, 'maxObjectsScanned'],
      [{ retryMode: 'legacy' as 'standard' }, 'retryMode'],
    ];
    for (const [override, field] of bad) {
      expect(() => new S3WorkspaceBackend({ ...fixture.connection, bucket: TEST_BUCKET, prefix: 'p', ...override })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR', details: { field } }));
    }
  });
});
