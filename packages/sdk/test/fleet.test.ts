import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '@a3s-lab/code-core';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScriptedModelServer } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import type { PostgresDatabase } from '@a3s-lab/code-testing/postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFleet, FLEET_QUEUE, openDatabase, PostgresSessionStore } from '@a3s-lab/code-postgres';
import type { Fleet } from '@a3s-lab/code-postgres';
import { crashScenario, fleetAcl, requeue, startCounter } from './fleet-fixture.js';
import type { SeenTurn } from './fleet-fixture.js';

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('fleet in one process (real PostgreSQL)', () => {
  let pg: PostgresDatabase;
  let model: ScriptedModelServer;
  let counter: Awaited<ReturnType<typeof startCounter>>;
  let agent: Agent;
  let fleet: Fleet;
  let dir: string;
  const seen: SeenTurn[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    counter = await startCounter();
    model = await startScriptedModelServer({ scenario: crashScenario(counter.url, seen) });
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-')));
    writeFileSync(join(dir, 'notes.txt'), 'the notes\n');
    agent = await Agent.create(fleetAcl(model));
    fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: 10_000, pollMs: 50 });
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
    await agent?.close();
    await model?.close();
    await counter?.close();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('submits, works, streams the events in order and records the run', async () => {
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-s1' });
    await session.closeAsync();
    const { runId } = await fleet.submit('job-s1', 'job s1');
    await expect(fleet.submit('job-s1', 'job s1 again')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    expect(await fleet.run(runId)).toMatchObject({ status: 'queued', attempts: 0, workerId: null });
    const handle = await fleet.work({ concurrency: 2 });
    const events = await collect(fleet.events(runId));
    await handle.stop();
    expect(events.map((e) => e.metadata?.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe('agent_start');
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done s1' } });
    expect(await fleet.run(runId)).toMatchObject({ status: 'completed', attempts: 1, workerId: fleet.workerId, result: { text: 'done s1', toolCallsCount: 3 } });
    expect(counter.hits.get('s1-a0')).toBe(1);
    expect(counter.hits.get('s1-b0')).toBe(1);
    // The session's store holds the finished conversation.
    const saved = await fleet.sessionStore.load('job-s1');
    expect(saved?.conversation.length).toBe(8);
    // Reading again from the start returns the same sequence.
    expect((await collect(fleet.events(runId))).map((e) => e.type)).toEqual(events.map((e) => e.type));
  }, 60_000);

  it('a run whose worker died after recording its last model response (before the turn\'s end events) resumes to one end: the answer again from the record, marked resumed; the model is not asked again', async () => {
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-t1' });
    await session.closeAsync();
    const handle = await fleet.work();
    const { runId } = await fleet.submit('job-t1', 'job t1');
    const first = await collect(fleet.events(runId));
    expect(first.at(-1)?.type).toBe('agent_end');
    // What a SIGKILL right after the last model step leaves: its deltas written, the turn's end,
    // the result and the run's end not; the run still running on a dead attempt.
    const db = await openDatabase({ connectionString: pg.connectionString });
    try {
      await db.query("DELETE FROM a3s_fleet_events WHERE run_id = $1 AND seq > (SELECT max(seq) FROM a3s_fleet_events WHERE run_id = $1 AND event->>'type' = 'text_delta')", [runId]);
      await db.query("DELETE FROM a3s_fleet_steps WHERE run_id = $1 AND kind = 'result'", [runId]);
      await db.query("UPDATE a3s_fleet_runs SET status = 'running', result = NULL, finished_at = NULL WHERE run_id = $1", [runId]);
    } finally {
      await db.close();
    }
    // pg-boss hands the job out again (what its heartbeat expiry does for a dead worker).
    await requeue(pg.connectionString, [runId]);
    const events = await collect(fleet.events(runId));
    await handle.stop();
    expect(await fleet.run(runId)).toMatchObject({ status: 'completed', attempts: 2, result: { text: 'done t1' } });
    expect(events.map((e) => e.metadata?.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'agent_start')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'agent_end')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done t1' } });
    const resumed = events.findIndex((e) => e.type === 'turn_start' && e.payload['reason'] === 'resumed');
    expect(resumed).toBeGreaterThan(first.findLastIndex((e) => e.type === 'text_delta'));
    expect(events.slice(resumed).filter((e) => e.type === 'text_delta').map((e) => e.payload['text']).join('')).toBe('done t1');
    // Every turn asked once, every bash call run once.
    expect(seen.filter((t) => t.job === 't1').map((t) => t.turn)).toEqual([0, 1, 2, 3]);
    expect([counter.hits.get('t1-a0'), counter.hits.get('t1-b0')]).toEqual([1, 1]);
  }, 60_000);

  it('the run\'s end and its session\'s save commit together: a session saved by another host meanwhile fails the run (Conflict) and is not overwritten', async () => {
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-c1' });
    await session.closeAsync();
    const handle = await fleet.work();
    const { runId } = await fleet.submit('job-c1', 'job c1');
    const other = new PostgresSessionStore({ connectionString: pg.connectionString });
    try {
      const events: AgentEvent[] = [];
      for await (const event of fleet.events(runId)) {
        events.push(event);
        // Another host saves the session while the run is in its first tool call.
        if (event.type === 'tool_start' && events.filter((e) => e.type === 'tool_start').length === 1) {
          const loaded = await other.load('job-c1');
          if (loaded === null) throw new Error('session not stored');
          await other.save({ ...loaded, generation: loaded.generation + 1, labels: { ...loaded.labels, host: 'other' } });
        }
      }
      expect(events.at(-1)?.type).toBe('agent_end');
      const run = await fleet.run(runId);
      expect(run).toMatchObject({ status: 'failed', result: null, error: { message: expect.stringMatching(/^the run ended but its session could not be saved: .*saved by another host/) } });
      expect(run?.finishedAt).not.toBeNull();
      const stored = await other.load('job-c1');
      expect(stored?.labels).toMatchObject({ host: 'other' });
      expect(stored?.labels['a3s.fleet.run']).toBeUndefined();
      expect(stored?.conversation.length).toBe(0);
    } finally {
      await handle.stop();
      await other.close();
    }
  }, 60_000);

  it('a run handed out again while this process still runs it stays with its live attempt; a call asked twice is pending once', async () => {
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-q1', permissionPolicy: { ask: ['bash'] }, confirmationPolicy: { defaultTimeoutMs: 600_000 } });
    await session.closeAsync();
    const handle = await fleet.work({ concurrency: 2 });
    const db = await openDatabase({ connectionString: pg.connectionString });
    try {
      const { runId } = await fleet.submit('job-q1', 'job q1');
      const events: AgentEvent[] = [];
      const reading = (async () => {
        for await (const event of fleet.events(runId)) events.push(event);
      })();
      await vi.waitFor(() => expect(events.some((e) => e.type === 'confirmation_required')).toBe(true), { timeout: 30_000, interval: 20 });
      // A second job of the run (a late heartbeat, a host's requeue), taken by this process's other slot.
      await requeue(pg.connectionString, [runId]);
      const activeJobs = async (): Promise<number> => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND data->>'runId' = $2 AND state = 'active'", [FLEET_QUEUE, runId])).rows[0]?.n);
      await vi.waitFor(async () => expect(await activeJobs()).toBe(2), { timeout: 30_000, interval: 20 });
      expect(await fleet.run(runId)).toMatchObject({ status: 'running', attempts: 1 });
      const pending = await fleet.pendingConfirmations();
      expect(pending.filter((p) => p.runId === runId)).toHaveLength(1);
      // What an attempt that resumes the waiting run records: the same request again. Listed once.
      await db.query("INSERT INTO a3s_fleet_steps (run_id, step, key, kind, value, attempt) SELECT run_id, 1000, key, kind, value, attempt FROM a3s_fleet_steps WHERE run_id = $1 AND kind = 'confirmation_request'", [runId]);
      expect((await fleet.pendingConfirmations()).filter((p) => p.runId === runId)).toEqual(pending.filter((p) => p.runId === runId));
      await db.query('DELETE FROM a3s_fleet_steps WHERE run_id = $1 AND step = 1000', [runId]);
      // Every call of the run asks in its turn (bash, read, bash); each one is listed once, answered from here.
      const answered: string[] = [];
      let over = false;
      void reading.finally(() => {
        over = true;
      });
      while (!over) {
        const waiting = (await fleet.pendingConfirmations()).filter((p) => p.runId === runId);
        expect(new Set(waiting.map((p) => p.toolId)).size).toBe(waiting.length);
        for (const call of waiting) if (await fleet.confirm(runId, call.toolId, true)) answered.push(call.toolId);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await reading;
      expect(await fleet.run(runId)).toMatchObject({ status: 'completed', attempts: 1, result: { text: 'done q1' } });
      await vi.waitFor(async () => expect(await activeJobs()).toBe(0), { timeout: 30_000, interval: 20 });
      expect(answered).toEqual(['toolu_q1_0_0', 'toolu_q1_1_0', 'toolu_q1_2_0']);
      expect(events.filter((e) => e.type === 'confirmation_required')).toHaveLength(3);
      expect(events.map((e) => e.metadata?.sequence)).toEqual(events.map((_, i) => i + 1));
      expect([counter.hits.get('q1-a0'), counter.hits.get('q1-b0')]).toEqual([1, 1]);
    } finally {
      await handle.stop();
      await db.close();
    }
  }, 60_000);

  it('refuses what it cannot do, with typed errors', async () => {
    await expect(createFleet({ agent, connectionString: pg.connectionString, leaseMs: 5_000 })).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'leaseMs' } });
    await expect(createFleet({ agent, connectionString: pg.connectionString, pglite: {} } as never)).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    await expect(fleet.submit('no-such-session', 'job x')).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-s2' });
    await session.closeAsync();
    await expect(fleet.submit('job-s2', { prompt: 'job s2', attachments: [] } as never)).rejects.toMatchObject({ code: 'CONFIG_ERROR', details: { field: 'attachments' } });
    const { runId } = await fleet.submit('job-s2', 'job s2');
    await expect(fleet.reconcile(runId, 'toolu_s2_0_0', { retry: true })).rejects.toMatchObject({ code: 'SESSION_ERROR', details: { status: 'queued' } });
    expect(await fleet.confirm(runId, 'toolu_s2_0_0', true)).toBe(false);
    expect(await fleet.cancel(runId)).toBe(true);
    expect(await fleet.run(runId)).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect((await collect(fleet.events(runId))).map((e) => e.type)).toEqual(['error']);
    expect(await fleet.run('run_unknown')).toBeNull();
  }, 60_000);

  it('survives the server ending its idle connections (a restart, pg_terminate_backend, an idle timeout): no crash, the next calls reconnect', async () => {
    expect(await fleet.run('run_unknown')).toBeNull();
    const admin = await openDatabase({ connectionString: pg.connectionString });
    try {
      const others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'";
      const ended = await admin.query<{ pid: number }>(`SELECT pid, pg_terminate_backend(pid) ${others}`);
      expect(ended.rows.length).toBeGreaterThan(0);
      const pids = ended.rows.map((row) => row.pid);
      // Gone on the server's side; the fleet's clients see the end of their connections now (an
      // uncaught 'error' of its pool would fail this file).
      await expect.poll(async () => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n ${others} AND pid = ANY($1)`, [pids])).rows[0]?.n, { timeout: 10_000 }).toBe(0);
      await expect.poll(() => fleet.run('run_unknown').then((run) => run === null, () => false), { timeout: 10_000 }).toBe(true);
      expect(await fleet.pendingConfirmations()).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 60_000);
});

// pg-boss's schema on PGlite takes ~20 s to install on a loaded 2-core machine: A3S_FLEET_PGLITE=1 runs it.
describe.runIf(process.env['A3S_FLEET_PGLITE'] === '1')('fleet on PGlite (in-process, one host)', () => {
  it('pg-boss and the journal run on an embedded PGlite: submit, work, events, run', async () => {
    const counter = await startCounter();
    const seen: SeenTurn[] = [];
    const model = await startScriptedModelServer({ scenario: crashScenario(counter.url, seen) });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-pglite-')));
    writeFileSync(join(dir, 'notes.txt'), 'pglite notes\n');
    const agent = await Agent.create(fleetAcl(model));
    const fleet = await createFleet({ agent, pglite: {}, leaseMs: 10_000, pollMs: 50 });
    try {
      const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: 'job-p1' });
      await session.closeAsync();
      const handle = await fleet.work();
      const { runId } = await fleet.submit('job-p1', 'job p1');
      const events = await collect(fleet.events(runId));
      await handle.stop();
      expect(events.map((e) => e.metadata?.sequence)).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done p1' } });
      expect(await fleet.run(runId)).toMatchObject({ status: 'completed', attempts: 1 });
      expect(counter.hits.get('p1-a0')).toBe(1);
    } finally {
      await fleet.close();
      await agent.close();
      await model.close();
      await counter.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
