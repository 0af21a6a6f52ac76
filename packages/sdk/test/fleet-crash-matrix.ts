// The crash matrix (issue 30), run by fleet-kills.test.ts: WORKERS worker processes run SESSIONS
// sessions' runs (bash calls hitting a counting HTTP service, read calls, text) while a harness
// SIGKILLs workers that hold runs at random moments (a random number of a run's steps recorded,
// then a random delay) and starts a replacement for each. Kills come in waves: up to one per live
// worker holding a run, each waiting for its own moment, so that one wave costs one lease (the
// lost runs move after pg-boss's 10 s heartbeat floor) however many kills it holds.
// A3S_FLEET_CRASH_SESSIONS / _KILLS / _ROUNDS / _WORKERS raise the counts (the full
// matrix: 20 sessions, 50 kills; 3 rounds make the runs long enough for 50 kills). CI: 6 sessions,
// 3 workers, 3 kills (one wave).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '@a3s-lab/code-core';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { expect } from 'vitest';
import { createFleet } from '@a3s-lab/code-postgres';
import type { FleetRun } from '@a3s-lab/code-postgres';
import { crashScenario, fleetAcl, fleetRuns, hitKeyOf, processesWith, spawnWorker, startCounter } from './fleet-fixture.js';
import type { SeenTurn, WorkerProcess } from './fleet-fixture.js';

export const SESSIONS = Number(process.env['A3S_FLEET_CRASH_SESSIONS'] ?? 6);
export const KILLS = Number(process.env['A3S_FLEET_CRASH_KILLS'] ?? 3);
// Tool rounds per run (bash, read, bash each): longer runs take more kills before they end.
export const ROUNDS = Number(process.env['A3S_FLEET_CRASH_ROUNDS'] ?? 1);
// Worker processes (2 runs at once each): a wave kills at most one per worker holding a run.
export const WORKERS = Number(process.env['A3S_FLEET_CRASH_WORKERS'] ?? 3);
const LEASE_MS = 10_000;

