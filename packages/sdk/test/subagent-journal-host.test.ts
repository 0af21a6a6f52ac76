// Child runs outside the delegation tools in a durable run (issue 30), in one process with the
// in-memory reference journal:
//  - a host-direct `session.task()` made during a journaled run (here by an idempotent host tool)
//    journals its child in the run's journal: the tool runs again after the process stopped, and
//    its task replays the child's recorded steps (no bash call, no recorded turn asked again),
//    and a child call of unknown outcome stops the run for reconciliation under the task's scope;
//  - a `task` called from inside a `program` is a nested call, like every nested call not a step
//    of its own: the program is the step, so a program that stopped inside its child needs
//    reconciliation (naming the program call), and the child's bash call never runs twice.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeError, defineTool, MemoryRunJournal } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedModelServer, ScriptedResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import type { Session } from '../src/index.js';
import { eventually, fleetAcl, jobTurnOf, processesWith, startCounter } from './fleet-fixture.js';

interface Harness {
  readonly server: ScriptedModelServer;
  readonly agent: Agent;
  readonly dir: string;
}

let h: Harness | undefined;
let counter: Awaited<ReturnType<typeof startCounter>> | undefined;
afterEach(async () => {
  for (const pid of processesWith('sleep 30.53')) process.kill(pid, 'SIGKILL');
  await h?.agent.close();
  await h?.server.close();
  if (h !== undefined) rmSync(h.dir, { recursive: true, force: true });
  await counter?.close();
  h = undefined;
  counter = undefined;
});

/**
 * `H` calls the host tool `delegate` (whose handler runs `session.task()` for child `Hc`); `G`
 * runs a program whose script calls `task` for child `Gc`. Both children hit the counter in a
 * bash call; `Hc` then streams its answer slowly the first time, `Gc`'s call sleeps the first time.
 */
