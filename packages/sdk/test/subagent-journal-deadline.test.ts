// A resumed `parallel_task` keeps the deadline of its first start (issue 30), in one process with
// the in-memory reference journal. The run's process stops while child Q1 streams its second
// turn (child Q2 has answered); the next attempt reads the call's recorded start as eleven minutes
// old (the journal's `startedAt`, shifted: time that passed while no process ran the run), past
// its ten-minute `timeout_ms`. Q2's recorded answer replays to its end; Q1 replays its recorded
// bash call and is cancelled at its first unrecorded step, without asking the model again.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryRunJournal } from '@a3s-lab/code-core';
import type { RunJournal } from '@a3s-lab/code-core';
import { startScriptedModelServer, textResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { eventually, fleetAcl, jobTurnOf, startCounter } from './fleet-fixture.js';

const TIMEOUT_MS = 600_000;

function scenario(hitUrl: string, asked: string[]) {
  return (request: RecordedRequest): ScriptedResponse => {
    const { job, turn } = jobTurnOf(request);
    const again = asked.includes(`${job}:${turn}`);
    asked.push(`${job}:${turn}`);
    const id = `toolu_${job}_${turn}_0`;
    if (job === 'Q') {
      if (turn > 0) return textResponse('Q done');
      const tasks = ['Q1', 'Q2'].map((c) => ({ agent: 'general', description: `child ${c}`, prompt: `job ${c}` }));
      return { toolCalls: [{ id, name: 'parallel_task', input: { tasks, timeout_ms: TIMEOUT_MS } }] };
    }
    if (job === 'Q2') return textResponse('Q2 done');
    if (turn === 0) return { toolCalls: [{ id, name: 'bash', input: { command: `curl -sf ${hitUrl}/Q1` } }] };
    return { text: Array.from({ length: 40 }, (_, i) => `q${i} `), chunkDelayMs: again ? 0 : 100 };
  };
}

/** `journal` as a later attempt reads it: every recorded start `agoMs` older. */
function laterAttempt(journal: RunJournal, agoMs: number): RunJournal {
  return {
    runId: journal.runId,
    modelResponse: (key) => journal.modelResponse(key),
    recordModelResponse: (key, events) => journal.recordModelResponse(key, events),
    toolCall: async (key, options) => {
      const entry = await journal.toolCall(key);
      return entry?.startedAt === undefined || options?.resumable !== true ? entry : { ...entry, startedAt: entry.startedAt - agoMs };
    },
    recordToolStart: (key, call) => journal.recordToolStart(key, call),
    recordToolOutcome: (key, outcome) => journal.recordToolOutcome(key, outcome),
    confirmationAnswer: (toolId) => journal.confirmationAnswer(toolId),
    recordConfirmationRequest: (toolId, request) => journal.recordConfirmationRequest(toolId, request),
    recordConfirmationAnswer: (toolId, answer) => journal.recordConfirmationAnswer(toolId, answer),
  };
}

describe('a resumed parallel_task\'s deadline', () => {
  it('is the first attempt\'s: past it, recorded work replays (a finished task stays finished) and the rest is cancelled at its first unrecorded step', async () => {
    const counter = await startCounter();
    const asked: string[] = [];
    const server = await startScriptedModelServer({ scenario: scenario(counter.url, asked) });
    const agent = await Agent.create(fleetAcl(server));
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-deadline-journal-')));
    try {
      const journal = new MemoryRunJournal('run-q');
      const first = await agent.sessionAsync(dir);
      const dying = first.send({ prompt: 'job Q', journal }).catch((e: unknown) => e);
      await eventually(() => asked.includes('Q1:1') && journal.steps().some((s) => s.key === 'model-run-q/task_toolu_Q_0_0_1-1'));
      await first.closeAsync();
      await dying;

      const second = await agent.sessionAsync(dir);
      const ends: Record<string, unknown>[] = [];
      second.onEvent((e) => void (e.type === 'subagent_end' && ends.push(e.payload)));
      expect((await second.send({ prompt: 'job Q', journal: laterAttempt(journal, TIMEOUT_MS + 60_000) })).text).toBe('Q done');
      await second.closeAsync();
      expect(ends).toMatchObject([
        { task_id: 'task_toolu_Q_0_0_1', status: 'completed' },
        { task_id: 'task_toolu_Q_0_0_0', status: 'cancelled', error: { message: expect.stringContaining(`timeout_ms ${TIMEOUT_MS}`) } },
      ]);
      expect(counter.hits.get('Q1')).toBe(1);
      expect(['Q:0', 'Q1:0', 'Q1:1', 'Q1:2', 'Q2:0', 'Q:1'].map((t) => asked.filter((a) => a === t).length)).toEqual([1, 1, 1, 0, 1, 1]);
    } finally {
      await agent.close();
      await server.close();
      await counter.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
