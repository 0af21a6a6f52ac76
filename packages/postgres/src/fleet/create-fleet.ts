// createFleet: options, connections, migrations, pg-boss and the run queue, then the Fleet.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import { CodeError } from '@a3s-lab/code-core';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PgBoss, fromPglite } from 'pg-boss';

import { openDatabase } from '../database.js';
import type { DatabaseOptions } from '../database.js';
import { migrate } from '../migrations.js';
import { Fleet, FLEET_QUEUE } from './fleet.js';
import type { BossDb } from './fleet.js';
import type { FleetAgent } from './fleet-types.js';

/** pg-boss's floor for a job heartbeat. */
const MIN_LEASE_MS = 10_000;

/** Options of {@link createFleet}. */
export type FleetOptions = DatabaseOptions & {
  /** Builds the sessions runs execute in (`@a3s-lab/code`'s `Agent`). */
  readonly agent: FleetAgent;
  /** This process's name in `run().workerId`. Default `<hostname>:<pid>:<random>`. */
  readonly workerId?: string;
  /**
   * A worker that stops heartbeating loses its runs to another within this time (pg-boss job
   * heartbeat). Default 30000; at least 10000 (pg-boss's heartbeat floor); whole seconds.
   */
  readonly leaseMs?: number;
  /** How often waiting readers and workers look at the database besides LISTEN/NOTIFY, ms. Default 500. */
  readonly pollMs?: number;
};

/**
 * Opens a {@link Fleet} over `connectionString`, a `pg` `pool` or `pglite` (an instance or
 * `{ dataDir }`): migrates the package's tables, starts pg-boss (its own schema) and the queue.
 *
 * @throws CodeError CONFIG_ERROR for bad options (a `leaseMs` under 10000: pg-boss's heartbeat floor).
 */
export async function createFleet(options: FleetOptions): Promise<Fleet> {
  if (typeof options !== 'object' || options === null || typeof (options as { agent?: { resumeSessionAsync?: unknown } }).agent?.resumeSessionAsync !== 'function') {
    throw new CodeError('CONFIG_ERROR', 'createFleet needs { agent } (an @a3s-lab/code Agent)', { details: { field: 'agent' } });
  }
  const leaseMs = options.leaseMs ?? 30_000;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < MIN_LEASE_MS || leaseMs % 1000 !== 0 || leaseMs > 3_600_000) {
    throw new CodeError('CONFIG_ERROR', `leaseMs must be whole seconds from ${MIN_LEASE_MS} (pg-boss's job heartbeat floor) to 3600000, got ${String(leaseMs)}`, { details: { field: 'leaseMs', value: leaseMs } });
  }
  const pollMs = options.pollMs ?? 500;
  if (!Number.isSafeInteger(pollMs) || pollMs < 20 || pollMs > 60_000) throw new CodeError('CONFIG_ERROR', 'pollMs must be an integer from 20 to 60000', { details: { field: 'pollMs', value: pollMs } });
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  if (typeof workerId !== 'string' || workerId.length === 0 || workerId.length > 200) throw new CodeError('CONFIG_ERROR', 'workerId must be a string of 1-200 characters', { details: { field: 'workerId' } });

  const kinds = (['connectionString', 'pool', 'pglite'] as const).filter((k) => (options as Record<string, unknown>)[k] !== undefined);
  if (kinds.length !== 1) throw new CodeError('CONFIG_ERROR', `createFleet needs exactly one of connectionString, pool or pglite (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`, { details: { field: 'connectionString' } });
  let storeOptions: DatabaseOptions;
  let bossDb: BossDb;
  let owned: (() => Promise<void>) | null = null;
  if ('pglite' in options && options.pglite !== undefined) {
    const given = options.pglite;
    const instance = given instanceof PGlite || typeof (given as { query?: unknown }).query === 'function' ? (given as PGlite) : await PGlite.create((given as { dataDir?: string }).dataDir);
    if (instance !== given) owned = () => instance.close();
    storeOptions = { pglite: instance };
    bossDb = { db: fromPglite(instance), backend: 'pglite' };
  } else {
    const pool = 'pool' in options && options.pool !== undefined ? options.pool : new pg.Pool({ connectionString: (options as { connectionString: string }).connectionString, max: 10 });
    if (!('pool' in options && options.pool !== undefined)) {
      // An idle connection the server ends (a restart, pg_terminate_backend, an idle timeout, a
      // dropped database; also while pool.end() is closing it) is an 'error' of the pool: without a
      // listener, that would crash the host. The pool replaces the connection on its next use.
      pool.on('error', () => undefined);
      owned = () => pool.end();
    }
    storeOptions = { pool };
    bossDb = 'connectionString' in options && options.connectionString !== undefined ? { connectionString: options.connectionString, max: 4 } : { db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) } };
  }
  const db = await openDatabase(storeOptions);
  await migrate(db);
  const leaseSeconds = leaseMs / 1000;
  const boss = new PgBoss({
    ...bossDb,
    superviseIntervalSeconds: Math.max(1, Math.floor(leaseSeconds / 10)),
    monitorIntervalSeconds: Math.max(1, Math.floor(leaseSeconds / 10)),
    instanceName: workerId.slice(0, 100),
    useListenNotify: true,
  });
  boss.on('error', () => undefined);
  await boss.start();
  // notify: a submitted run wakes an idle worker at once (LISTEN/NOTIFY) instead of at its next poll.
  const queue = { heartbeatSeconds: leaseSeconds, retryLimit: 1_000_000, retryDelay: 0, expireInSeconds: 86_400, notify: true };
  if ((await boss.getQueue(FLEET_QUEUE)) === null) await boss.createQueue(FLEET_QUEUE, queue).catch(() => undefined);
  else await boss.updateQueue(FLEET_QUEUE, queue);
  return new Fleet({ db, boss, storeOptions, bossDb, agent: options.agent, workerId, pollMs, owned });
}
