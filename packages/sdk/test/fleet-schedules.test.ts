// Schedules across hosts (issue 30): three host processes serve one agent directory over a fleet
// on one PostgreSQL, a schedule every minute, one host killed and restarted in between, the
// hosts' clocks shifted by -30 s, 0 and +30 s: each occurrence is handled exactly once (one
// record, one host's report) and runs as one fleet run, unless the run before it was still going
// (the overlap rule; each such skip is checked against the runs' real start and end times).
//
// Real: PostgreSQL 15, pg-boss's cron pass (its claim, due window, slot dedupe, clock-skew
// correction), its occurrence jobs and SKIP LOCKED fetches, three node processes, a SIGKILL, the
// fleet runs (real time) against the scripted model server. Compressed: time, RATE times faster
// (default 20: a minute every 3 s of real time): each host's clock (now() and its timers, handed
// to pg-boss) and the database clock pg-boss's statements read in the schedules' schema (its
// `job_now()`, replaced by the same function of real time; the fleet's own run queue stays on real
// time). A3S_SCHEDULE_MINUTES (default 5) sets how many minutes the hosts serve after all are up.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFleet, openDatabase, SCHEDULES_SCHEMA, serveFleetSchedules } from '@a3s-lab/code-postgres';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { RecordedRequest } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { catchUpBehindRun } from './fleet-schedule-catch-up.js';
import { compressedClock, compressedJobNowSql, fakeNow } from './schedule-clock.js';
import type { CompressedTime } from './schedule-clock.js';

const RATE = Number(process.env['A3S_SCHEDULE_RATE'] ?? 20);
// The catch-up case runs slower: a catch-up waits for the session to be free, and at 20x a loaded
// machine keeps it busy with each compressed minute's own run (a real minute leaves 60 s for it).
const MISSED_RATE = Number(process.env['A3S_SCHEDULE_MISSED_RATE'] ?? 6);
const MINUTES = Number(process.env['A3S_SCHEDULE_MINUTES'] ?? 5);
const MINUTE = 60_000;

const acl = (baseUrl: string): string => `
default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${baseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`;

interface Fire {
  readonly host: string;
  readonly schedule: string;
  readonly dueAtMs: number;
  readonly status: string;
  readonly runId?: string;
}

interface Host {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
}

