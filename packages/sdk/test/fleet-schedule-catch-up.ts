// Catch-ups under load (issue 30), run by fleet-schedules.test.ts beside its other cases: a missed occurrence that `missed: once | all` owes queues behind
// the session's current run instead of bouncing off it (SESSION_BUSY, then a retry that each
// later occurrence's own run could take the session from again). Deterministic: the runs hold in
// the model server until the test releases them, the schedule's occurrences are on a yearly cron
// (nothing fires but the one the test starts the clock before), and every step waits on database
// state, not on time.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFleet, openDatabase, SCHEDULES_SCHEMA, schedulesQueue, serveFleetSchedules } from '@a3s-lab/code-postgres';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { expect } from 'vitest';
import { Agent } from '../src/index.js';
import { eventually, fleetAcl, jobTurnOf } from './fleet-fixture.js';
import { compressedClock, compressedJobNowSql } from './schedule-clock.js';

/** A catch-up owed while the session runs waits behind that run in its one delivery and runs next; the occurrence that found the session busy is skipped. */
export async function catchUpBehindRun(): Promise<void> {
  const pg = await startPostgres();
  // Runs hold until released: `hold` (the session's current run) and the catch-up's.
  const gates = new Map<string, { release: () => void; released: Promise<void> }>();
  const gate = (name: string): { release: () => void; released: Promise<void> } => {
    let entry = gates.get(name);
    if (entry === undefined) {
      let release: () => void = () => undefined;
      const released = new Promise<void>((done) => (release = done));
      entry = { release, released };
      gates.set(name, entry);
    }
    return entry;
  };
  const asked: string[] = [];
  const model = await startScriptedModelServer({
    scenario: async (request) => {
      const text = JSON.stringify((request.body as { messages?: unknown } | undefined)?.messages ?? []);
      const name = text.includes('Catch up.') ? 'catch-up' : jobTurnOf(request).job;
      asked.push(name);
      await gate(name).released;
      return { text: `${name} done` };
    },
  });
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-catch-up-')));
  const db = await openDatabase({ connectionString: pg.connectionString });
  const agent = await Agent.create(fleetAcl(model));
  const fleet = await createFleet({ agent, connectionString: pg.connectionString, pollMs: 50 });
  try {
    await fleet.work({ concurrency: 2 });
    const sessionId = 'schedule:yearly';
    await (await agent.sessionAsync(root, { sessionStore: fleet.sessionStore, sessionId })).closeAsync();
    const spec = { name: 'yearly', cron: '0 0 1 1 *', prompt: 'Catch up.', sessionId, missed: 'once' as const };
    // The schedules' pg-boss schema, installed once.
    await (await serveFleetSchedules(fleet, { directory: 'installer', schedules: [] })).stop();
    // The schedule last ran on 2028-01-01: 2029-01-01 was missed.
    await db.query("INSERT INTO a3s_fleet_schedule_occurrences (schedule_key, due_at, session_id, kind, status, host) VALUES ($1, '2028-01-01T00:00:00Z', $2, 'due', 'submitted', 'earlier')", [`${schedulesQueue('yearly')}/yearly`, sessionId]);
    // The session's current run, held.
    const hold = (await fleet.submit(sessionId, 'job hold')).runId;
    await eventually(() => asked.includes('hold'));
    // The schedules' clock: 3 s before 2030-01-01, 3 times real pace (pg-boss's cron pass looks
    // every 15 s and sends an occurrence within 60 s of it: 20 s of real time for this host to start).
    const time = { baseRealMs: Date.now(), baseFakeMs: Date.parse('2029-12-31T23:59:57Z'), rate: 3, offsetMs: 0 };
    await db.exec(compressedJobNowSql(SCHEDULES_SCHEMA, time));

    const served = await serveFleetSchedules(fleet, { directory: 'yearly', schedules: [spec], clock: compressedClock(time) });
    try {
      const occurrence = async (due: string): Promise<{ kind: string; status: string; run_id: string | null; error: { code: string } | null } | undefined> =>
        (await db.query<{ kind: string; status: string; run_id: string | null; error: { code: string } | null }>('SELECT kind, status, run_id, error FROM a3s_fleet_schedule_occurrences WHERE due_at = $1', [due])).rows[0];
      // 2030-01-01 comes while `hold` runs: skipped as overlap; it owes 2029-01-01, which waits.
      await eventually(async () => (await occurrence('2030-01-01T00:00:00Z'))?.status === 'skipped', 30_000);
      expect(await occurrence('2030-01-01T00:00:00Z')).toMatchObject({ kind: 'due', status: 'skipped', error: { code: 'SESSION_BUSY' } });
      await eventually(async () => (await occurrence('2029-01-01T00:00:00Z'))?.status === 'claimed', 30_000);
      expect(asked).toEqual(['hold']);

      // The run ends: the catch-up is the session's next run, from the same delivery.
      gate('hold').release();
      await eventually(async () => (await occurrence('2029-01-01T00:00:00Z'))?.status === 'submitted', 30_000);
      const caughtUp = (await occurrence('2029-01-01T00:00:00Z'))?.run_id as string;
      await eventually(() => asked.includes('catch-up'));
      gate('catch-up').release();
      await eventually(async () => (await fleet.run(caughtUp))?.status === 'completed', 30_000);
      const runs = await fleet.sessionRuns(sessionId);
      expect(runs.map((r) => [r.runId, r.status])).toEqual([[hold, 'completed'], [caughtUp, 'completed']]);
      expect(runs[1]?.createdAt.getTime()).toBeGreaterThanOrEqual(runs[0]?.finishedAt?.getTime() ?? Number.NaN);
      // One delivery of the catch-up job: it waited behind the run, it did not bounce and retry.
      const jobs = await db.query<{ retry_count: number; state: string }>(`SELECT retry_count, state FROM ${SCHEDULES_SCHEMA}.job WHERE name = $1 AND singleton_key = 'yearly@2029-01-01T00:00:00.000Z'`, [served.queue]);
      expect(jobs.rows).toEqual([{ retry_count: 0, state: 'completed' }]);
      expect(served.occurrences().map((o) => [o.kind, o.status])).toEqual([['due', 'skipped'], ['catch_up', 'submitted']]);
    } finally {
      for (const entry of gates.values()) entry.release();
      await served.stop();
    }
  } finally {
    for (const entry of gates.values()) entry.release();
    await fleet.close();
    await agent.close();
    await db.close();
    await model.close();
    await pg.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
