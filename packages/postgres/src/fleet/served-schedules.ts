// One host's part of serving a directory's schedules over a fleet (see serveFleetSchedules).
import { CodeError } from '@a3s-lab/code-core';
import type { Job, JobWithMetadata, PgBoss } from 'pg-boss';

import type { Database } from '../database.js';
import type { Fleet } from './fleet.js';
import { DEFAULT_MISSED_LIMIT, scheduleKey } from './fleet-schedule-spec.js';
import type { FleetScheduleOccurrence, FleetScheduleSpec } from './fleet-schedule-spec.js';

/** Occurrence data of the jobs (pg-boss's cron sends `{ schedule }`; a `missed: all` catch-up adds `dueAt`). */
interface OccurrenceData {
  readonly schedule: string;
  readonly dueAt?: string;
}

const OCCURRENCE_RETRY_SECONDS = 30;
/** How long one delivery of a catch-up waits for the session (under the occurrence jobs' 300 s expiry). */
const CATCH_UP_WAIT_MS = 240_000;
/** How often a waiting catch-up looks at the session again. */
const CATCH_UP_POLL_MS = 100;

interface OccurrenceRow {
  status: 'claimed' | 'submitted' | 'skipped' | 'failed';
  host: string;
  claimed_at: Date | string;
}

interface ServedParts {
  readonly fleet: Fleet;
  readonly db: Database;
  readonly boss: PgBoss;
  readonly schema: string;
  readonly queue: string;
  readonly host: string;
  readonly specs: ReadonlyMap<string, FleetScheduleSpec>;
  readonly onOccurrence: ((o: FleetScheduleOccurrence) => void) | undefined;
}

/** One host's part: registration, the occurrence worker, catch-up. */
export class ServedSchedules {
  readonly #p: ServedParts;
  readonly #handled: FleetScheduleOccurrence[] = [];
  #workId: string | null = null;
  #stopping: Promise<void> | null = null;

  constructor(parts: ServedParts) {
    this.#p = parts;
  }

