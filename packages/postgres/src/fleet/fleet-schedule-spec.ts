// A fleet schedule as hosts share it: its spec and validation, its pg-boss queue and key, the
// host's clock as pg-boss takes it.
import { createHash } from 'node:crypto';

import { CodeError } from '@a3s-lab/code-core';
import type { Clock } from 'pg-boss';

/** What a schedule does with occurrences that came due while no host served it. */
export type MissedOccurrencePolicy = 'skip' | 'once' | 'all';

/** The policies, for validation. */
export const MISSED_OCCURRENCE_POLICIES: readonly MissedOccurrencePolicy[] = ['skip', 'once', 'all'];

/** Default cap of occurrences `missed: all` catches up. */
export const DEFAULT_MISSED_LIMIT = 10;

/** The schema of the schedules' pg-boss (the cron pass and its occurrence jobs), apart from the fleet's run queue. */
export const SCHEDULES_SCHEMA = 'a3s_fleet_schedules';

/** One cron schedule of a served agent directory, as the fleet runs it. */
export interface FleetScheduleSpec {
  readonly name: string;
  /** 5 cron fields, UTC (pg-boss's cron has minute resolution). */
  readonly cron: string;
  readonly prompt: string;
  /** The schedule's durable session (`schedule:<name>`), saved in the fleet's session store. */
  readonly sessionId: string;
  /** Default `skip`. */
  readonly missed?: MissedOccurrencePolicy;
  /** Cap of occurrences `missed: all` catches up (the most recent ones). Default 10, 1-1000. */
  readonly missedLimit?: number;
}

/**
 * The host's own time and timers, handed to pg-boss (which corrects its cron against the
 * database's time). `setInterval`/`clearInterval` are derived from `setTimeout` when absent.
 */
export interface FleetScheduleClock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval?(callback: () => void, delayMs: number): unknown;
  clearInterval?(handle: unknown): void;
}

/** One occurrence as the host that claimed it handled it. */
export interface FleetScheduleOccurrence {
  readonly schedule: string;
  /** When it was due (ms since the epoch, database time). */
  readonly dueAtMs: number;
  /** `due`: sent by pg-boss's cron pass; `catch_up`: a missed occurrence `missed: once | all` caught up. */
  readonly kind: 'due' | 'catch_up';
  /** `submitted`: a fleet run; `skipped`: the previous run of the session still going (SESSION_BUSY); `failed`: the submit failed. */
  readonly status: 'submitted' | 'skipped' | 'failed';
  readonly sessionId: string;
  readonly runId?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

const SCHEDULE_NAME = /^[A-Za-z0-9._@-]{1,100}$/;

/** Validates one spec; every problem is a CONFIG_ERROR naming the schedule and field. */
export function checkFleetSchedule(spec: FleetScheduleSpec): void {
  const fail = (field: string, message: string, value?: unknown): never => {
    throw new CodeError('CONFIG_ERROR', `schedule '${String(spec.name)}': ${message}`, { details: { field, schedule: spec.name, ...(value === undefined ? {} : { value }) } });
  };
  if (typeof spec.name !== 'string' || !SCHEDULE_NAME.test(spec.name)) fail('name', `name must match ${String(SCHEDULE_NAME)}`);
  if (typeof spec.cron !== 'string' || spec.cron.trim().split(/\s+/).length !== 5) fail('cron', 'fleet schedules take 5 cron fields (pg-boss fires at most once a minute)', spec.cron);
  if (typeof spec.prompt !== 'string' || spec.prompt.length === 0) fail('prompt', 'the prompt is empty');
  if (typeof spec.sessionId !== 'string' || spec.sessionId.length === 0) fail('sessionId', 'sessionId is empty');
  if (spec.missed !== undefined && !MISSED_OCCURRENCE_POLICIES.includes(spec.missed)) fail('missed', `missed must be one of ${MISSED_OCCURRENCE_POLICIES.join(', ')}`, spec.missed);
  const limit = spec.missedLimit;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000)) fail('missedLimit', 'missedLimit must be an integer from 1 to 1000', limit);
  if (limit !== undefined && spec.missed !== 'all') fail('missedLimit', 'missedLimit applies to missed: all only', limit);
}

/** The pg-boss queue of a directory's occurrences (pg-boss names: word characters, `.`, `-`). */
export function schedulesQueue(directory: string): string {
  const safe = directory.replace(/[^\w.-]/g, '_').slice(0, 60);
  return `a3s-schedules.${safe}.${createHash('sha256').update(directory).digest('hex').slice(0, 8)}`;
}

/** The pg-boss schedule key of a schedule (its name; `@`, outside pg-boss's charset, as `/`, which names never hold). */
export function scheduleKey(name: string): string {
  return name.replaceAll('@', '/');
}


/** pg-boss's clock from ours (an interval chained from timeouts when the clock has none). */
export function bossClock(clock: FleetScheduleClock | undefined): Clock | undefined {
  if (clock === undefined) return undefined;
  if (typeof clock.now !== 'function' || typeof clock.setTimeout !== 'function' || typeof clock.clearTimeout !== 'function') {
    throw new CodeError('CONFIG_ERROR', 'clock needs now(), setTimeout() and clearTimeout()', { details: { field: 'clock' } });
  }
  const { setInterval: ownInterval, clearInterval: ownClear } = clock;
  if (typeof ownInterval === 'function' && typeof ownClear === 'function') {
    return { now: () => clock.now(), setTimeout: (fn, ms) => clock.setTimeout(fn, ms), clearTimeout: (h) => clock.clearTimeout(h), setInterval: (fn, ms) => ownInterval.call(clock, fn, ms), clearInterval: (h) => ownClear.call(clock, h) };
  }
  interface Chain {
    handle: unknown;
    stopped: boolean;
  }
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (h) => clock.clearTimeout(h),
    setInterval: (fn, ms) => {
      const chain: Chain = { handle: undefined, stopped: false };
      const arm = (): void => {
        chain.handle = clock.setTimeout(() => {
          if (chain.stopped) return;
          arm();
          fn();
        }, ms);
      };
      arm();
      return chain;
    },
    clearInterval: (h) => {
      const chain = h as Chain;
      chain.stopped = true;
      clock.clearTimeout(chain.handle);
    },
  };
}
