// Durable runs journal subagent runs and the planning phase (issue 30): a worker process is
// SIGKILLed while two runs are inside their `task` children — one while its child's second model
// turn streams (its first bash call recorded), one while its child's bash call runs — and the runs
// are resumed by another worker (this process). Every recorded child bash call hit the counting
// service once; no recorded turn (planning, parent, child) was asked of the model twice; the
// child call whose outcome is unknown stops its run in `needs_reconciliation` under the child's
// scoped id, and the host's reconcile lets the run complete without executing it again.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '@a3s-lab/code-core';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScenarioFunction, ScriptedResponse } from '@a3s-lab/code-testing';
import { startPostgres } from '@a3s-lab/code-testing/postgres';
import { createFleet } from '@a3s-lab/code-postgres';
import type { Fleet } from '@a3s-lab/code-postgres';
import { describe, expect, it } from 'vitest';
import { eventually, fleetAcl, jobTurnOf, processesWith, requeue, spawnWorker, startCounter } from './fleet-fixture.js';

/** A model request as the scenario saw it: the job, and its turn (`-1`: the planner). */
interface Asked {
  readonly job: string;
  readonly turn: number;
}

function isPlanner(request: RecordedRequest): boolean {
  const body = request.body as { tool_choice?: { name?: string } } | undefined;
  return body?.tool_choice?.name === 'submit_plan';
}

/**
 * Parents `A` and `B` delegate one `task` each (after a plan: planning is enabled). Child `Ac`
 * hits `Ac-a`, then streams its second turn slowly the first time it is asked (the kill lands
 * there) and hits `Ac-b`; child `Bc` hits `Bc-a` in a bash call that then sleeps (the kill lands
 * there). Tool call ids are derived from job and turn: the same on any process.
 */
