import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostFailure } from '@a3s-lab/code-core';
import { sampleSessionSnapshot, sessionStoreContract } from '@a3s-lab/code-core/testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';

import { openDatabase } from '../src/database.js';
import type { Database } from '../src/database.js';
import { PostgresSessionStore } from '../src/postgres-session-store.js';
import type { PostgresSessionStoreOptions } from '../src/postgres-session-store.js';

let server: PostgresDatabase;
let pglite: PGlite;
let raw: Database;
let rawLite: Database;
beforeAll(async () => {
  [server, pglite] = await Promise.all([startPostgres(), PGlite.create()]);
  [raw, rawLite] = await Promise.all([openDatabase({ connectionString: server.connectionString }), openDatabase({ pglite })]);
});
afterAll(async () => {
  await Promise.all([raw.close(), rawLite.close()]);
  await pglite.close();
  await server.stop();
});

// Every case starts from an empty table; the database (and PGlite instance) is shared so the suite stays fast.
const putRaw = (db: Database) => async (id: string, text: string) => {
  await db.query(`INSERT INTO a3s_sessions (session_id, document) VALUES ($1, $2) ON CONFLICT (session_id) DO UPDATE SET document = $2, revision = a3s_sessions.revision + 1`, [id, text]);
};
const fixtureOn = (db: () => Database, options: () => PostgresSessionStoreOptions) => async () => {
  const store = new PostgresSessionStore(options());
  await store.ready();
  await db().query('DELETE FROM a3s_sessions');
  return { store, putRaw: putRaw(db()), cleanup: () => store.close() };
};

describe('PostgresSessionStore: session store contract on PostgreSQL 15', () => {
  for (const c of sessionStoreContract(fixtureOn(() => raw, () => ({ connectionString: server.connectionString })))) it(c.title, c.run);
});

describe('PostgresSessionStore: session store contract on PGlite', () => {
  for (const c of sessionStoreContract(fixtureOn(() => rawLite, () => ({ pglite })))) it(c.title, c.run);
});

describe.each([
  ['PostgreSQL', () => ({ connectionString: server.connectionString }) as PostgresSessionStoreOptions, () => raw],
  ['PGlite', () => ({ pglite }) as PostgresSessionStoreOptions, () => rawLite],
])('PostgresSessionStore on %s', (_name, options, db) => {
  it('two hosts saving the same session: the stale one gets a typed Conflict and nothing is overwritten; after reloading it can save', async () => {
    await db().query('DELETE FROM a3s_sessions');
    const hostA = new PostgresSessionStore(options());
    const hostB = new PostgresSessionStore(options());
    await hostA.save(sampleSessionSnapshot('shared', 1, 'from A'));
    expect((await hostB.load('shared'))?.generation).toBe(1);
    await hostB.save(sampleSessionSnapshot('shared', 2, 'from B'));

    const stale = await hostA.save(sampleSessionSnapshot('shared', 2, 'A again')).catch((error: unknown) => error);
    expect(HostFailure.isHostFailure(stale) && stale.reason).toBe('Conflict');
    expect((stale as HostFailure).message).toContain(hostA.name);
    expect((stale as HostFailure).details).toMatchObject({ store: hostA.name, sessionId: 'shared' });
    expect((await hostB.load('shared'))?.conversation[0]?.content[0]).toMatchObject({ text: 'from B' });

    expect((await hostA.load('shared'))?.generation).toBe(2);
    await hostA.save(sampleSessionSnapshot('shared', 3, 'A after reload'));
    expect((await hostB.load('shared'))?.generation).toBe(3);
    // A host that never saw the session cannot create it over an existing row either.
    const fresh = new PostgresSessionStore(options());
    expect(await fresh.save(sampleSessionSnapshot('shared', 9)).catch((error: unknown) => (error as HostFailure).reason)).toBe('Conflict');
    // Racing on one generation: exactly one of six hosts wins.
    const hosts = Array.from({ length: 6 }, () => new PostgresSessionStore(options()));
    for (const host of hosts) await host.load('shared');
    const outcomes = await Promise.allSettled(hosts.map((host, index) => host.save(sampleSessionSnapshot('shared', 4, `host ${index}`))));
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(winners).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as HostFailure).reason).toBe('Conflict');
    expect((await fresh.load('shared'))?.conversation[0]?.content[0]).toMatchObject({ text: `host ${winners[0]}` });
    await Promise.all([hostA.close(), hostB.close(), fresh.close(), ...hosts.map((host) => host.close())]);
  });

  it('lists sessions by owner and labels a page at a time', async () => {
    await db().query('DELETE FROM a3s_sessions');
    const store = new PostgresSessionStore(options());
    const ids = Array.from({ length: 25 }, (_, index) => `s-${String(index).padStart(2, '0')}`);
    for (const [index, id] of ids.entries()) {
      await store.save({ ...sampleSessionSnapshot(id, index + 1), labels: { owner: index % 2 === 0 ? 'alice' : 'bob', tenant: index < 10 ? 't1' : 't2' } });
    }
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await store.listPage({ owner: 'alice', limit: 5, ...(cursor === null ? {} : { cursor }) });
      pages.push(page.entries.map((entry) => entry.sessionId));
      expect(page.entries.every((entry) => entry.labels['owner'] === 'alice' && Number.isFinite(entry.updatedAtMs))).toBe(true);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => page.length)).toEqual([5, 5, 3]);
    expect(pages.flat()).toEqual(ids.filter((_, index) => index % 2 === 0));
    const bobInT1 = await store.listPage({ owner: 'bob', labels: { tenant: 't1' } });
    expect(bobInT1).toEqual({ entries: expect.any(Array), nextCursor: null });
    expect(bobInT1.entries.map((entry) => [entry.sessionId, entry.generation])).toEqual([1, 3, 5, 7, 9].map((index) => [ids[index], index + 1]));
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual(ids);
    await expect(store.listPage({ limit: 0 })).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    await expect(store.listPage({ cursor: '../x' })).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    await store.close();
  });
});

describe('PostgresSessionStore on a PGlite data directory', () => {
  it('keeps sessions on disk: a store opened later on the same directory loads them and continues the revisions', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'a3s-pglite-'));
    try {
      const first = new PostgresSessionStore({ pglite: { dataDir } });
      expect(first.name).toBe(`pglite:${dataDir}`);
      await first.save({ ...sampleSessionSnapshot('on-disk', 1), labels: { owner: 'carol' } });
      await first.close();
      const second = new PostgresSessionStore({ pglite: { dataDir } });
      expect((await second.load('on-disk'))?.labels).toEqual({ owner: 'carol' });
      await second.save(sampleSessionSnapshot('on-disk', 2));
      expect((await second.listPage()).entries.map((entry) => [entry.sessionId, entry.generation])).toEqual([['on-disk', 2]]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('PostgresSessionStore errors', () => {
  it('names the server without the password and reports an unreachable server as Unavailable', async () => {
    const store = new PostgresSessionStore({ connectionString: 'postgresql://app:s3cret@127.0.0.1:1/db' });
    expect(store.name).toBe('postgres://app@127.0.0.1:1/db');
    const failure = await store.load('a').catch((error: unknown) => error);
    expect(HostFailure.isHostFailure(failure) && failure.reason).toBe('Unavailable');
    expect((failure as Error).message).toContain(store.name);
    expect((failure as Error).message).not.toContain('s3cret');
    await store.close();
    await expect(store.load('a')).rejects.toMatchObject({ code: 'SESSION_ERROR' });
  });
});
