// Fleet benchmark (packages/postgres: createFleet, PgRunJournal; real PostgreSQL 15 on loopback).
// Measures, in one run:
// - journal overhead per step: the same scripted run (8 model turns with one `read` call each and
//   an answer: 9 model steps + 16 tool steps) through `send({ journal })` on PostgreSQL against
//   `send()` without a journal. Target <= 3 ms per step.
// - submit to first event: `fleet.submit()` until `fleet.events()` yields the run's first event,
//   with a worker of the same fleet idle and waiting. For information.
// - throughput: 200 runs (a `read` call and an answer) through 4 worker processes (concurrency 4
//   each, started and warmed by 32 runs before the timed window) against the same 200 runs as plain
//   `send()`s in one process (16 at a time, warmed by part 1), twice: with no model latency (pure
//   overhead), with LATENCY_MS (default 50) per model response on both sides (still bound by this
//   machine's two cores, which the 4 workers, PostgreSQL and this process share while the reference
//   has them to itself), and with REAL_LATENCY_MS (default 1000: a model response as fleets see
//   them, which take seconds; 0 leaves the row out). Target >= 0.8x, read against the rows with
//   model latency.
//   Each window prints the core time per run of every process class (/proc utime + stime:
//   bench/fleet-core-time.ts): the workers, the PostgreSQL backends serving them, this process
//   (submitting, observing, the scripted model server) and its backends, the rest of the machine.
//
// FLEET_CPU_PROF=<dir>: a CPU profile of the first worker's life.
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/fleet.bench.ts
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { coreTimeDelta, formatCoreTime, machineBusyMs, postmasterOf, sampleCoreTime } from './fleet-core-time.js';
import type { CoreTime } from './fleet-core-time.js';
import { createFleet, openDatabase, PgRunJournal } from '../packages/postgres/src/index.js';
import { fleetAcl, jobTurnOf, spawnWorker } from '../packages/sdk/test/fleet-fixture.js';
import type { WorkerProcess } from '../packages/sdk/test/fleet-fixture.js';
import { Agent } from '../packages/sdk/src/index.js';
import type { ScriptedResponse } from '../packages/testing/src/index.js';
import { startScriptedModelServer } from '../packages/testing/src/index.js';
import { startPostgres } from '../packages/testing/src/postgres/index.js';

const TURNS = 8;
const REPEATS = 9;
const LATENCY_SAMPLES = 15;
const RUNS = 200;
// Runs through the fleet before the timed window, so that every worker has loaded the provider
// client and probed the workspace's sandbox (what the one-process reference did in part 1).
const WARM_RUNS = 32;
// The observing fleet's poll floor (its readers wake on LISTEN/NOTIFY): the default.
const OBSERVER_POLL_MS = 500;
// The workers' poll floor (their cancel and confirmation look besides NOTIFY): the default too.
const WORKER_POLL_MS = 500;
// The workers run the built packages with plain node, as users run a worker, when they exist
// (`pnpm build`; FLEET_WORKERS_SOURCE=1: the sources under tsx, which gives every closure a name).
const BUILT_WORKERS = process.env['FLEET_WORKERS_SOURCE'] !== '1' && existsSync(fileURLToPath(new URL('../packages/sdk/dist/index.js', import.meta.url))) && existsSync(fileURLToPath(new URL('../packages/postgres/dist/index.js', import.meta.url)));
// The second throughput row: every model response after this many ms (both sides).
const LATENCY_MS = Number(process.env['LATENCY_MS'] ?? 50);
// The third row: a model response as long as a real one's (the fleet's use case).
const REAL_LATENCY_MS = Number(process.env['REAL_LATENCY_MS'] ?? 1000);

// Database round trips: every `pg` query of this process (the submitting and observing fleet) is
// counted; the worker processes count theirs (A3S_FLEET_COUNT_QUERIES) and print them on SIGUSR2.
const pgClient = (createRequire(new URL('../packages/postgres/package.json', import.meta.url))('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } }).Client.prototype;
const pgQuery = pgClient.query;
let ownQueries = 0;
pgClient.query = function counted(this: unknown, ...args: unknown[]): unknown {
  ownQueries += 1;
  return pgQuery.apply(this, args);
};
process.env['A3S_FLEET_COUNT_QUERIES'] = '1';
/** A worker's database round trips so far: the count and the count per statement. */
interface WorkerQueries {
  readonly count: number;
  readonly statements: Readonly<Record<string, number>>;
}
const workerQueries = (worker: WorkerProcess): Promise<WorkerQueries> =>
  new Promise((resolve) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const found = /queries (\d+) (\{.*\})\n/.exec(out);
      if (found === null) return;
      worker.child.stdout?.off('data', onData);
      resolve({ count: Number(found[1]), statements: JSON.parse(found[2] ?? '{}') as Record<string, number> });
    };
    worker.child.stdout?.on('data', onData);
    worker.child.kill('SIGUSR2');
  });
