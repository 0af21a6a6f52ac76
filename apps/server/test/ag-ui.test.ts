// POST /api/agui speaks AG-UI, driven by @ag-ui/client's own HttpAgent (which verifies the event
// order of the protocol as it reads) against a real server, agent and scripted model: text,
// tool calls with results, the plan as shared state, and confirmations as interrupts resumed by
// the next run (one answered through the REST API first).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/client';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RunRecord } from '@a3s-lab/code';
import { startServerHarness, TEST_TOKEN } from './server-harness.js';
import type { ServerHarness } from './server-harness.js';

let h: ServerHarness;
beforeAll(async () => {
  h = await startServerHarness();
});
afterAll(async () => {
  await h.cleanup();
});

interface Interrupt {
  readonly id: string;
  readonly reason: string;
  readonly toolCallId?: string;
}

/** One AG-UI run of `agent`: every event it received, in order. */
async function run(agent: HttpAgent, resume?: { interruptId: string; status: 'resolved'; payload: unknown }[]): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(resume === undefined ? {} : { resume }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

/** An event's own fields. */
const rec = (e: BaseEvent): Record<string, unknown> => e as unknown as Record<string, unknown>;

const interruptsOf = (events: readonly BaseEvent[]): Interrupt[] => {
  const finished = events.at(-1) as unknown as { type: string; outcome?: { type: string; interrupts?: Interrupt[] } } | undefined;
  return finished?.outcome?.type === 'interrupt' ? (finished.outcome.interrupts ?? []) : [];
};

describe('POST /api/agui (AG-UI)', () => {
  it('events in protocol order: text, tool calls with results, the plan as state, confirmations as interrupts resumed by the next run', async () => {
    h.model.setScenario([
      toolCallResponse('update_plan', { plan: [{ step: 'write the file', status: 'in_progress' }] }),
      toolCallResponse('write', { file_path: 'agui.txt', content: 'from ag-ui\n' }),
      toolCallResponse('update_plan', { plan: [{ step: 'write the file', status: 'completed' }] }),
      textResponse(['Written ', 'agui.txt.']),
    ]);
    const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
    const agent = new HttpAgent({ url: `${h.server.url}/api/agui`, headers: { authorization: `Bearer ${TEST_TOKEN}` }, threadId: id, initialMessages: [{ id: 'm1', role: 'user', content: 'Write agui.txt' }] });

    const runs: BaseEvent[][] = [await run(agent)];
    const asked: string[] = [];
    for (let interrupts = interruptsOf(runs[0]!); interrupts.length > 0; interrupts = interruptsOf(runs.at(-1)!)) {
      expect(interrupts).toHaveLength(1);
      const [interrupt] = interrupts;
      expect(interrupt).toMatchObject({ reason: 'tool_approval', toolCallId: expect.any(String) });
      const toolName = String((interrupt as { metadata?: { toolName?: string } }).metadata?.toolName);
      asked.push(toolName);
      if (toolName === 'write') {
        // Nothing ran before the answer. This one is answered through the REST API (another tab,
        // another host) first: the resume that follows is stale and harmless.
        expect(existsSync(join(h.repo, 'agui.txt'))).toBe(false);
        await h.json(`/api/sessions/${id}/confirmations/${encodeURIComponent(interrupt!.id)}`, { method: 'POST', body: JSON.stringify({ approved: true }) });
      }
      runs.push(await run(agent, [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }]));
    }
    expect(asked).toContain('write');
    expect(readFileSync(join(h.repo, 'agui.txt'), 'utf8')).toBe('from ag-ui\n');

    // Every AG-UI run opens with RUN_STARTED (this thread) and closes with RUN_FINISHED; all but the last as interrupts.
    for (const [i, events] of runs.entries()) {
      expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: id });
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: id, outcome: { type: i === runs.length - 1 ? 'success' : 'interrupt' } });
    }
    const all = runs.flat();
    const types = all.map((e) => e.type);
    // The write call: start, args, end, and its result after the resume.
    const writeStart = all.find((e) => e.type === 'TOOL_CALL_START' && (rec(e) as { toolCallName?: string }).toolCallName === 'write') as { toolCallId: string } | undefined;
    expect(writeStart).toBeDefined();
    const ofCall = all.filter((e) => (rec(e) as { toolCallId?: string }).toolCallId === writeStart?.toolCallId && e.type !== 'CUSTOM').map((e) => e.type).filter((t, i, a) => !(t === 'TOOL_CALL_ARGS' && a[i - 1] === t));
    expect(ofCall).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']);
    const args = all.filter((e) => e.type === 'TOOL_CALL_ARGS' && (rec(e) as { toolCallId?: string }).toolCallId === writeStart?.toolCallId).map((e) => (rec(e) as { delta: string }).delta).join('');
    expect(JSON.parse(args)).toEqual({ file_path: 'agui.txt', content: 'from ag-ui\n' });
    // The answer is an event on the stream (a3s.confirmation), whoever gave it.
    expect(all.filter((e) => e.type === 'CUSTOM' && (rec(e) as { name?: string }).name === 'a3s.confirmation').map((e) => (rec(e) as { value: { approved: boolean } }).value.approved)).toContain(true);
    // The plan: a snapshot, then a delta, as the agent's state.
    expect(types).toContain('STATE_SNAPSHOT');
    expect(agent.state).toEqual({ plan: [expect.objectContaining({ step: 'write the file', status: 'completed' })] });
    // The text, as one assistant message.
    const text = all.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => (rec(e) as { delta: string }).delta).join('');
    expect(text).toBe('Written agui.txt.');
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Written agui.txt.' });
    const [record] = (await h.json<{ runs: RunRecord[] }>(`/api/sessions/${id}/runs`)).runs;
    expect(record).toMatchObject({ status: 'completed', text: 'Written agui.txt.' });
    expect(runs.at(-1)?.at(-1)).toMatchObject({ result: { text: 'Written agui.txt.' }, usage: [expect.objectContaining({ inputTokens: expect.any(Number) })] });
  });

  it('refuses input it would not act on', async () => {
    const { id } = await h.json<{ id: string }>('/api/sessions', { method: 'POST', body: JSON.stringify({ workspace: h.repo }) });
    const base = { threadId: id, runId: 'r1', messages: [{ id: 'm', role: 'user', content: 'hi' }], tools: [], context: [], state: {}, forwardedProps: {} };
    const post = async (body: unknown): Promise<number> => (await h.api('/api/agui', { method: 'POST', body: JSON.stringify(body) })).status;
    expect(await post({ ...base, tools: [{ name: 'x', description: 'x', parameters: {} }] })).toBe(400);
    expect(await post({ ...base, messages: [{ id: 'a', role: 'assistant', content: 'x' }] })).toBe(400);
    expect(await post({ ...base, resume: [{ interruptId: 'nope', status: 'resolved', payload: { approved: true } }] })).toBe(400);
    expect(await post({ ...base, threadId: 's_missing' })).toBe(404);
  });
});
