import { CodeError } from '@a3s-lab/code-core';

import type { Fleet } from './fleet.js';

/** What a schedule does with occurrences that passed while no host served it. */
export type MissedOccurrencePolicy = 'skip' | 'once' | 'all';

/** One cron schedule of a served agent directory, as the fleet runs it. */
export interface FleetScheduleSpec {
  readonly name: string;
  /** 5 or 6 cron fields, UTC. */
  readonly cron: string;
  readonly prompt: string;
  /** The schedule's durable session (`schedule:<name>`), saved in the fleet's store. */
  readonly sessionId: string;
  readonly missed: MissedOccurrencePolicy;
  /** Cap of occurrences `missed: all` catches up. */
  readonly maxCatchUp?: number;
}

/** The hosts' own time (pg-boss corrects against the database's time). */
export interface FleetScheduleClock {
  now(): number;
}

/** One occurrence as the host that claimed it saw it. */
export interface FleetScheduleOccurrence {
  readonly schedule: string;
  readonly dueAtMs: number;
  readonly status: 'submitted' | 'skipped';
  readonly sessionId: string;
  readonly runId?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** Options of {@link serveFleetSchedules}. */
export interface FleetSchedulesOptions {
  /** Names the directory across hosts (every host serving the same directory passes the same key). */
  readonly key: string;
  readonly schedules: readonly FleetScheduleSpec[];
  readonly clock?: FleetScheduleClock;
  readonly onOccurrence?: (occurrence: FleetScheduleOccurrence) => void;
}

/** Schedules served over a fleet; `stop()` stops this host's part. */
export interface FleetSchedulesHandle {
  occurrences(): FleetScheduleOccurrence[];
  stop(): Promise<void>;
}

/**
 * Registers `schedules` with the fleet's pg-boss cron (one `schedule()` key per schedule) and
 * turns each occurrence into exactly one `fleet.submit` of the schedule's session across every
 * host serving the same `key`. Implementation lands in the next commit (SCHED).
 */
export async function serveFleetSchedules(fleet: Fleet, options: FleetSchedulesOptions): Promise<FleetSchedulesHandle> {
  void fleet;
  void options;
  throw new CodeError('CONFIG_ERROR', 'fleet schedules are not available yet');
}