const allWorkerQueries = async (): Promise<WorkerQueries> => {
  const all = await Promise.all(workers.map(workerQueries));
  const statements: Record<string, number> = {};
  for (const one of all) for (const [key, n] of Object.entries(one.statements)) statements[key] = (statements[key] ?? 0) + n;
  return { count: all.reduce((sum, one) => sum + one.count, 0), statements };
};
/** The workers' statements of a window, per run, most frequent first (those of at least 0.05 per run). */
const statementsPerRun = (before: WorkerQueries, after: WorkerQueries, runs: number): string =>
  Object.entries(after.statements)
    .map(([key, n]) => [key, (n - (before.statements[key] ?? 0)) / runs] as const)
    .filter(([, perRun]) => perRun >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([key, perRun]) => `    ${perRun.toFixed(2).padStart(5)}  ${key}`)
    .join('\n');

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number): string => `${value.toFixed(2)} ms`;

// `steps` jobs: TURNS turns with a read call each, then the answer; `quick` jobs: one read, then the answer.
const scenario = (request: Parameters<typeof jobTurnOf>[0]): ScriptedResponse => {
  const { job, turn } = jobTurnOf(request);
  const limit = job.startsWith('steps') ? TURNS : 1;
  const latency = job.startsWith('slow') ? { latencyMs: LATENCY_MS } : job.startsWith('real') ? { latencyMs: REAL_LATENCY_MS } : {};
  if (turn < limit) return { toolCalls: [{ id: `toolu_${job}_${turn}`, name: 'read', input: { file_path: `notes-${turn}.txt` } }], ...latency };
  return { text: `done ${job}`, ...latency };
};