function scenario(hitUrl: string, asked: Asked[]): ScenarioFunction {
  return (request): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    if (isPlanner(request)) {
      asked.push({ job, turn: -1 });
      return { toolCalls: [{ id: `toolu_${job}_plan`, name: 'submit_plan', input: { steps: ['delegate the work', 'report'] } }] };
    }
    const again = asked.some((a) => a.job === job && a.turn === turn);
    asked.push({ job, turn });
    const id = `toolu_${job}_${turn}_0`;
    if (job === 'A' || job === 'B') {
      if (turn === 0) return { toolCalls: [{ id, name: 'task', input: { agent: 'general', description: `child of ${job}`, prompt: `job ${job}c` } }] };
      return { text: `done ${job}` };
    }
    if (job === 'Ac') {
      if (turn === 0) return { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Ac-a` } }] };
      if (turn === 1) return { text: Array.from({ length: 40 }, (_, i) => `c${i} `), chunkDelayMs: again ? 0 : 150, toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Ac-b` } }] };
      return { text: 'child Ac done' };
    }
    if (job === 'Bc') {
      if (turn === 0) return { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Bc-a; sleep 30.41` } }] };
      return { text: 'child Bc done' };
    }
    return { text: `unknown job ${job}` };
  };
}

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('fleet: subagent runs and planning are journaled (real PostgreSQL, a worker process killed)', () => {
  it('a run resumed after its worker died inside a `task` child replays the child: its recorded bash call is not run again, no recorded child (or planning) turn is asked again; an unknown child outcome needs reconciliation under the child\'s id', async () => {
    const pg = await startPostgres();
    const counter = await startCounter();
    const asked: Asked[] = [];
    const model = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fleet-child-')));
    let fleet: Fleet | null = null;
    let agent: Agent | null = null;
    try {
      const worker = await spawnWorker(pg.connectionString, model.anthropicBaseUrl, 'doomed', { concurrency: 2 });
      agent = await Agent.create(fleetAcl(model));
      fleet = await createFleet({ agent, connectionString: pg.connectionString, leaseMs: 10_000, pollMs: 50 });
      for (const job of ['A', 'B']) {
        const session = await agent.sessionAsync(dir, { sessionStore: fleet.sessionStore, sessionId: `child-${job}`, planningMode: 'enabled' });
        await session.closeAsync();
      }
      await worker.ready;
      const a = (await fleet.submit('child-A', 'job A')).runId;
      const b = (await fleet.submit('child-B', 'job B')).runId;

      // The worker dies while Ac's second turn streams and Bc's bash call sleeps.
      await eventually(() => asked.some((x) => x.job === 'Ac' && x.turn === 1) && counter.hits.get('Bc-a') === 1);
      worker.child.kill('SIGKILL');
      await worker.exited;
      const steps = await fleet.run(a);
      expect(steps).toMatchObject({ status: 'running', attempts: 1, workerId: 'doomed' });
      expect(counter.hits.get('Ac-b')).toBeUndefined();

      // Another worker (this process) resumes both runs.
      const handle = await fleet.work({ concurrency: 2 });
      await requeue(pg.connectionString, [a, b]);
      const aEvents = await collect(fleet.events(a));
      await eventually(async () => (await fleet!.run(b))?.status === 'needs_reconciliation');

      // A: completed on the second attempt; Ac's recorded bash call ran once, its unrecorded one once.
      expect(await fleet.run(a)).toMatchObject({ status: 'completed', attempts: 2, workerId: fleet.workerId, result: { text: 'done A' } });
      expect([counter.hits.get('Ac-a'), counter.hits.get('Ac-b')]).toEqual([1, 1]);
      expect(aEvents.map((e) => e.metadata?.sequence)).toEqual(aEvents.map((_, i) => i + 1));
      expect(aEvents.filter((e) => e.type === 'agent_start')).toHaveLength(1);
      expect(aEvents.filter((e) => e.type === 'planning_end')).toHaveLength(1);
      // The replayed child's start was not streamed again: one subagent_start, one subagent_end.
      expect(aEvents.filter((e) => e.type === 'subagent_start').map((e) => e.payload['task_id'])).toEqual(['task_toolu_A_0_0_0']);
      expect(aEvents.filter((e) => e.type === 'subagent_end').map((e) => e.payload['status'])).toEqual(['completed']);
      expect(aEvents.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done A' } });
      // The model: the plan, the parent's turn and the child's first turn (recorded) once; only
      // the turn that streamed when the worker died was asked again.
      const timesA = (job: string, turn: number): number => asked.filter((x) => x.job === job && x.turn === turn).length;
      expect([timesA('A', -1), timesA('A', 0), timesA('Ac', 0), timesA('Ac', 1), timesA('Ac', 2), timesA('A', 1)]).toEqual([1, 1, 1, 2, 1, 1]);

      // B: the child's bash call started and its outcome is unknown: reconciliation, naming it.
      const stopped = await fleet.run(b);
      expect(stopped).toMatchObject({ status: 'needs_reconciliation', attempts: 2, reconciliation: { toolId: 'task_toolu_B_0_0_0/toolu_Bc_0_0', toolName: 'bash' } });
      expect(counter.hits.get('Bc-a')).toBe(1);
      await fleet.reconcile(b, 'task_toolu_B_0_0_0/toolu_Bc_0_0', { output: 'hit Bc-a\n', exitCode: 0 });
      const bEvents = await collect(fleet.events(b));
      await handle.stop();
      expect(await fleet.run(b)).toMatchObject({ status: 'completed', attempts: 3, result: { text: 'done B' } });
      expect(bEvents.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done B' } });
      expect(bEvents.map((e) => e.metadata?.sequence)).toEqual(bEvents.map((_, i) => i + 1));
      expect(bEvents.find((e) => e.type === 'error')?.payload).toMatchObject({ details: { needs_reconciliation: true, tool_id: 'task_toolu_B_0_0_0/toolu_Bc_0_0' } });
      expect(counter.hits.get('Bc-a')).toBe(1);
      const timesB = (job: string, turn: number): number => asked.filter((x) => x.job === job && x.turn === turn).length;
      expect([timesB('B', -1), timesB('B', 0), timesB('Bc', 0), timesB('Bc', 1), timesB('B', 1)]).toEqual([1, 1, 1, 1, 1]);
      // The child's saved transcript carries the host's reconciled outcome.
      const saved = await fleet.sessionStore.load('child-B');
      expect(JSON.stringify(saved?.subagentTasks)).toContain('hit Bc-a');
    } finally {
      // The dead worker's bash call still sleeps: end it (this test started it).
      for (const pid of processesWith('sleep 30.41')) process.kill(pid, 'SIGKILL');
      await fleet?.close();
      await agent?.close();
      await model.close();
      await counter.close();
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