function scenario(hitUrl: string, asked: string[]) {
  return (request: RecordedRequest): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    const again = asked.includes(`${job}:${turn}`);
    asked.push(`${job}:${turn}`);
    const id = `toolu_${job}_${turn}_0`;
    switch (job) {
      case 'H':
      case 'K':
        return turn === 0 ? { toolCalls: [{ id, name: 'delegate', input: { job: `${job}c` } }] } : textResponse(`${job} done`);
      case 'Hc':
        if (turn === 0) return { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Hc` } }] };
        return { text: Array.from({ length: 40 }, (_, i) => `h${i} `), chunkDelayMs: again ? 0 : 100 };
      case 'G': {
        const source = "export default async (ctx) => { await ctx.tool('task', { agent: 'general', description: 'in a program', prompt: 'job Gc' }); return 'delegated' }";
        return turn === 0 ? { toolCalls: [{ id, name: 'program', input: { type: 'script', source } }] } : textResponse('G done');
      }
      case 'Kc':
        return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Kc${again ? '' : '; sleep 30.53'}` } }] } : textResponse('Kc done');
      case 'Gc':
        return turn === 0 ? { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Gc${again ? '' : '; sleep 30.53'}` } }] } : textResponse('Gc done');
      default:
        return textResponse(`unknown job ${job}`);
    }
  };
}

/** A session with the host tool `delegate`: an idempotent tool whose handler runs a host-direct task. */
async function sessionWithDelegate(harness: Harness): Promise<Session> {
  const session = await harness.agent.sessionAsync(harness.dir);
  session.registerTool(
    defineTool({
      name: 'delegate',
      description: 'Delegates the work to a subagent.',
      parameters: { type: 'object', properties: { job: { type: 'string' } }, required: ['job'] },
      capabilities: () => ({ idempotent: true }),
      execute: async ({ job }) => {
        const result = await session.task({ agent: 'general', description: 'host child', prompt: `job ${job}` });
        return { output: result.text };
      },
    }),
  );
  return session;
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

describe('child runs outside the delegation tools in a run journal', () => {
  it('a host-direct session.task() during a journaled run journals its child: run again after the process stopped, it replays the child', async () => {
    counter = await startCounter();
    const asked: string[] = [];
    const server = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    h = { server, agent: await Agent.create(fleetAcl(server)), dir: realpathSync(mkdtempSync(join(tmpdir(), 'a3s-host-journal-'))) };
    const journal = new MemoryRunJournal('run-h');
    // Attempt 1 stops (the session closes, as a dying process would) while Hc streams its answer.
    const first = await sessionWithDelegate(h);
    const dying = first.send({ prompt: 'job H', journal }).catch((e: unknown) => e);
    await eventually(() => asked.includes('Hc:1'));
    await first.closeAsync();
    await dying;
    const keys = journal.steps().map((s) => s.key);
    const childCall = keys.find((k) => /^tool-host_[0-9a-f]{16}_0\/toolu_Hc_0_0$/.test(k));
    expect(childCall).toBeDefined();

    // Attempt 2: `delegate` (idempotent) runs again; its task replays Hc's first turn and bash call.
    const second = await sessionWithDelegate(h);
    expect((await second.send({ prompt: 'job H', journal })).text).toBe('H done');
    await second.closeAsync();
    expect(counter.hits.get('Hc')).toBe(1);
    expect(['H:0', 'Hc:0', 'Hc:1', 'Hc:2', 'H:1'].map((t) => asked.filter((a) => a === t).length)).toEqual([1, 1, 2, 0, 1]);
    expect(journal.steps().filter((s) => s.key === childCall && s.kind === 'tool_outcome')).toHaveLength(1);
  });

  it('a host-direct task\'s child call of unknown outcome stops the run for reconciliation under the task\'s scope; the host\'s outcome completes it', async () => {
    counter = await startCounter();
    const asked: string[] = [];
    const server = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    h = { server, agent: await Agent.create(fleetAcl(server)), dir: realpathSync(mkdtempSync(join(tmpdir(), 'a3s-host-journal-'))) };
    const journal = new MemoryRunJournal('run-k');
    const first = await sessionWithDelegate(h);
    const dying = first.send({ prompt: 'job K', journal }).catch((e: unknown) => e);
    await eventually(() => counter!.hits.get('Kc') === 1);
    await first.closeAsync();
    await dying;

    const second = await sessionWithDelegate(h);
    const stopped = await rejection(second.send({ prompt: 'job K', journal }));
    await second.closeAsync();
    expect(stopped).toMatchObject({ code: 'SESSION_ERROR', details: { needs_reconciliation: true, tool_name: 'bash' } });
    const toolId = String(stopped.details['tool_id']);
    expect(toolId).toMatch(/^host_[0-9a-f]{16}_0\/toolu_Kc_0_0$/);
    journal.reconcile(`tool-${toolId}`, { output: 'hit Kc\n', exitCode: 0 });
    const third = await sessionWithDelegate(h);
    expect((await third.send({ prompt: 'job K', journal })).text).toBe('K done');
    await third.closeAsync();
    expect(counter.hits.get('Kc')).toBe(1);
    expect(asked.filter((a) => a === 'Kc:0')).toHaveLength(1);
  });

  it('a task inside a program is a nested call: the program is the step, and a program stopped inside its child needs reconciliation', async () => {
    counter = await startCounter();
    const asked: string[] = [];
    const server = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    h = { server, agent: await Agent.create(fleetAcl(server)), dir: realpathSync(mkdtempSync(join(tmpdir(), 'a3s-program-journal-'))) };
    const journal = new MemoryRunJournal('run-g');
    const first = await h.agent.sessionAsync(h.dir);
    const dying = first.send({ prompt: 'job G', journal }).catch((e: unknown) => e);
    await eventually(() => counter!.hits.get('Gc') === 1);
    await first.closeAsync();
    await dying;
    // Only the run's own steps: the program call started; nothing of its nested task's child.
    expect(journal.steps().map((s) => `${s.kind}:${s.key}`)).toEqual(['model:model-run-g-1', 'tool_start:tool-toolu_G_0_0']);

    const second = await h.agent.sessionAsync(h.dir);
    const stopped = await rejection(second.send({ prompt: 'job G', journal }));
    await second.closeAsync();
    expect(stopped).toMatchObject({ code: 'SESSION_ERROR', details: { needs_reconciliation: true, tool_id: 'toolu_G_0_0', tool_name: 'program' } });
    expect(counter.hits.get('Gc')).toBe(1);
    expect(asked.filter((a) => a === 'Gc:0')).toHaveLength(1);
  });
});