const pg = await startPostgres();
const model = await startScriptedModelServer({ scenario });
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-bench-')));
for (let i = 0; i < TURNS; i += 1) writeFileSync(join(dir, `notes-${i}.txt`), `bench notes ${i}\n`);
const agent = await Agent.create(fleetAcl(model));
const fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: 30_000, pollMs: OBSERVER_POLL_MS });
const db = await openDatabase({ connectionString: pg.connectionString });
const workers: WorkerProcess[] = [];
try {
  // 1. Journal overhead per step.
  const plain: number[] = [];
  const journaled: number[] = [];
  for (let i = 0; i < REPEATS + 1; i += 1) {
    const a = await agent.sessionAsync(dir, { sessionId: `plain-${i}` });
    let t = performance.now();
    await a.send(`job steps-plain-${i}`);
    if (i > 0) plain.push(performance.now() - t);
    await a.closeAsync();
    const b = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `journaled-${i}` });
    const runId = `bench-run-${i}`;
    await db.query("INSERT INTO a3s_fleet_runs (run_id, session_id, request, status, attempts) VALUES ($1, $2, '{}'::jsonb, 'running', 1)", [runId, b.id]);
    const journal = await PgRunJournal.open(db, runId, 1, () => undefined);
    // As a fleet worker does: the run's events go to the event table with the steps.
    b.onEvent((event) => journal.event(event));
    t = performance.now();
    await b.send({ prompt: `job steps-journaled-${i}`, journal });
    if (i > 0) journaled.push(performance.now() - t);
    await b.closeAsync();
  }
  const steps = (TURNS + 1) + TURNS * 2;
  const perStep = (median(journaled) - median(plain)) / steps;
  console.log(`run of ${TURNS + 1} model turns and ${TURNS} tool calls (${steps} journal steps): ${ms(median(plain))} without a journal, ${ms(median(journaled))} journaled on PostgreSQL (ratio ${(median(journaled) / median(plain)).toFixed(2)}x): ${ms(perStep)} per step  target <= 3 ms`);

  // 2. Submit to first event, a worker of this fleet waiting.
  const handle = await fleet.work({ concurrency: 4 });
  const latency: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `latency-${i}` });
    await session.closeAsync();
    const t = performance.now();
    const { runId } = await fleet.submit(`latency-${i}`, `job quick-latency-${i}`);
    for await (const _event of fleet.events(runId)) {
      latency.push(performance.now() - t);
      break;
    }
    for await (const _event of fleet.events(runId)) {
      // Drain to the end, so the next sample starts with an idle worker.
    }
  }
  await handle.stop();
  console.log(`submit -> first event: median ${ms(median(latency))}, max ${ms(Math.max(...latency))} over ${LATENCY_SAMPLES} runs (LISTEN/NOTIFY wake-up)`);

  // 3. Throughput: 200 runs through 4 worker processes vs one process, without model latency
  // (pure overhead) and with LATENCY_MS per model response (both sides).
  for (let w = 0; w < 4; w += 1) {
    // FLEET_CPU_PROF=<dir>: a CPU profile of the first worker's life (written when it exits).
    const profile = w === 0 && process.env['FLEET_CPU_PROF'] !== undefined ? `--cpu-prof --cpu-prof-dir=${process.env['FLEET_CPU_PROF']}` : undefined;
    const saved = process.env['NODE_OPTIONS'];
    if (profile !== undefined) process.env['NODE_OPTIONS'] = `${saved ?? ''} ${profile}`.trim();
    workers.push(await spawnWorker(pg.connectionString, model.anthropicBaseUrl, `bench-${w}`, { leaseMs: 30_000, concurrency: 4, pollMs: WORKER_POLL_MS, built: BUILT_WORKERS }));
    if (profile !== undefined) {
      if (saved === undefined) delete process.env['NODE_OPTIONS'];
      else process.env['NODE_OPTIONS'] = saved;
    }
  }
  await Promise.all(workers.map((w) => w.ready));
  const targets = { bench: process.pid, workers: workers.map((w) => w.child.pid ?? 0), postmaster: postmasterOf(Number(new URL(pg.connectionString).port)) };
  const drain = (ids: readonly string[]): Promise<void[]> =>
    Promise.all(ids.map(async (runId) => {
      for await (const _event of fleet.events(runId)) {
        // Until the run's end.
      }
    }));
  const ratios: string[] = [];
  const rows: readonly (readonly [string, number])[] = [['quick', 0], ['slow', LATENCY_MS], ...(REAL_LATENCY_MS > 0 ? [['real', REAL_LATENCY_MS] as const] : [])];
  for (const [kind, latency] of rows) {
    const label = latency === 0 ? 'no model latency' : `${latency} ms per model response`;
    for (let i = 0; i < RUNS; i += 1) {
      const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `through-${kind}-${i}` });
      await session.closeAsync();
    }
    const window = async (fn: () => Promise<unknown>): Promise<{ wall: number; core: CoreTime; machine: number }> => {
      const core = sampleCoreTime(targets);
      const machine = machineBusyMs();
      const t0 = performance.now();
      await fn();
      const wall = performance.now() - t0;
      return { wall, core: coreTimeDelta(core, sampleCoreTime(targets)), machine: machineBusyMs() - machine };
    };
    let next = 0;
    const local = await window(() =>
      Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < RUNS) {
            const i = next++;
            const session = await agent.sessionAsync(dir, { sessionId: `local-${kind}-${i}` });
            await session.send(`job ${kind}-local-${i}`);
            await session.closeAsync();
          }
        }),
      ),
    );
    const warmIds: string[] = [];
    for (let i = 0; i < WARM_RUNS; i += 1) {
      const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `warm-${kind}-${i}` });
      await session.closeAsync();
      warmIds.push((await fleet.submit(`warm-${kind}-${i}`, `job ${kind}-warm-${i}`)).runId);
    }
    await drain(warmIds);
    const workersBefore = await allWorkerQueries();
    const ownBefore = ownQueries;
    let ids: string[] = [];
    const viaFleet = await window(async () => {
      ids = await Promise.all(Array.from({ length: RUNS }, async (_, i) => (await fleet.submit(`through-${kind}-${i}`, `job ${kind}-fleet-${i}`)).runId));
      await drain(ids);
    });
    const workersAfter = await allWorkerQueries();
    const workerRoundTrips = (workersAfter.count - workersBefore.count) / RUNS;
    const observerRoundTrips = (ownQueries - ownBefore) / RUNS;
    const completed = (await Promise.all(ids.map((id) => fleet.run(id)))).filter((r) => r?.status === 'completed').length;
    const ratio = `${(local.wall / viaFleet.wall).toFixed(2)}x`;
    ratios.push(`${ratio} (${label})`);
    console.log(`${RUNS} runs, ${label}: ${(RUNS / (local.wall / 1000)).toFixed(1)} runs/s in one process (16 at a time), ${(RUNS / (viaFleet.wall / 1000)).toFixed(1)} runs/s through 4 worker processes (4 each; ${completed} completed): ratio ${ratio}${latency === 0 ? '' : '  target >= 0.8x'}`);
    console.log(`  database round trips per run: ${workerRoundTrips.toFixed(1)} in the workers, ${observerRoundTrips.toFixed(1)} in the submitting and observing process (none for a plain send())`);
    console.log(`  the workers' statements per run:\n${statementsPerRun(workersBefore, workersAfter, RUNS)}`);
    console.log(`  core time, one process:\n${formatCoreTime(local.core, RUNS, local.machine, local.wall, cpus().length)}`);
    console.log(`  core time, fleet:\n${formatCoreTime(viaFleet.core, RUNS, viaFleet.machine, viaFleet.wall, cpus().length)}`);
  }
  console.log(`throughput ratios: ${ratios.join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  await db.close();
  await fleet.close();
  await agent.close();
  await model.close();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
