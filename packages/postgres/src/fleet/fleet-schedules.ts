import { CodeError } from '@a3s-lab/code-core';
import { PgBoss } from 'pg-boss';

import { openDatabase } from '../database.js';
import { migrate } from '../migrations.js';
import type { Fleet } from './fleet.js';
import { SCHEDULE_MIGRATIONS } from './fleet-schedule-migrations.js';
import { bossClock, checkFleetSchedule, scheduleKey, SCHEDULES_SCHEMA, schedulesQueue } from './fleet-schedule-spec.js';
import type { FleetScheduleClock, FleetScheduleOccurrence, FleetScheduleSpec } from './fleet-schedule-spec.js';
import { ServedSchedules } from './served-schedules.js';

/** Options of {@link serveFleetSchedules}. */
export interface FleetSchedulesOptions {
  /** Names the directory across hosts: every host serving the same directory passes the same key (its name). */
  readonly directory: string;
  readonly schedules: readonly FleetScheduleSpec[];
  /** The host's clock (default the system clock). */
  readonly clock?: FleetScheduleClock;
  /** This host's name in the occurrence records. Default the fleet's workerId. */
  readonly host?: string;
  /** Schema of the schedules' pg-boss. Default {@link SCHEDULES_SCHEMA}. */
  readonly schema?: string;
  /** Observes every occurrence this host handled. */
  readonly onOccurrence?: (occurrence: FleetScheduleOccurrence) => void;
}

/** Schedules served over a fleet; `stop()` ends this host's part (the others keep firing them). */
export interface FleetSchedulesHandle {
  /** The pg-boss queue of the directory's occurrences. */
  readonly queue: string;
  /** The occurrences this host handled, oldest first. */
  occurrences(): FleetScheduleOccurrence[];
  /** Stops this host's cron pass and occurrence worker. Idempotent. */
  stop(): Promise<void>;
}


/**
 * Registers `schedules` with pg-boss's cron (one `schedule()` per schedule, keyed by its name, on
 * the directory's queue, in a pg-boss schema of their own) and turns each occurrence into one
 * `fleet.submit` of the schedule's session, across every host serving the same `directory`:
 * pg-boss files each occurrence under a deterministic slot (one job per occurrence whichever host's
 * pass sends it, SKIP LOCKED claims), and an occurrence row (`a3s_fleet_schedule_occurrences`,
 * primary key schedule + due time) makes a redelivered job (its host died) submit nothing twice.
 * Missed occurrences: `skip` (default), `once` (the most recent missed since the last one
 * recorded), `all` (each of them, at most `missedLimit`), caught up with the schedule's first
 * occurrence after the gap, each catch-up a job with a deterministic singleton key, run one after
 * another. An occurrence whose session still has a run queued or running is recorded `skipped`
 * (SESSION_BUSY); so is a due one while catch-ups of its schedule are still owed. A catch-up is
 * never dropped: it queues behind the session's current run and the schedule's older catch-ups.
 *
 * @throws CodeError CONFIG_ERROR for a bad spec (unknown `missed`, 6-field cron, duplicate names).
 */
export async function serveFleetSchedules(fleet: Fleet, options: FleetSchedulesOptions): Promise<FleetSchedulesHandle> {
  if (typeof options.directory !== 'string' || options.directory.length === 0) throw new CodeError('CONFIG_ERROR', 'serveFleetSchedules needs directory (the key every host serving it shares)', { details: { field: 'directory' } });
  const specs = new Map<string, FleetScheduleSpec>();
  for (const spec of options.schedules) {
    checkFleetSchedule(spec);
    if (specs.has(scheduleKey(spec.name))) throw new CodeError('CONFIG_ERROR', `duplicate schedule '${spec.name}'`, { details: { field: 'name', schedule: spec.name } });
    specs.set(scheduleKey(spec.name), spec);
  }
  const schema = options.schema ?? SCHEDULES_SCHEMA;
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(schema)) throw new CodeError('CONFIG_ERROR', 'schema must be a lower-case SQL identifier', { details: { field: 'schema', value: schema } });
  const queue = schedulesQueue(options.directory);
  const host = options.host ?? fleet.workerId;
  const db = await openDatabase(fleet.connection.storeOptions);
  try {
    await migrate(db, SCHEDULE_MIGRATIONS);
  } catch (error) {
    await db.close();
    throw error;
  }
  const clock = bossClock(options.clock);
  const boss = new PgBoss({
    ...(typeof fleet.connection.bossDb === 'string' ? { connectionString: fleet.connection.bossDb } : fleet.connection.bossDb),
    schema,
    ...(clock === undefined ? {} : { clock }),
    cronMonitorIntervalSeconds: 15,
    cronWorkerIntervalSeconds: 2,
    instanceName: host.slice(0, 100),
  });
  boss.on('error', () => undefined);
  const served = new ServedSchedules({ fleet, db, boss, schema, queue, host, specs, onOccurrence: options.onOccurrence });
  try {
    await boss.start();
    await served.register();
    await served.start();
  } catch (error) {
    await served.stop();
    throw error;
  }
  return { queue, occurrences: () => served.occurrences(), stop: () => served.stop() };
}