function spawnHost(options: Record<string, unknown>, fires: Fire[]): Host {
  const entry = fileURLToPath(new URL('./fixtures/schedule-host-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', entry, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line === 'ready') resolve();
        else if (line.startsWith('{')) fires.push(JSON.parse(line) as Fire);
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`host ${String(options['host'])} exited before ready (${String(code ?? signal)}): ${stderr}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited };
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}

const userText = (request: RecordedRequest): string => JSON.stringify((request.body as { messages?: unknown } | undefined)?.messages ?? []);

// The two cases run side by side (each its own database; most of either is waiting for compressed minutes).
describe.concurrent('fleet schedules across hosts', () => {
  it('three hosts, a schedule every minute, one host killed and restarted, clocks shifted by up to 30 s: each occurrence is handled once and runs once', { timeout: 120_000 }, async () => {
    const pg = await startPostgres();
    const seen: RecordedRequest[] = [];
    const model = await startScriptedModelServer({
      scenario: (request) => {
        seen.push(request);
        return { text: 'tick done' };
      },
    });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-sched-')));
    const dir = join(root, 'ticker');
    mkdirSync(join(dir, 'schedules'), { recursive: true });
    writeFileSync(join(dir, 'instructions.md'), 'You tick.\n');
    writeFileSync(join(dir, 'schedules', 'tick.md'), '---\ncron: "* * * * *"\n---\nTick once.\n');
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const hosts = new Map<string, Host>();
    const fires: Fire[] = [];
    const db = await openDatabase({ connectionString: pg.connectionString });
    try {
      // The schedules' pg-boss schema, installed once, then its clock compressed.
      const agent = await Agent.create(acl(model.anthropicBaseUrl));
      const installer = await createFleet({ agent, connectionString: pg.connectionString });
      await (await serveFleetSchedules(installer, { directory: 'installer', schedules: [] })).stop();
      await installer.close();
      await agent.close();
      // Fake time starts ahead of real time (the installer's pass stamped pg-boss's cron_on in real time).
      const baseRealMs = Date.now();
      const time: CompressedTime = { baseRealMs, baseFakeMs: Math.ceil(baseRealMs / MINUTE) * MINUTE + MINUTE, rate: RATE };
      await db.exec(compressedJobNowSql(SCHEDULES_SCHEMA, time));

      const start = (host: string, offsetMs: number): Host => {
        const h = spawnHost({ connectionString: pg.connectionString, acl: acl(model.anthropicBaseUrl), dir, workspace, host, offsetMs, ...time }, fires);
        hosts.set(host, h);
        return h;
      };
      const t0 = Date.now();
      await Promise.all([start('h1', 0).ready, start('h2', -30_000).ready, start('h3', 30_000).ready]);
      const tReady = Date.now();
      // From the second minute after all are up (a run of the minute before may still be going).
      const first = Math.ceil(fakeNow(time) / MINUTE) * MINUTE + MINUTE;
      const last = first + (MINUTES - 1) * MINUTE;
      const rows = async (): Promise<{ due: number; status: string; run_id: string | null; host: string }[]> =>
        (await db.query<{ due: string; status: string; run_id: string | null; host: string }>('SELECT (extract(epoch FROM due_at) * 1000)::bigint::text AS due, status, run_id, host FROM a3s_fleet_schedule_occurrences ORDER BY due_at')).rows.map((r) => ({ ...r, due: Number(r.due) }));
      // Settled: its run completed, or it was skipped (the assertions below tell which).
      const settled = async (due: number): Promise<boolean> => {
        const row = (await rows()).find((r) => r.due === due);
        if (row === undefined || row.status === 'claimed') return false;
        if (row.run_id === null) return true;
        const run = await db.query<{ status: string }>('SELECT status FROM a3s_fleet_runs WHERE run_id = $1', [row.run_id]);
        return run.rows[0]?.status === 'completed';
      };
      const timeout = (MINUTES + 3) * (MINUTE / RATE) + 20_000;

      // Kill h2 once the second minute ran, restart it after the third.
      await eventually(() => settled(first + MINUTE), timeout).catch(async (error: unknown) => {
        console.log(JSON.stringify({ occ: await rows(), runs: (await db.query('SELECT status, error, attempts, worker_id FROM a3s_fleet_runs')).rows, sessions: (await db.query('SELECT session_id, revision, generation FROM a3s_sessions')).rows }));
        throw error;
      });
      const h2 = hosts.get('h2') as Host;
      h2.child.kill('SIGKILL');
      await h2.exited;
      await eventually(() => settled(first + 2 * MINUTE), timeout);
      await start('h2', -30_000).ready;
      await eventually(() => settled(last), timeout);
      await Promise.all([...hosts.values()].map(async (h) => {
        h.child.kill('SIGTERM');
        await h.exited;
      }));

      const recorded = (await rows()).filter((r) => r.due <= last);
      console.log(`hosts ready after ${tReady - t0} ms, ${MINUTES} minutes served in ${Date.now() - tReady} ms`);
      if (process.env['A3S_SCHEDULE_DEBUG'] === '1') {
        const q = async (sql: string): Promise<unknown> => (await db.query(sql)).rows;
        console.log(JSON.stringify({ first, recorded: recorded.map((r) => ({ ...r, due: new Date(r.due).toISOString() })), jobs: await q(`SELECT name, state, retry_count, data, singleton_on::text, created_on::text, started_on::text, completed_on::text FROM ${SCHEDULES_SCHEMA}.job ORDER BY created_on`), fires }, null, 1));
      }
      // Every minute the three hosts served is there once (the primary key: once per due time), on
      // the minute in database time although the hosts' clocks are 30 s off. (Minutes before all
      // hosts were up may be missing: a host starting on a loaded machine can stall pg-boss's pass
      // past the due window, and `skip` does not catch up.)
      const window = recorded.filter((r) => r.due >= first);
      expect(window.map((r) => r.due)).toEqual(Array.from({ length: MINUTES }, (_, i) => first + i * MINUTE));
      const dues = window.map((r) => r.due);
      // Each ran, unless the run before it was still going when it came (the overlap rule: skipped,
      // SESSION_BUSY), which a loaded machine can make happen at this compression; checked per skip.
      const timing = (await db.query<{ run_id: string; created: string; finished: string | null }>("SELECT run_id, (extract(epoch FROM created_at) * 1000)::text AS created, (extract(epoch FROM finished_at) * 1000)::text AS finished FROM a3s_fleet_runs WHERE session_id = 'schedule:tick'")).rows;
      const claims = new Map((await db.query<{ due: string; claimed: string; error: { code: string } | null }>('SELECT (extract(epoch FROM due_at) * 1000)::bigint::text AS due, (extract(epoch FROM claimed_at) * 1000)::text AS claimed, error FROM a3s_fleet_schedule_occurrences')).rows.map((r) => [Number(r.due), r]));
      for (const skipped of window.filter((r) => r.status !== 'submitted')) {
        const claim = claims.get(skipped.due);
        expect(skipped.status).toBe('skipped');
        expect(claim?.error?.code).toBe('SESSION_BUSY');
        const claimedAt = Number(claim?.claimed);
        expect(timing.some((t) => Number(t.created) < claimedAt && (t.finished === null || Number(t.finished) > claimedAt))).toBe(true);
      }
      const ran = window.filter((r) => r.status === 'submitted');
      console.log(`${ran.length} of ${window.length} minutes ran, ${window.length - ran.length} skipped as overlap`);
      expect(ran.length).toBeGreaterThanOrEqual(Math.ceil(MINUTES / 2));
      // Each occurrence is one fleet run, completed; the model saw each run's prompt once.
      const runs = (await db.query<{ run_id: string; status: string }>("SELECT run_id, status FROM a3s_fleet_runs WHERE session_id = 'schedule:tick'")).rows;
      const ofRecorded = runs.filter((r) => window.some((o) => o.run_id === r.run_id));
      expect(ofRecorded.length).toBe(ran.length);
      expect(ofRecorded.every((r) => r.status === 'completed')).toBe(true);
      expect(runs.length).toBe((await rows()).filter((r) => r.run_id !== null).length);
      expect(seen.filter((r) => userText(r).includes('Tick once.')).length).toBe(runs.length);
      // Across the host processes, each occurrence was reported by exactly one of them.
      const reported = fires.filter((f) => f.dueAtMs >= first && f.dueAtMs <= last).map((f) => f.dueAtMs);
      expect([...reported].sort((a, b) => a - b)).toEqual(dues);
    } finally {
      for (const h of hosts.values()) h.child.kill('SIGKILL');
      await db.close();
      await model.close();
      await pg.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('missed occurrences follow each schedule: skip none, once the latest, all the latest missed_limit one after another; bad values are typed errors', { timeout: 150_000 }, async () => {
    const pg = await startPostgres();
    const model = await startScriptedModelServer({ scenario: () => ({ text: 'caught up' }) });
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-missed-')));
    const dir = join(root, 'catcher');
    mkdirSync(join(dir, 'schedules'), { recursive: true });
    writeFileSync(join(dir, 'instructions.md'), 'You catch up.\n');
    writeFileSync(join(dir, 'schedules', 'skipper.md'), '---\ncron: "* * * * *"\n---\nSkip.\n');
    writeFileSync(join(dir, 'schedules', 'oncer.md'), '---\ncron: "* * * * *"\nmissed: once\n---\nOnce.\n');
    writeFileSync(join(dir, 'schedules', 'aller.md'), '---\ncron: "* * * * *"\nmissed: all\nmissed_limit: 3\n---\nAll.\n');
    const db = await openDatabase({ connectionString: pg.connectionString });
    const agent = await Agent.create(acl(model.anthropicBaseUrl));
    const fleet = await createFleet({ agent, connectionString: pg.connectionString, pollMs: 50 });
    try {
      // Typed errors: an unknown policy (naming the file and line), a catch-up policy without a fleet.
      const bad = join(root, 'bad');
      mkdirSync(join(bad, 'schedules'), { recursive: true });
      writeFileSync(join(bad, 'instructions.md'), 'x\n');
      writeFileSync(join(bad, 'schedules', 'b.md'), '---\ncron: "* * * * *"\nmissed: sometimes\n---\nx\n');
      await expect(agent.serveAgentDir(bad, root, { fleet })).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringMatching(/schedules\/b\.md:3: `missed` must be skip, once or all/) });
      await expect(agent.serveAgentDir(dir, root)).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringContaining('catches up only on a fleet') });

      await (await serveFleetSchedules(fleet, { directory: 'installer', schedules: [] })).stop();
      const baseRealMs = Date.now();
      const time = { baseRealMs, baseFakeMs: Math.ceil(baseRealMs / MINUTE) * MINUTE + MINUTE - 5_000, rate: MISSED_RATE, offsetMs: 0 };
      await db.exec(compressedJobNowSql(SCHEDULES_SCHEMA, time));
      await fleet.work({ concurrency: 3 });
      const occurrences = async (): Promise<{ name: string; due: number; kind: string; status: string; run: string | null }[]> =>
        (
          await db.query<{ key: string; due: string; kind: string; status: string; run: string | null }>(
            "SELECT o.schedule_key AS key, (extract(epoch FROM o.due_at) * 1000)::bigint::text AS due, o.kind, o.status, r.status AS run FROM a3s_fleet_schedule_occurrences o LEFT JOIN a3s_fleet_runs r USING (run_id) WHERE o.schedule_key LIKE 'a3s-schedules.catcher.%' ORDER BY o.due_at",
          )
        ).rows.map((r) => ({ name: r.key.slice(r.key.lastIndexOf('/') + 1), due: Number(r.due), kind: r.kind, status: r.status, run: r.run }));
      const serve = (): ReturnType<typeof agent.serveAgentDir> => agent.serveAgentDir(dir, root, { fleet, clock: compressedClock(time) });
      let handle = await serve();
      // One occurrence of each recorded and run: the point every catch-up counts from.
      const names = ['skipper', 'oncer', 'aller'];
      await eventually(async () => {
        const all = await occurrences();
        return names.every((n) => all.some((o) => o.name === n && o.run === 'completed'));
      }, 60_000);
      await handle.stop();
      const before = await occurrences();
      const lastBefore = (name: string): number => Math.max(...before.filter((o) => o.name === name).map((o) => o.due));
      // Down for six minutes: the database clock and the host's jump ahead.
      time.baseFakeMs += 6 * MINUTE;
      await db.exec(compressedJobNowSql(SCHEDULES_SCHEMA, time));
      handle = await serve();
      type Row = Awaited<ReturnType<typeof occurrences>>[number];
      // Per schedule: the first occurrence after the gap (sent by pg-boss's pass) decides what the gap owes.
      const afterOf = (all: Row[], name: string): number | undefined => all.find((o) => o.name === name && o.due > lastBefore(name) && o.kind === 'due')?.due;
      const inGap = (all: Row[], name: string): Row[] => {
        const after = afterOf(all, name);
        return after === undefined ? [] : all.filter((o) => o.name === name && o.due > lastBefore(name) && o.due < after);
      };
      await eventually(async () => {
        const all = await occurrences();
        return names.every((n) => afterOf(all, n) !== undefined) && inGap(all, 'oncer').length === 1 && inGap(all, 'aller').length === 3 && names.every((n) => inGap(all, n).every((o) => o.run === 'completed'));
      }, 60_000);
      await handle.stop();
      const all = await occurrences();
      const after = (name: string): number => afterOf(all, name) as number;
      for (const name of names) expect(after(name) - lastBefore(name)).toBeGreaterThanOrEqual(5 * MINUTE);
      expect(inGap(all, 'skipper')).toEqual([]);
      expect(inGap(all, 'oncer').map((o) => o.due)).toEqual([after('oncer') - MINUTE]);
      expect(inGap(all, 'aller').map((o) => o.due)).toEqual([after('aller') - 3 * MINUTE, after('aller') - 2 * MINUTE, after('aller') - MINUTE]);
      expect(names.flatMap((n) => inGap(all, n)).every((o) => o.kind === 'catch_up' && o.status === 'submitted')).toBe(true);
    } finally {
      await fleet.close();
      await agent.close();
      await db.close();
      await model.close();
      await pg.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a catch-up owed while the session runs waits behind that run in its one delivery and runs next; the occurrence that found the session busy is skipped', { timeout: 90_000 }, catchUpBehindRun);
});
