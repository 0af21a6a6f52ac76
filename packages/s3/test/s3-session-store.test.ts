import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostFailure } from '@a3s-lab/code-core';
import { sampleSessionSnapshot, sessionStoreContract } from '@a3s-lab/code-core/testing';

import { S3SessionStore } from '../src/s3-session-store.js';
import { TEST_BUCKET, startS3Fixture } from './helpers/s3-fixture.js';
import type { S3Fixture } from './helpers/s3-fixture.js';

let fixture: S3Fixture;
beforeAll(async () => {
  fixture = await startS3Fixture();
});
afterAll(async () => {
  await fixture.stop();
});

const storeAt = (prefix: string): S3SessionStore => new S3SessionStore({ ...fixture.connection, bucket: TEST_BUCKET, prefix });

describe('S3SessionStore: session store contract (s3rver through the conditional proxy)', () => {
  for (const c of sessionStoreContract(async () => {
    const prefix = `stores/${fixture.freshPrefix('contract')}`;
    const store = storeAt(prefix);
    return {
      store,
      putRaw: (id, text) => fixture.putText(`${prefix}/${id}.json`, text),
      cleanup: async () => {
        await store.close();
        await fixture.removePrefix(prefix);
      },
    };
  })) {
    it(c.title, c.run);
  }
});

describe('S3SessionStore', () => {
  it('two hosts saving the same session: the one saving over a generation it has not seen gets a typed conflict and nothing is overwritten; after reloading it can save', async () => {
    const prefix = `stores/${fixture.freshPrefix('hosts')}`;
    const hostA = storeAt(prefix);
    const hostB = storeAt(prefix);
    await hostA.save(sampleSessionSnapshot('shared', 1, 'from A'));
    expect((await hostB.load('shared'))?.generation).toBe(1);
    await hostB.save(sampleSessionSnapshot('shared', 2, 'from B'));

    const stale = await hostA.save(sampleSessionSnapshot('shared', 2, 'A again')).catch((error: unknown) => error);
    expect(HostFailure.isHostFailure(stale) && stale.reason).toBe('Conflict');
    expect((stale as HostFailure).message).toContain(hostA.name);
    expect((stale as HostFailure).details).toMatchObject({ store: hostA.name, sessionId: 'shared' });
    const stored = JSON.parse((await fixture.getText(`${prefix}/shared.json`)) ?? '{}') as { conversation: { content: { text: string }[] }[] };
    expect(stored.conversation[0]?.content[0]?.text).toBe('from B');

    expect((await hostA.load('shared'))?.generation).toBe(2);
    await hostA.save(sampleSessionSnapshot('shared', 3, 'A after reload'));
    expect((await hostB.load('shared'))?.generation).toBe(3);
    // A host that never saw the session cannot create it over an existing document either.
    const fresh = storeAt(prefix);
    expect(await fresh.save(sampleSessionSnapshot('shared', 9)).catch((error: unknown) => (error as HostFailure).reason)).toBe('Conflict');
    await Promise.all([hostA.close(), hostB.close(), fresh.close()]);
  });

  it('two hosts racing on the same generation: exactly one save wins', async () => {
    const prefix = `stores/${fixture.freshPrefix('race')}`;
    const seed = storeAt(prefix);
    await seed.save(sampleSessionSnapshot('raced', 1));
    const hosts = Array.from({ length: 6 }, () => storeAt(prefix));
    for (const host of hosts) await host.load('raced');
    const outcomes = await Promise.allSettled(hosts.map((host, index) => host.save(sampleSessionSnapshot('raced', 2, `host ${index}`))));
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(winners).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as HostFailure).reason).toBe('Conflict');
    const loaded = await seed.load('raced');
    expect(loaded?.conversation[0]?.content[0]).toMatchObject({ text: `host ${winners[0]}` });
    await Promise.all([seed.close(), ...hosts.map((host) => host.close())]);
  });

  it('lists sessions across listing pages and ignores foreign objects', async () => {
    const prefix = `stores/${fixture.freshPrefix('many')}`;
    const store = storeAt(prefix);
    const ids = Array.from({ length: 1005 }, (_, index) => `s-${String(index).padStart(4, '0')}`);
    // Written straight to the bucket (a save per id would take long); list only reads keys.
    for (let start = 0; start < ids.length; start += 50) await Promise.all(ids.slice(start, start + 50).map((id) => fixture.putText(`${prefix}/${id}.json`, '{}')));
    await fixture.putText(`${prefix}/notes.txt`, 'x');
    await fixture.putText(`${prefix}/nested/s-9999.json`, '{}');
    await fixture.putText(`${prefix}/bad id.json`, '{}');
    const listed = await store.list();
    expect(listed.map((entry) => entry.sessionId)).toEqual(ids);
    await store.close();
  }, 120_000);

  it('refuses bad options with CONFIG_ERROR and never echoes a credential', () => {
    expect(() => new S3SessionStore({ bucket: 'x', region: 'us-east-1' })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    expect(() => new S3SessionStore({ bucket: 'sessions', prefix: 'a/../b', region: 'us-east-1' })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    let message = '';
    try {
      new S3SessionStore({ bucket: 'sessions', region: 'us-east-1', secretAccessKey: 'very-secret-value' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('accessKeyId');
    expect(message).not.toContain('very-secret-value');
  });
});
