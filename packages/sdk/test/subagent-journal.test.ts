// A durable run's `parallel_task` children journal into the run's journal (issue 30), in one
// process with the in-memory reference journal: a finished run replays its children without a
// model request or a bash call; a run whose process stopped while one child's bash call ran
// resumes its finished sibling from the record and stops for reconciliation naming the child's
// call (`<task id>/<tool_call_id>`); the host's decision completes it without running it again.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeError, MemoryRunJournal } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { eventually, fleetAcl, jobTurnOf, startCounter } from './fleet-fixture.js';

interface Harness {
  readonly server: ScriptedModelServer;
  readonly agent: Agent;
  readonly dir: string;
}

let h: Harness | undefined;
let counter: Awaited<ReturnType<typeof startCounter>> | undefined;
afterEach(async () => {
  await h?.agent.close();
  await h?.server.close();
  if (h !== undefined) rmSync(h.dir, { recursive: true, force: true });
  await counter?.close();
  h = undefined;
  counter = undefined;
});

/** A model server on `scenario`, an agent whose bash may reach the counter on 127.0.0.1, a temp workspace. */
async function startHarness(scenario: (request: RecordedRequest) => ScriptedResponse): Promise<Harness> {
  const server = await startScriptedModelServer({ scenario });
  return { server, agent: await Agent.create(fleetAcl(server)), dir: realpathSync(mkdtempSync(join(tmpdir(), 'a3s-child-journal-'))) };
}

/** Parent `P`: one `parallel_task` of children `P1` (one bash hit) and `P2` (a bash hit, then `sleep` when `slow`). */
function scenario(hitUrl: string, slow: () => boolean) {
  return (request: RecordedRequest): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    const id = `toolu_${job}_${turn}_0`;
    if (job === 'P') {
      if (turn > 0) return textResponse('all done');
      const tasks = ['P1', 'P2'].map((child) => ({ agent: 'general', description: `child ${child}`, prompt: `job ${child}` }));
      return { toolCalls: [{ id, name: 'parallel_task', input: { tasks } }] };
    }
    if (turn > 0) return textResponse(`${job} done`);
    return { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/${job}${job === 'P2' && slow() ? '; sleep 30.52' : ''}` } }] };
  };
}

async function rejection(promise: Promise<unknown>): Promise<CodeError> {
  try {
    await promise;
  } catch (error) {
    if (CodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parallel_task children in a run journal', () => {
  it('a finished run replays its children from the journal: no model request, no bash call again', async () => {
    counter = await startCounter();
    h = await startHarness(scenario(counter.url, () => false));
    const journal = new MemoryRunJournal('run-p');
    const first = await h.agent.sessionAsync(h.dir);
    expect((await first.send({ prompt: 'job P', journal })).text).toBe('all done');
    await first.closeAsync();
    const asked = h.server.requests.length;
    const keys = journal.steps().map((s) => `${s.kind}:${s.key}`);
    // The children's steps are the run's, under their task ids.
    for (const child of ['0', '1']) {
      expect(keys).toContain(`model:model-run-p/task_toolu_P_0_0_${child}-1`);
      expect(keys).toContain(`tool_outcome:tool-task_toolu_P_0_0_${child}/toolu_P${Number(child) + 1}_0_0`);
    }
    const second = await h.agent.sessionAsync(h.dir);
    const events: string[] = [];
    second.onEvent((e) => void events.push(e.type));
    expect((await second.send({ prompt: 'job P', journal })).text).toBe('all done');
    await second.closeAsync();
    expect(h.server.requests.length).toBe(asked);
    expect([counter.hits.get('P1'), counter.hits.get('P2')]).toEqual([1, 1]);
    // The parallel_task call's recorded outcome is its result: no child runs again.
    expect(events.filter((t) => t === 'subagent_start')).toHaveLength(0);
    expect(events.filter((t) => t === 'tool_end')).toHaveLength(1);
  });

  it('a run stopped inside one child\'s bash call: its sibling replays, the call needs reconciliation under the child\'s id, the host\'s outcome completes it', async () => {
    counter = await startCounter();
    let slow = true;
    h = await startHarness(scenario(counter.url, () => slow));
    const journal = new MemoryRunJournal('run-q');
    // Attempt 1: the session closes (as a dying process would) while P2's bash call sleeps.
    const first = await h.agent.sessionAsync(h.dir);
    const dying = first.send({ prompt: 'job P', journal }).catch((e: unknown) => e);
    await eventually(() => counter!.hits.get('P2') === 1 && counter!.hits.get('P1') === 1 && journal.steps().some((s) => s.key === 'model-run-q/task_toolu_P_0_0_0-2'));
    await first.closeAsync();
    await dying;
    slow = false;
    const asked = h.server.requests.length;

    // Attempt 2: P1 replays to its end; P2's started call stops the run, named as the journal names it.
    const second = await h.agent.sessionAsync(h.dir);
    const stopped = await rejection(second.send({ prompt: 'job P', journal }));
    await second.closeAsync();
    expect(stopped).toMatchObject({ code: 'SESSION_ERROR', details: { needs_reconciliation: true, tool_id: 'task_toolu_P_0_0_1/toolu_P2_0_0', tool_name: 'bash', task_id: 'task_toolu_P_0_0_1' } });
    expect(h.server.requests.length).toBe(asked);
    expect([counter.hits.get('P1'), counter.hits.get('P2')]).toEqual([1, 1]);

    // The host records what the call did; attempt 3 completes without running it again.
    journal.reconcile('tool-task_toolu_P_0_0_1/toolu_P2_0_0', { output: 'hit P2\n', exitCode: 0 });
    const third = await h.agent.sessionAsync(h.dir);
    expect((await third.send({ prompt: 'job P', journal })).text).toBe('all done');
    await third.closeAsync();
    expect([counter.hits.get('P1'), counter.hits.get('P2')]).toEqual([1, 1]);
    // Asked live only: P2's answer after the reconciled call and the parent's last turn.
    expect(h.server.requests.slice(asked).map((r) => `${jobTurnOf(r).job}:${jobTurnOf(r).turn}`)).toEqual(['P2:1', 'P:1']);
  });
});
