import type { AgentDirectory, AgentSchedule } from '@a3s-lab/code-config';
import { createRequire } from 'node:module';
import type { Session } from './session.js';

// cron-parser loads with the first schedule (synchronously, through require), not on import.
let cronModule: typeof import('cron-parser') | undefined;
function cronParser(): typeof import('cron-parser').CronExpressionParser {
  if (cronModule === undefined) {
    const loaded: typeof import('cron-parser') = createRequire(import.meta.url)('cron-parser');
    cronModule = loaded;
  }
  return cronModule.CronExpressionParser;
}

/** Time for schedules; inject a fake one in tests. */
export interface ScheduleClock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The wall clock. */
export const systemClock: ScheduleClock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.min(delayMs, 2_147_483_647)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One fire of a schedule, as recorded by the handle. */
export interface ScheduleFire {
  readonly schedule: string;
  /** When it was due (ms since the epoch, per the clock). */
  readonly dueAtMs: number;
  /** `submitted`: with a fleet, the occurrence became fleet run `runId` (its outcome is `fleet.run(runId)`). */
  readonly status: 'completed' | 'failed' | 'skipped' | 'submitted';
  readonly sessionId: string;
  readonly runId?: string;
  readonly text?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The next due time of `cron` (UTC) strictly after `afterMs`. */
export function nextCronTime(cron: string, afterMs: number): number {
  return cronParser().parse(cron, { tz: 'UTC', currentDate: new Date(afterMs) }).next().getTime();
}

/** With a fleet: this host's part of the directory's schedules (`@a3s-lab/code-postgres`'s `serveFleetSchedules`). */
export interface FleetScheduleServing {
  stop(): Promise<void>;
}

interface Armed {
  readonly schedule: AgentSchedule;
  readonly session: Session;
  timer: unknown;
  running: Promise<void> | null;
}

/**
 * A served agent directory: one durable session per enabled schedule, each fire a full governed
 * `send` of the schedule's prompt. A fire due while the previous one of the same schedule still
 * runs is skipped (and recorded); missed fires are not caught up (the next one is computed from
 * the clock's "now"); a failed fire is recorded and the schedule keeps running. Keep the handle
 * and `await handle.stop()`: it waits for a running fire, then closes the sessions (their last
 * saves land).
 */
export class AgentDirHandle {
  /** The loaded directory. */
  readonly directory: AgentDirectory;
  readonly #clock: ScheduleClock;
  readonly #armed: Armed[];
  readonly #fires: ScheduleFire[] = [];
  readonly #onFire: ((fire: ScheduleFire) => void) | undefined;
  #stopped = false;
  #stopping: Promise<void> | null = null;
  #fleet: FleetScheduleServing | null = null;

  /**
   * @internal created by `agent.serveAgentDir`. With `fleet === true` nothing is armed here: the
   * fleet's cron fires the schedules ({@link attachFleet}) and `fires()` lists this host's occurrences.
   */
  constructor(directory: AgentDirectory, sessions: ReadonlyMap<string, Session>, clock: ScheduleClock, onFire?: (fire: ScheduleFire) => void, fleet = false) {
    this.directory = directory;
    this.#clock = clock;
    this.#onFire = onFire;
    this.#armed = fleet ? [] : directory.schedules.filter((s) => s.enabled).map((schedule) => ({ schedule, session: sessions.get(schedule.name) as Session, timer: undefined, running: null }));
    for (const armed of this.#armed) this.#arm(armed);
  }

  /** @internal The fleet part, stopped with the handle. */
  attachFleet(serving: FleetScheduleServing): void {
    this.#fleet = serving;
  }

  /** @internal An occurrence the fleet part handled on this host. */
  recordFleetFire(fire: ScheduleFire): void {
    this.#record(fire);
  }

  /** The session of each enabled schedule (id `schedule:<name>`); empty with a fleet (its workers open them per run). */
  sessions(): Map<string, Session> {
    return new Map(this.#armed.map((a) => [a.schedule.name, a.session]));
  }

  /** Every fire so far, oldest first. */
  fires(): ScheduleFire[] {
    return [...this.#fires];
  }

  isStopped(): boolean {
    return this.#stopped;
  }

  /** Stops the timers, waits for running fires, closes the sessions. Idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#stopped = true;
      for (const armed of this.#armed) this.#clock.clearTimeout(armed.timer);
      await this.#fleet?.stop();
      await Promise.all(this.#armed.map((a) => a.running));
      await Promise.all(this.#armed.map((a) => a.session.closeAsync()));
    })();
    return this.#stopping;
  }

  #arm(armed: Armed): void {
    if (this.#stopped) return;
    const now = this.#clock.now();
    const due = nextCronTime(armed.schedule.cron, now);
    armed.timer = this.#clock.setTimeout(() => this.#fire(armed, due), Math.max(0, due - now));
  }

  #fire(armed: Armed, dueAtMs: number): void {
    if (this.#stopped) return;
    this.#arm(armed);
    const base = { schedule: armed.schedule.name, dueAtMs, sessionId: armed.session.id };
    if (armed.running !== null) {
      this.#record({ ...base, status: 'skipped', error: { code: 'SESSION_BUSY', message: 'the previous fire of this schedule is still running' } });
      return;
    }
    armed.running = armed.session
      .send(armed.schedule.prompt)
      .then(
        (result) => this.#record({ ...base, status: 'completed', runId: result.runId, text: result.text }),
        (error: unknown) => this.#record({ ...base, status: 'failed', error: { code: typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) } }),
      )
      .finally(() => {
        armed.running = null;
      });
  }

  #record(fire: ScheduleFire): void {
    this.#fires.push(fire);
    try {
      this.#onFire?.(fire);
    } catch {
      // A throwing observer must not stop the schedule.
    }
  }
}
