// Cross-process (issue 30), run by fleet-kills.test.ts: two worker processes run the runs; the
// test process is the third process that reads events, answers confirmations and cancels.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/index.js';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { expect } from 'vitest';
import { createFleet } from '@a3s-lab/code-postgres';
import { crossScenario, eventually, fleetAcl, follow, processesWith, spawnWorker } from './fleet-fixture.js';
import type { SeenTurn, WorkerProcess } from './fleet-fixture.js';

const LEASE_MS = 10_000;

/**
 * Events across a worker kill, confirmations from a third process (also after the worker died),
 * cancel ends the run and its processes.
 */
export async function crossProcess(): Promise<void> {
  const t0 = Date.now();
  const phases: string[] = [];
  const phase = (name: string): void => void phases.push(`${name} ${Date.now() - t0}`);
  const pg = await startPostgres();
  const seen: SeenTurn[] = [];
  const model = await startScriptedModelServer({ scenario: crossScenario(seen) });
  const agent = await Agent.create(fleetAcl(model));
  const fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: LEASE_MS, pollMs: 50 });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-cross-')));
  writeFileSync(join(dir, 'notes.txt'), 'cross notes\n');
  const workers = new Map<string, WorkerProcess>();
  const start = async (workerId: string): Promise<WorkerProcess> => {
    const worker = await spawnWorker(pg.connectionString, model.anthropicBaseUrl, workerId, { leaseMs: LEASE_MS, concurrency: 2 });
    workers.set(workerId, worker);
    return worker;
  };
  // The workers boot while the sessions are created.
  const firstWorkers = Promise.all([start('first-0'), start('first-1')]);
  try {
    const asking = { permissionPolicy: { ask: ['bash'] }, confirmationPolicy: { defaultTimeoutMs: 600_000 } };
    for (const [id, options] of [['x1', {}], ['a1', asking], ['a2', asking], ['s1', {}], ['r1', {}]] as const) {
      const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `cross-${id}`, ...options });
      await session.closeAsync();
    }
    await Promise.all((await firstWorkers).map((w) => w.ready));
    phase('ready');

    // 1. The workers die while x1 streams its answer, a2 waits for approval and r1's bash runs.
    const x1 = (await fleet.submit('cross-x1', 'job x1')).runId;
    const a2 = (await fleet.submit('cross-a2', 'job a2')).runId;
    const r1 = (await fleet.submit('cross-r1', 'job r1')).runId;
    const x1Events = follow(fleet, x1);
    const a2Events = follow(fleet, a2);
    const r1Events = follow(fleet, r1);
    await x1Events.until((e) => e.type === 'text_delta' && e.payload['turn'] === 3);
    const asked = await a2Events.until((e) => e.type === 'confirmation_required');
    await eventually(() => processesWith('sleep 62.1').length > 0);
    const holders = new Set([(await fleet.run(x1))?.workerId, (await fleet.run(a2))?.workerId, (await fleet.run(r1))?.workerId]);
    for (const id of holders) {
      const w = workers.get(id as string) as WorkerProcess;
      w.child.kill('SIGKILL');
      await w.exited;
      workers.delete(w.workerId);
    }
    phase('killed');
    const replacements = await Promise.all([start('second-0'), start('second-1')]);
    // Approved from this process while no worker holds the run: durable, applied on resume.
    expect(await fleet.pendingConfirmations()).toMatchObject([{ runId: a2, sessionId: 'cross-a2', toolId: asked.payload['tool_id'], toolName: 'bash' }]);
    expect(await fleet.confirm(a2, String(asked.payload['tool_id']), true, 'ok from the third process')).toBe(true);
    expect(await fleet.confirm(a2, String(asked.payload['tool_id']), true)).toBe(false);
    await Promise.all(replacements.map((w) => w.ready));

    // 2. a1: answered from this process while its worker waits.
    const a1 = (await fleet.submit('cross-a1', 'job a1')).runId;
    const a1Events = follow(fleet, a1);
    const a1Asked = await a1Events.until((e) => e.type === 'confirmation_required');
    expect(await fleet.confirm(a1, String(a1Asked.payload['tool_id']), true)).toBe(true);
    await a1Events.done;
    expect(await fleet.run(a1)).toMatchObject({ status: 'completed', attempts: 1, result: { text: 'confirmed a1' } });
    expect(a1Events.events.find((e) => e.type === 'tool_end')?.payload['output']).toContain('approved-a1');

    // 3. s1: cancelled from this process; its bash process ends with it.
    const s1 = (await fleet.submit('cross-s1', 'job s1')).runId;
    const s1Events = follow(fleet, s1);
    await eventually(() => processesWith('sleep 61.1').length > 0);
    expect(await fleet.cancel(s1)).toBe(true);
    await s1Events.done;
    expect(await fleet.run(s1)).toMatchObject({ status: 'cancelled' });
    expect(s1Events.events.at(-1)).toMatchObject({ type: 'error', payload: { details: { cancelled: true } } });
    await eventually(() => processesWith('sleep 61.1').length === 0);
    expect(await fleet.cancel(s1)).toBe(false);

    // r1: its bash call started and its outcome is unknown: never run again silently.
    await r1Events.done;
    const stopped = await fleet.run(r1);
    expect(stopped).toMatchObject({ status: 'needs_reconciliation', reconciliation: { toolId: 'toolu_r1_0_0', toolName: 'bash' } });
    expect(r1Events.events.at(-1)).toMatchObject({ type: 'error', payload: { details: { needs_reconciliation: true, tool_id: 'toolu_r1_0_0' } } });
    await expect(fleet.submit('cross-r1', 'job r1 again')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await fleet.reconcile(r1, 'toolu_r1_0_0', { output: 'finished by hand', exitCode: 0 });
    const r1Resumed = follow(fleet, r1);
    await r1Resumed.done;
    expect(await fleet.run(r1)).toMatchObject({ status: 'completed', result: { text: 'reconciled r1' } });
    expect(r1Resumed.events.map((e) => e.metadata?.sequence)).toEqual(r1Resumed.events.map((_, i) => i + 1));
    expect(r1Resumed.events.filter((e) => e.type === 'tool_end').map((e) => e.payload['output'])).toEqual([expect.stringContaining('needs reconciliation'), 'finished by hand']);
    expect(processesWith('sleep 62.1')).toEqual([]);

    phase('answered, cancelled, reconciled');
    // Back to 1: both runs resume on the replacements after the lease and complete.
    await Promise.all([x1Events.done, a2Events.done]);
    phase('resumed');
    console.log(`across processes, ms: ${phases.join(', ')}`);
    const x1Run = await fleet.run(x1);
    const a2Run = await fleet.run(a2);
    expect(x1Run).toMatchObject({ status: 'completed' });
    expect(x1Run?.attempts).toBeGreaterThan(1);
    expect(a2Run).toMatchObject({ status: 'completed', result: { text: 'confirmed a2' } });
    expect(a2Run?.attempts).toBeGreaterThan(1);
    expect(['second-0', 'second-1']).toContain(x1Run?.workerId);
    expect(['second-0', 'second-1']).toContain(a2Run?.workerId);
    for (const follower of [x1Events, a2Events]) {
      expect(follower.events.map((e) => e.metadata?.sequence)).toEqual(follower.events.map((_, i) => i + 1));
      expect(follower.events.at(-1)?.type).toBe('agent_end');
      expect(follower.events.filter((e) => e.type === 'agent_start')).toHaveLength(1);
    }
    // The streamed answer restarts once, marked: hosts drop the lost attempt's draft.
    expect(x1Events.events.filter((e) => e.type === 'turn_start' && e.payload['reason'] === 'resumed')).toHaveLength(1);
    expect(x1Events.events.at(-1)?.payload['text']).toBe(Array.from({ length: 30 }, (_, i) => `w${i} `).join(''));
    // The approved call ran once, on the resuming worker; the model was asked once per recorded turn.
    expect(a2Events.events.filter((e) => e.type === 'tool_end').map((e) => e.payload['output'])).toEqual([expect.stringContaining('approved-a2')]);
    expect(seen.filter((s) => s.job === 'x1' && s.turn < 2)).toHaveLength(2);
    expect(seen.filter((s) => s.job === 'a2' && s.turn === 0)).toHaveLength(1);
  } finally {
    await firstWorkers.catch(() => undefined);
    for (const w of workers.values()) w.child.kill('SIGKILL');
    await Promise.all([...workers.values()].map((w) => w.exited));
    await fleet.close();
    await agent.close();
    await model.close();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
