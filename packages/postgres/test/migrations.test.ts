import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';

import { openDatabase } from '../src/database.js';
import { MIGRATIONS, migrate } from '../src/migrations.js';
import type { Migration } from '../src/migrations.js';

let server: PostgresDatabase;
// One PGlite for the file: creating one runs initdb in WebAssembly (seconds on a busy machine).
let pglite: PGlite;
beforeAll(async () => {
  [server, pglite] = await Promise.all([startPostgres(), PGlite.create()]);
});
afterAll(async () => {
  await pglite.close();
  await server.stop();
});

// Versions no migration of the package uses (the store has 1-99, the fleet 100 and up).
const extra: Migration[] = [
  { version: 90_001, name: 'later', up: 'CREATE TABLE t_later (id int PRIMARY KEY); INSERT INTO t_later VALUES (1);' },
  { version: 90_000, name: 'earlier', up: 'CREATE TABLE t_earlier (id int PRIMARY KEY);' },
];

describe('migrate', () => {
  it('on PostgreSQL: eight processes starting at once apply every version exactly once, in order; a second run applies nothing', async () => {
    const dbs = await Promise.all(Array.from({ length: 8 }, () => openDatabase({ connectionString: server.connectionString, maxConnections: 2 })));
    try {
      const applied = await Promise.all(dbs.map((db) => migrate(db, [...MIGRATIONS, ...extra])));
      const all = applied.flat().sort((a, b) => a - b);
      expect(all).toEqual([...MIGRATIONS.map((m) => m.version), 90_000, 90_001].sort((a, b) => a - b));
      const [first] = dbs;
      if (first === undefined) throw new Error('no database');
      const recorded = await first.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY applied_at, version');
      expect(recorded.rows.map((row) => row.version)).toEqual([...MIGRATIONS.map((m) => m.version), 90_000, 90_001]);
      expect((await first.query<{ n: number }>('SELECT count(*)::int AS n FROM t_later')).rows[0]?.n).toBe(1);
      expect(await migrate(first, [...MIGRATIONS, ...extra])).toEqual([]);
      // A version added later (a new release) is applied on the next start, even below the highest.
      expect(await migrate(first, [...MIGRATIONS, ...extra, { version: 89_999, name: 'gap', up: 'CREATE TABLE t_gap (id int)' }])).toEqual([89_999]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it('on PGlite: a failing script records nothing and rolls its changes back; duplicate versions are refused', async () => {
    const db = await openDatabase({ pglite });
    try {
      await expect(migrate(db, [...MIGRATIONS, { version: 90_000, name: 'broken', up: 'CREATE TABLE t_half (id int); SELECT no_such_function();' }])).rejects.toThrow(/no_such_function/);
      expect((await db.query<{ present: boolean }>(`SELECT to_regclass('t_half') IS NOT NULL AS present`)).rows[0]?.present).toBe(false);
      expect((await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await expect(migrate(db, [...extra, { version: 90_000, name: 'again', up: '' }])).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    } finally {
      await db.close();
    }
  });

  it('openDatabase refuses none or several sources and a non-postgres URL', async () => {
    await expect(openDatabase({} as never)).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    await expect(openDatabase({ connectionString: 'mysql://x', pglite: {} } as never)).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    await expect(openDatabase({ connectionString: 'mysql://x' })).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    await expect(openDatabase({ connectionString: server.connectionString, maxConnections: 0 })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'maxConnections' } });
    await expect(openDatabase({ pglite: { dataDir: '' } })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'pglite.dataDir' } });
    await expect(openDatabase({ pglite: null } as never)).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
  });

  it('listen delivers notifications on both drivers', async () => {
    for (const db of [await openDatabase({ connectionString: server.connectionString }), await openDatabase({ pglite })]) {
      const got: string[] = [];
      let arrived: () => void = () => undefined;
      const both = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const listener = await db.listen('a3s_test', (payload) => {
        got.push(payload);
        if (got.length === 2) arrived();
      });
      await db.query(`SELECT pg_notify('a3s_test', 'one')`);
      await db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('a3s_test', $1)`, ['two']);
      });
      await both;
      expect(got).toEqual(['one', 'two']);
      await listener.unlisten();
      await listener.unlisten();
      await db.close();
    }
  });
});
