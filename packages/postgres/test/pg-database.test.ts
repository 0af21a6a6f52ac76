import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';

import { openDatabase } from '../src/database.js';
import { prepared, preparedName } from '../src/prepared-statements.js';

let server: PostgresDatabase;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server.stop();
});

/** Notifications by subscriber, and `next(name)`: the subscriber's next payload (one not taken yet). */
function subscribers(): { on(name: string): (payload: string) => void; next(name: string): Promise<string>; seen(name: string): string[] } {
  const seen = new Map<string, string[]>();
  const taken = new Map<string, number>();
  const waiters = new Map<string, (payload: string) => void>();
  return {
    on: (name) => (payload) => {
      seen.set(name, [...(seen.get(name) ?? []), payload]);
      const waiter = waiters.get(name);
      if (waiter === undefined) return;
      waiters.delete(name);
      taken.set(name, (taken.get(name) ?? 0) + 1);
      waiter(payload);
    },
    next: (name) => {
      const at = taken.get(name) ?? 0;
      const ready = seen.get(name)?.[at];
      if (ready !== undefined) {
        taken.set(name, at + 1);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiters.set(name, resolve));
    },
    seen: (name) => seen.get(name) ?? [],
  };
}

describe('the pg Database', () => {
  it('listens on every channel over one connection of the pool, given back with the last unlisten', async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
    const db = await openDatabase({ pool });
    const subs = subscribers();
    const on = subs.on;
    try {
      const [a, b, a2] = await Promise.all([db.listen('chan_a', on('a')), db.listen('chan_b', on('b')), db.listen('chan_a', on('a2'))]);
      expect(pool.totalCount - pool.idleCount).toBe(1);
      const listening = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
      expect(listening.rows[0]?.n).toBe(1);
      const gotA = subs.next('a');
      const gotA2 = subs.next('a2');
      const gotB = subs.next('b');
      await db.query("SELECT pg_notify('chan_a', 'one'), pg_notify('chan_b', 'two')");
      expect(await gotA).toBe('one');
      expect(await gotA2).toBe('one');
      expect(await gotB).toBe('two');
      // One subscriber of a channel leaves: the other still hears it.
      await a.unlisten();
      const again = subs.next('a2');
      await db.query("SELECT pg_notify('chan_a', 'three')");
      expect(await again).toBe('three');
      expect(subs.seen('a')).toEqual(['one']);
      await a2.unlisten();
      await b.unlisten();
      await b.unlisten();
      expect(pool.totalCount - pool.idleCount).toBe(0);
      // Listening again takes a connection again.
      const c = await db.listen('chan_b', on('b'));
      const gotB2 = subs.next('b');
      await db.query("SELECT pg_notify('chan_b', 'four')");
      expect(await gotB2).toBe('four');
      await c.unlisten();
    } finally {
      await db.close();
      await pool.end();
    }
  });

  it('says a subscription is no longer live once its connection is lost, without an unhandled error', async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
    const db = await openDatabase({ pool });
    const subs = subscribers();
    try {
      const listener = await db.listen('chan_lost', subs.on('lost'));
      expect(listener.live()).toBe(true);
      const heard = subs.next('lost');
      await db.query("SELECT pg_notify('chan_lost', 'before')");
      expect(await heard).toBe('before');
      // The server ends the listening connection (a failover, an idle-session kill, a restart).
      const killed = await db.query<{ n: number }>(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      );
      expect(killed.rows[0]?.n).toBe(1);
      await vi.waitFor(() => expect(listener.live()).toBe(false), { timeout: 10_000, interval: 20 });
      await listener.unlisten();
      expect(listener.live()).toBe(false);
      // With every subscriber gone the broken connection was given back (destroyed), and a new
      // subscription takes a fresh one that hears again.
      const again = await db.listen('chan_lost', subs.on('again'));
      expect(again.live()).toBe(true);
      const heardAgain = subs.next('again');
      await db.query("SELECT pg_notify('chan_lost', 'after')");
      expect(await heardAgain).toBe('after');
      await again.unlisten();
      expect(again.live()).toBe(false);
    } finally {
      await db.close();
      await pool.end();
    }
  });

  it('runs a registered statement prepared on its connection, any other one unnamed', async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 1 });
    const db = await openDatabase({ pool });
    try {
      const sql = prepared('SELECT $1::int + 1 AS n');
      const name = preparedName(sql);
      expect(name).toMatch(/^a3s_[0-9a-f]{24}$/);
      expect(preparedName('SELECT 2')).toBeUndefined();
      expect((await db.query<{ n: number }>(sql, [1])).rows[0]?.n).toBe(2);
      expect((await db.query<{ n: number }>(sql, [41])).rows[0]?.n).toBe(42);
      const names = await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
      expect(names.rows.map((r) => r.name)).toEqual([name]);
    } finally {
      await db.close();
      await pool.end();
    }
  });
});
