// Durable runs' subagent children across a worker kill (issue 30), on real PostgreSQL with a
// worker process SIGKILLed while four runs are inside their children:
//  - P: a `parallel_task` whose child Pb finished and whose child Pa streams its answer: the
//    resumed run's event stream holds each child's start, progress and end once (each child
//    replays on its own; Pb's regenerated progress is not written again once Pa is live);
//  - D: a `parallel_task` with `timeout_ms`, killed inside its child, resumed after the deadline
//    passed: the resumed call keeps the original deadline (its child is cancelled, the model is
//    not asked again), it does not start a new one;
//  - C1 / C2: a `task` child that inherits the parent's confirmations asks about a bash call:
//    `pendingConfirmations()` of another fleet (this process) shows it under the child's id;
//    C1's answer from here unblocks it on the worker; C2's worker dies while it waits, the answer
//    given afterwards completes it on another worker (this process), its call run once.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '@a3s-lab/code-core';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { ScenarioFunction, ScriptedResponse } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { createFleet } from '@a3s-lab/code-postgres';
import type { Fleet } from '@a3s-lab/code-postgres';
import { describe, expect, it } from 'vitest';
import { eventually, fleetAcl, follow, jobTurnOf, requeue, spawnWorker, startCounter } from './fleet-fixture.js';

/** D's `timeout_ms`: long enough for D to reach its kill point, short enough to wait out. */
const D_TIMEOUT_MS = 6000;