/** The crash matrix: every run completes or needs reconciliation, no effect twice, no recorded turn asked again. */
export async function crashMatrix(): Promise<void> {
  const t0 = Date.now();
  const phases: string[] = [];
  const phase = (name: string): void => void phases.push(`${name} ${Date.now() - t0}`);
  const pg = await startPostgres();
  const counter = await startCounter();
  const seen: SeenTurn[] = [];
  const model = await startScriptedModelServer({ scenario: crashScenario(counter.url, seen, ROUNDS) });
  const agent = await Agent.create(fleetAcl(model));
  const fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: LEASE_MS, pollMs: 50 });
  const dirs: string[] = [];
  const workers = new Map<string, WorkerProcess>();
  let generation = 0;
  const start = (slot: number): Promise<WorkerProcess> => spawnWorker(pg.connectionString, model.anthropicBaseUrl, `w${slot}-g${(generation += 1)}`, { leaseMs: LEASE_MS, concurrency: 2 });
  // The workers boot while the sessions are created.
  const spawning = Promise.all(Array.from({ length: WORKERS }, (_, slot) => start(slot)));
  try {
    const runs: { runId: string; job: string }[] = [];
    for (let i = 0; i < SESSIONS; i += 1) {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-crash-')));
      dirs.push(dir);
      writeFileSync(join(dir, 'notes.txt'), `notes of session ${i}\n`);
      const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `crash-${i}` });
      await session.closeAsync();
    }
    const slots = await spawning;
    phase('spawned');
    slots.forEach((w) => workers.set(w.workerId, w));
    await Promise.all(slots.map((w) => w.ready));
    phase('ready');
    for (let i = 0; i < SESSIONS; i += 1) runs.push({ runId: (await fleet.submit(`crash-${i}`, `job c${i}`)).runId, job: `c${i}` });

    // Kills at random moments of the runs: a random running run, a random number of its steps
    // recorded (0 = before its first step; tool starts = inside a tool call), then its worker dies.
    // A replacement starts at once.
    const db = await import('@a3s-lab/code-postgres').then((m) => m.openDatabase({ connectionString: pg.connectionString }));
    const stepsOf = async (runId: string): Promise<number> => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM a3s_fleet_steps WHERE run_id = $1', [runId])).rows[0]?.n ?? 0);
    // The host resolves a stopped run from what the counting service saw: the call's outcome when
    // it hit, a retry when it did not (after its process, if it survived its worker, is gone).
    let reconciliations = 0;
    const reconcileStopped = async (): Promise<void> => {
      for (const run of await fleetRuns(fleet, runs.map((r) => r.runId))) {
        if (run.status !== 'needs_reconciliation' || run.reconciliation === null) continue;
        const job = runs.find((r) => r.runId === run.runId)?.job as string;
        const key = hitKeyOf(job, run.reconciliation.toolId) as string;
        for (const deadline = Date.now() + 10_000; Date.now() < deadline && processesWith(`/hit/${key}`).length > 0; ) await new Promise((r) => setTimeout(r, 20));
        const hit = (counter.hits.get(key) ?? 0) > 0;
        await fleet.reconcile(run.runId, run.reconciliation.toolId, hit ? { output: `hit ${key}`, exitCode: 0 } : { retry: true });
        reconciliations += 1;
      }
    };
    let kills = 0;
    let waves = 0;
    const killAtRandomMoment = async (workerId: string, held: readonly FleetRun[]): Promise<void> => {
      const target = held[Math.floor(Math.random() * held.length)] as FleetRun;
      const atStep = (await stepsOf(target.runId)) + Math.floor(Math.random() * 6);
      for (const deadline = Date.now() + 5_000; Date.now() < deadline && (await stepsOf(target.runId)) < atStep; ) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)));
      const victim = workers.get(workerId);
      if (victim === undefined) return;
      victim.child.kill('SIGKILL');
      await victim.exited;
      workers.delete(victim.workerId);
      kills += 1;
      const replacement = await start(Number(victim.workerId.slice(1, victim.workerId.indexOf('-'))));
      workers.set(replacement.workerId, replacement);
    };
    while (kills < KILLS) {
      await reconcileStopped();
      const holding = await fleetRuns(fleet, runs.map((r) => r.runId));
      const byWorker = new Map<string, FleetRun[]>();
      for (const r of holding) if (r.status === 'running' && r.workerId !== null && workers.has(r.workerId)) byWorker.set(r.workerId, [...(byWorker.get(r.workerId) ?? []), r]);
      if (byWorker.size === 0) {
        if (holding.every((r) => r.status !== 'queued' && r.status !== 'running')) break;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const victims = [...byWorker.keys()].sort(() => Math.random() - 0.5).slice(0, KILLS - kills);
      waves += 1;
      await Promise.all(victims.map((workerId) => killAtRandomMoment(workerId, byWorker.get(workerId) ?? [])));
    }

    phase('killed');
    // Every run ends completed or needs_reconciliation (lost runs come back after the lease); the
    // stopped ones are reconciled, so in the end every run completes.
    let final: FleetRun[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      await reconcileStopped();
      final = await fleetRuns(fleet, runs.map((r) => r.runId));
      if (final.every((r) => r.status === 'completed')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    phase('completed');
    const resumed = final.filter((r) => r.attempts > 1);
    console.log(`crash matrix: ${SESSIONS} sessions, ${WORKERS} workers, ${kills} kills in ${waves} waves; ${reconciliations} stops in needs_reconciliation (reconciled by the host), resumed runs ${resumed.length} (attempts max ${Math.max(...final.map((r) => r.attempts))}); all completed: ${final.every((r) => r.status === 'completed')}; ms: ${phases.join(', ')}`);
    expect(final.map((r) => r.status)).toEqual(runs.map(() => 'completed'));
    expect(kills).toBeGreaterThan(0);
    expect(resumed.length).toBeGreaterThan(0);

    try {
      const steps = await db.query<{ run_id: string; key: string; kind: string; created_at: Date }>('SELECT run_id, key, kind, created_at FROM a3s_fleet_steps ORDER BY run_id, step');
      const jobOf = new Map(runs.map((r) => [r.runId, r.job]));
      if (process.env['A3S_FLEET_DEBUG'] === '1') for (const r of runs) console.log(r.job, JSON.stringify((await db.query<{ kind: string; attempt: number; key: string }>('SELECT kind, attempt, key FROM a3s_fleet_steps WHERE run_id = $1 ORDER BY step', [r.runId])).rows.map((s) => `${s.attempt}:${s.kind}`)));
      for (const run of runs) {
        const mine = steps.rows.filter((s) => s.run_id === run.runId);
        for (let turn = 0; turn < ROUNDS * 3; turn += 1) {
          const toolId = `toolu_${run.job}_${turn}_0`;
          const hitKey = hitKeyOf(run.job, toolId);
          if (hitKey === null) continue;
          const kinds = mine.filter((s) => s.key === `tool-${toolId}`).map((s) => s.kind);
          const hits = counter.hits.get(hitKey) ?? 0;
          // Every bash call hit the service exactly once: recorded outcomes were never executed
          // again, a start without one stopped the run instead of running it twice.
          expect({ toolId, hits }).toEqual({ toolId, hits: 1 });
          expect(kinds.includes('tool_outcome') || kinds.includes('tool_reconciled')).toBe(true);
        }
        // The model server was never asked for a turn after it was recorded.
        for (const step of mine.filter((s) => s.kind === 'model')) {
          const turn = Number(/-(\d+)$/.exec(step.key)?.[1]) - 1;
          const late = seen.filter((s) => s.job === jobOf.get(run.runId) && s.turn === turn && s.atMs > new Date(step.created_at).getTime());
          expect({ key: step.key, late: late.length }).toEqual({ key: step.key, late: 0 });
        }
        const events: AgentEvent[] = [];
        for await (const event of fleet.events(run.runId)) events.push(event);
        expect(events.map((e) => e.metadata?.sequence)).toEqual(events.map((_, i) => i + 1));
        expect(events.at(-1)?.type).toBe('agent_end');
        expect(events.filter((e) => e.type === 'agent_start')).toHaveLength(1);
      }
    } finally {
      await db.close();
    }
  } finally {
    for (const w of await spawning.catch(() => [])) workers.set(w.workerId, w);
    for (const w of workers.values()) w.child.kill('SIGKILL');
    await Promise.all([...workers.values()].map((w) => w.exited));
    await fleet.close();
    await agent.close();
    await model.close();
    await counter.close();
    await pg.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