  occurrences(): FleetScheduleOccurrence[] {
    return [...this.#handled];
  }

  /** Creates the queue, upserts every schedule, removes this directory's schedules that are gone. */
  async register(): Promise<void> {
    const { boss, queue, specs } = this.#p;
    const queueOptions = { retryLimit: 1000, retryDelay: OCCURRENCE_RETRY_SECONDS, expireInSeconds: 300 };
    if ((await boss.getQueue(queue)) === null) await boss.createQueue(queue, queueOptions).catch(() => undefined);
    for (const [key, spec] of specs) {
      try {
        await boss.schedule(queue, spec.cron, { schedule: spec.name }, { key, tz: 'UTC', missed: 'skip', ...queueOptions });
      } catch (error) {
        throw new CodeError('CONFIG_ERROR', `schedule '${spec.name}': pg-boss refused cron "${spec.cron}": ${error instanceof Error ? error.message : String(error)}`, { details: { field: 'cron', schedule: spec.name }, cause: error });
      }
    }
    for (const row of await boss.getSchedules(queue)) {
      if (!specs.has(row.key)) await boss.unschedule(queue, row.key);
    }
  }

  async start(): Promise<void> {
    const { boss, queue, specs } = this.#p;
    this.#workId = await boss.work<OccurrenceData>(queue, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await this.#handle(job);
    });
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const { boss, db, queue } = this.#p;
      if (this.#workId !== null) await boss.offWork(queue, { id: this.#workId, wait: true }).catch(() => undefined);
      await boss.stop({ graceful: true, close: true, timeout: 10_000 }).catch(() => undefined);
      await db.close();
    })();
    return this.#stopping;
  }

  async #handle(job: Job<OccurrenceData> | JobWithMetadata<OccurrenceData>): Promise<void> {
    const spec = this.#p.specs.get(scheduleKey(job.data.schedule));
    // A schedule another host's directory still has, and this one's not: leave it to that host.
    if (spec === undefined) throw new CodeError('CONFIG_ERROR', `schedule '${job.data.schedule}' is not served by this host`);
    const kind: FleetScheduleOccurrence['kind'] = job.data.dueAt === undefined ? 'due' : 'catch_up';
    const dueAtMs = job.data.dueAt === undefined ? await this.#dueOf(job.id, spec) : Date.parse(job.data.dueAt);
    // The occurrence that ends a gap sends the catch-ups (they queue behind it); a later one that
    // comes while catch-ups are still owed is an overlap: they are the session's runs before it.
    const endsGap = kind === 'due' && spec.missed !== undefined && spec.missed !== 'skip' && (await this.#catchUp(spec, dueAtMs));
    if (!(await this.#claim(spec, dueAtMs, kind))) return;
    try {
      if (kind === 'due' && !endsGap && spec.missed !== undefined && spec.missed !== 'skip' && (await this.#owedBefore(spec, dueAtMs))) {
        throw new CodeError('SESSION_BUSY', `schedule '${spec.name}': catch-ups of missed occurrences are still owed; they run first`, { details: { sessionId: spec.sessionId } });
      }
      const runId = kind === 'catch_up' ? await this.#submitBehind(spec, dueAtMs) : (await this.#p.fleet.submit(spec.sessionId, spec.prompt)).runId;
      await this.#settle(spec, dueAtMs, kind, { status: 'submitted', runId });
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'INTERNAL_ERROR';
      const failure = { code, message: error instanceof Error ? error.message : String(error) };
      if (kind === 'catch_up' && (code === 'SESSION_BUSY' || code === 'SESSION_CLOSED')) {
        // A catch-up is owed, never dropped: this delivery gave up waiting (the host stops, or the
        // run before it outlasted the wait), the claim goes and pg-boss delivers the job again.
        await this.#p.db.query('DELETE FROM a3s_fleet_schedule_occurrences WHERE schedule_key = $1 AND due_at = $2 AND host = $3', [this.#key(spec), new Date(dueAtMs), this.#p.host]);
        throw error;
      }
      await this.#settle(spec, dueAtMs, kind, { status: code === 'SESSION_BUSY' ? 'skipped' : 'failed', error: failure });
    }
  }

  /**
   * A catch-up's submit, queued behind the session's current run and behind the schedule's older
   * owed catch-ups: it waits (in this delivery) until neither is there, then submits. The wait is
   * what keeps catch-ups from starving when each run outlasts the interval: due occurrences meanwhile
   * are skipped as overlap (see #owedBefore), so the session's next free moment is the catch-up's.
   */
  async #submitBehind(spec: FleetScheduleSpec, dueAtMs: number): Promise<string> {
    const deadline = Date.now() + CATCH_UP_WAIT_MS;
    for (;;) {
      if (this.#stopping !== null) throw new CodeError('SESSION_CLOSED', `schedule '${spec.name}': the host stops; the catch-up is delivered again`);
      if (!(await this.#owedBefore(spec, dueAtMs))) {
        try {
          return (await this.#p.fleet.submit(spec.sessionId, spec.prompt)).runId;
        } catch (error) {
          if (!CodeError.hasCode(error, 'SESSION_BUSY') || Date.now() >= deadline) throw error;
        }
      } else if (Date.now() >= deadline) {
        throw new CodeError('SESSION_BUSY', `schedule '${spec.name}': older catch-ups are still owed`, { details: { sessionId: spec.sessionId } });
      }
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  }

  /** Whether catch-ups of `spec` due before `beforeMs` are still owed (their jobs not yet done). */
  async #owedBefore(spec: FleetScheduleSpec, beforeMs: number): Promise<boolean> {
    const found = await this.#p.db.query(
      `SELECT 1 FROM ${this.#p.schema}.job WHERE name = $1 AND starts_with(singleton_key, $2) AND state IN ('created', 'retry', 'active') AND (data->>'dueAt')::timestamptz < $3 LIMIT 1`,
      [this.#p.queue, `${scheduleKey(spec.name)}@`, new Date(beforeMs)],
    );
    return found.rows.length > 0;
  }

  #key(spec: FleetScheduleSpec): string {
    return `${this.#p.queue}/${spec.name}`;
  }

  /** Takes the occurrence: `false` when another delivery already handled it. A claim whose host died before it submitted is taken over. */
  async #claim(spec: FleetScheduleSpec, dueAtMs: number, kind: FleetScheduleOccurrence['kind']): Promise<boolean> {
    const { db, host, fleet } = this.#p;
    const key = this.#key(spec);
    const inserted = await db.query("INSERT INTO a3s_fleet_schedule_occurrences (schedule_key, due_at, session_id, kind, status, host) VALUES ($1, $2, $3, $4, 'claimed', $5) ON CONFLICT DO NOTHING RETURNING 1", [key, new Date(dueAtMs), spec.sessionId, kind, host]);
    if (inserted.rows.length > 0) return true;
    const found = await db.query<OccurrenceRow>('SELECT status, host, claimed_at FROM a3s_fleet_schedule_occurrences WHERE schedule_key = $1 AND due_at = $2', [key, new Date(dueAtMs)]);
    const row = found.rows[0];
    if (row === undefined || row.status !== 'claimed') return false;
    // The job came back (its host died holding it). A run its submit made is found, not made again.
    const claimedAt = new Date(row.claimed_at).getTime();
    const made = (await fleet.sessionRuns(spec.sessionId)).find((run) => run.createdAt.getTime() >= claimedAt && run.prompt === spec.prompt);
    const taken = await db.query("UPDATE a3s_fleet_schedule_occurrences SET host = $3, claimed_at = now() WHERE schedule_key = $1 AND due_at = $2 AND status = 'claimed' AND host = $4 RETURNING 1", [key, new Date(dueAtMs), host, row.host]);
    if (taken.rows.length === 0) return false;
    if (made !== undefined) {
      await this.#settle(spec, dueAtMs, kind, { status: 'submitted', runId: made.runId });
      return false;
    }
    return true;
  }

  async #settle(spec: FleetScheduleSpec, dueAtMs: number, kind: FleetScheduleOccurrence['kind'], outcome: { status: 'submitted'; runId: string } | { status: 'skipped' | 'failed'; error: { code: string; message: string } }): Promise<void> {
    const runId = outcome.status === 'submitted' ? outcome.runId : null;
    const error = outcome.status === 'submitted' ? null : JSON.stringify(outcome.error);
    await this.#p.db.query('UPDATE a3s_fleet_schedule_occurrences SET status = $3, run_id = $4, error = $5::jsonb, settled_at = now() WHERE schedule_key = $1 AND due_at = $2', [this.#key(spec), new Date(dueAtMs), outcome.status, runId, error]);
    const occurrence: FleetScheduleOccurrence = { schedule: spec.name, dueAtMs, kind, sessionId: spec.sessionId, ...outcome };
    this.#handled.push(occurrence);
    try {
      this.#p.onOccurrence?.(occurrence);
    } catch {
      // A throwing observer must not fail the occurrence.
    }
  }

  /**
   * `missed: once | all`, with the first occurrence after a gap: the occurrences after the last one
   * recorded and before `untilMs` (that occurrence), the most recent one (`once`) or `missedLimit`
   * (`all`), each sent as a job with a deterministic singleton key. One decision per gap (at its
   * end), so `once` is one. Nothing before the first occurrence ever recorded.
   */
  async #catchUp(spec: FleetScheduleSpec, untilMs: number): Promise<boolean> {
    const { db, boss, queue } = this.#p;
    const last = await db.query<{ due_at: Date | string | null }>('SELECT max(due_at) AS due_at FROM a3s_fleet_schedule_occurrences WHERE schedule_key = $1', [this.#key(spec)]);
    const lastAt = last.rows[0]?.due_at;
    if (lastAt === null || lastAt === undefined) return false;
    const from = new Date(lastAt).getTime();
    const until = untilMs;
    const limit = spec.missed === 'once' ? 1 : (spec.missedLimit ?? DEFAULT_MISSED_LIMIT);
    const due: number[] = [];
    // pg-boss's own reading of the expression, a page at a time from the last recorded occurrence.
    for (let cursor = new Date(from); cursor.getTime() < until; ) {
      // Pages of 100: pg-boss gives up on a page it cannot compute in 1 s (a yearly cron's 1000 take longer).
      const page = boss.previewSchedule(spec.cron, { tz: 'UTC', from: cursor, count: 100 });
      const last = page.at(-1);
      if (last === undefined) break;
      for (const at of page) if (at.getTime() < until) due.push(at.getTime());
      cursor = last;
    }
    due.splice(0, Math.max(0, due.length - limit));
    for (const at of due) {
      const iso = new Date(at).toISOString();
      await boss.send(queue, { schedule: spec.name, dueAt: iso }, { singletonKey: `${scheduleKey(spec.name)}@${iso}`, retryLimit: 1000, retryDelay: OCCURRENCE_RETRY_SECONDS });
    }
    return due.length > 0;
  }

  /**
   * The occurrence a cron job stands for: the schedule's latest occurrence at or before the job's
   * creation (database time). pg-boss forwards an occurrence within its 60-second due window (its
   * send-it job is the one per slot) and the forwarded job names no occurrence time, so this reads
   * it back; a send-it job delivered twice makes two jobs of one occurrence, which the occurrence
   * row then tells apart.
   */
  async #dueOf(jobId: string, spec: FleetScheduleSpec): Promise<number> {
    const found = await this.#p.db.query<{ created: string | null }>(`SELECT (extract(epoch FROM created_on) * 1000)::text AS created FROM ${this.#p.schema}.job WHERE id = $1`, [jobId]);
    const created = found.rows[0]?.created;
    if (created === null || created === undefined) throw new CodeError('INTERNAL_ERROR', `occurrence job ${jobId} is gone`);
    const createdMs = Math.floor(Number(created));
    const near = this.#p.boss.previewSchedule(spec.cron, { tz: 'UTC', from: new Date(createdMs - 2 * 60_000), count: 3 });
    const due = near.filter((at) => at.getTime() <= createdMs).at(-1);
    if (due === undefined) throw new CodeError('INTERNAL_ERROR', `occurrence job ${jobId} matches no occurrence of "${spec.cron}"`);
    return due.getTime();
  }
}