function scenario(hitUrl: string, asked: string[]): ScenarioFunction {
  return (request): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    const again = asked.includes(`${job}:${turn}`);
    asked.push(`${job}:${turn}`);
    const id = `toolu_${job}_${turn}_0`;
    const bash = (key: string): ScriptedResponse => ({ toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/${key}` } }] });
    const slowText = (n: number): ScriptedResponse => ({ text: Array.from({ length: n }, (_, i) => `w${i} `), chunkDelayMs: again ? 0 : 200 });
    switch (job) {
      case 'P':
        return turn === 0 ? { toolCalls: [{ id, name: 'parallel_task', input: { tasks: ['Pa', 'Pb'].map((c) => ({ agent: 'general', description: `child ${c}`, prompt: `job ${c}` })) } }] } : { text: 'done P' };
      case 'Pa':
        return slowText(100);
      case 'Pb':
        return turn < 2 ? bash(`Pb-${turn}`) : { text: 'Pb done' };
      case 'D':
        return turn === 0 ? { toolCalls: [{ id, name: 'parallel_task', input: { tasks: ['Da', 'Db'].map((c) => ({ agent: 'general', description: `child ${c}`, prompt: `job ${c}` })), timeout_ms: D_TIMEOUT_MS, allow_partial_failure: true } }] } : { text: 'done D' };
      case 'Da':
        return turn === 0 ? bash('Da-0') : slowText(60);
      case 'Db':
        return { text: 'Db done' };
      case 'C1':
      case 'C2':
        return turn === 0 ? { toolCalls: [{ id, name: 'task', input: { agent: 'general', description: `child of ${job}`, prompt: `job ${job}c` } }] } : { text: `confirmed ${job}` };
      case 'C1c':
      case 'C2c':
        return turn === 0 ? bash(job) : { text: `${job} ran` };
      default:
        return { text: `unknown job ${job}` };
    }
  };
}

/** A child's events in a run's stream: `<type>:<progress kind>` in order. */
function childEvents(events: readonly AgentEvent[], taskId: string): string[] {
  return events.filter((e) => e.payload['task_id'] === taskId).map((e) => (e.type === 'subagent_progress' ? `progress:${String(e.payload['event'])}` : e.type));
}

describe('fleet: subagent children across a worker kill (real PostgreSQL)', () => {
  it('a resumed parallel_task writes each child\'s events once and keeps its deadline; a child\'s inherited confirmation is answered from another process, before and after its worker died', async () => {
    const pg = await startPostgres();
    const counter = await startCounter();
    const asked: string[] = [];
    const model = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-children-')));
    let fleet: Fleet | null = null;
    let agent: Agent | null = null;
    try {
      // A long lease: the dead worker's jobs are handed on by `requeue` below, not by pg-boss meanwhile.
      const worker = await spawnWorker(pg.connectionString, model.anthropicBaseUrl, 'doomed', { concurrency: 4, leaseMs: 120_000 });
      agent = await Agent.create(fleetAcl(model));
      fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: 10_000, pollMs: 50 });
      const inheriting = { permissionPolicy: { allow: ['task'], ask: ['bash'] }, subagentConfirmationInheritance: 'inherit_parent', confirmationPolicy: { defaultTimeoutMs: 600_000 } } as const;
      for (const [id, options] of [['P', {}], ['D', {}], ['C1', inheriting], ['C2', inheriting]] as const) {
        await (await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `kids-${id}`, ...options })).closeAsync();
      }
      await worker.ready;
      const [p, c1, c2] = await Promise.all(['P', 'C1', 'C2'].map(async (job) => (await fleet!.submit(`kids-${job}`, `job ${job}`)).runId));
      const pEvents = follow(fleet, p!);
      const c1Events = follow(fleet, c1!);
      const c2Events = follow(fleet, c2!);

      // C1: the child's confirmation, seen and answered from this process, unblocks it on the worker.
      const c1Asked = await c1Events.until((e) => e.type === 'confirmation_required');
      const c1Tool = 'task_toolu_C1_0_0_0/toolu_C1c_0_0';
      expect(c1Asked.payload['tool_id']).toBe(c1Tool);
      await eventually(async () => (await fleet!.pendingConfirmations()).some((c) => c.runId === c1 && c.toolId === c1Tool));
      expect(await fleet.confirm(c1!, c1Tool, true, 'from another process')).toBe(true);
      await c1Events.done;
      expect(await fleet.run(c1!)).toMatchObject({ status: 'completed', attempts: 1, workerId: 'doomed', result: { text: 'confirmed C1' } });
      expect(counter.hits.get('C1c')).toBe(1);

      // The worker dies while C2's child waits for its answer, Pb has finished and Pa streams, and
      // Da streams its second turn (D submitted last: its deadline is still ahead).
      const c2Tool = 'task_toolu_C2_0_0_0/toolu_C2c_0_0';
      expect((await c2Events.until((e) => e.type === 'confirmation_required')).payload['tool_id']).toBe(c2Tool);
      await pEvents.until((e) => e.type === 'subagent_end' && e.payload['task_id'] === 'task_toolu_P_0_0_1');
      const d = (await fleet.submit('kids-D', 'job D')).runId;
      // Da's start is written after the parallel_task call's recorded start: the deadline is after it.
      const dFollow = follow(fleet, d);
      await dFollow.until((e) => e.type === 'subagent_start');
      const dStarted = Date.now();
      await eventually(() => asked.includes('Da:1') && asked.includes('Pa:0'));
      worker.child.kill('SIGKILL');
      await worker.exited;
      expect(await fleet.run(d)).toMatchObject({ status: 'running', attempts: 1 });

      // C2's pending confirmation is durable: answered now, applied by whoever resumes the run.
      expect(await fleet.pendingConfirmations()).toMatchObject([{ runId: c2, toolId: c2Tool, toolName: 'bash' }]);
      expect(await fleet.confirm(c2!, c2Tool, true)).toBe(true);
      // D's deadline passes while no worker holds it (its call started before `dStarted`).
      await eventually(() => Date.now() > dStarted + D_TIMEOUT_MS, 2 * D_TIMEOUT_MS);

      const handle = await fleet.work({ concurrency: 4 });
      await requeue(pg.connectionString, [p!, d, c2!]);
      await Promise.all([dFollow.done, pEvents.done, c2Events.done]);
      const dEvents = dFollow.events;
      await handle.stop();

      // P: each child's events once, though Pa went live while Pb replayed.
      expect(await fleet.run(p!)).toMatchObject({ status: 'completed', attempts: 2, result: { text: 'done P' } });
      const pAll = pEvents.events;
      expect(pAll.map((e) => e.metadata?.sequence)).toEqual(pAll.map((_, i) => i + 1));
      expect(childEvents(pAll, 'task_toolu_P_0_0_1')).toEqual(['subagent_start', 'progress:tool_end', 'progress:turn_end', 'progress:tool_end', 'progress:turn_end', 'progress:turn_end', 'subagent_end']);
      expect(childEvents(pAll, 'task_toolu_P_0_0_0')).toEqual(['subagent_start', 'progress:turn_end', 'subagent_end']);
      expect([counter.hits.get('Pb-0'), counter.hits.get('Pb-1')]).toEqual([1, 1]);
      expect(['Pa:0', 'Pb:0', 'Pb:1', 'Pb:2', 'P:0', 'P:1'].map((t) => asked.filter((a) => a === t).length)).toEqual([2, 1, 1, 1, 1, 1]);

      // D: the resumed call's deadline was the first attempt's, passed: Da (recorded up to its
      // second turn) is cancelled there without asking the model again; Db replays its answer.
      expect(await fleet.run(d)).toMatchObject({ status: 'completed', attempts: 2, result: { text: 'done D' } });
      expect(dEvents.map((e) => e.metadata?.sequence)).toEqual(dEvents.map((_, i) => i + 1));
      const ends = dEvents.filter((e) => e.type === 'subagent_end').map((e) => e.payload);
      expect(ends).toMatchObject([
        { task_id: 'task_toolu_D_0_0_1', status: 'completed' },
        { task_id: 'task_toolu_D_0_0_0', status: 'cancelled', error: { message: expect.stringContaining(`timeout_ms ${D_TIMEOUT_MS}`) } },
      ]);
      expect(childEvents(dEvents, 'task_toolu_D_0_0_1')).toEqual(['subagent_start', 'progress:turn_end', 'subagent_end']);
      expect(['Da:0', 'Da:1', 'Da:2', 'Db:0', 'D:1'].map((t) => asked.filter((a) => a === t).length)).toEqual([1, 1, 0, 1, 1]);
      expect(counter.hits.get('Da-0')).toBe(1);

      // C2: completed on this process's worker; the approved call ran once, the question was asked once.
      expect(await fleet.run(c2!)).toMatchObject({ status: 'completed', attempts: 2, workerId: fleet.workerId, result: { text: 'confirmed C2' } });
      expect(counter.hits.get('C2c')).toBe(1);
      expect(c2Events.events.filter((e) => e.type === 'confirmation_required')).toHaveLength(1);
      expect(await fleet.pendingConfirmations()).toEqual([]);
    } finally {
      await fleet?.close();
      await agent?.close();
      await model.close();
      await counter.close();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
