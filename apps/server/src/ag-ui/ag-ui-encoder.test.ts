// The AG-UI projection of every kind of v1 event, checked by the protocol's own code: each event
// against @ag-ui/core's schemas, and the whole stream through @ag-ui/client's HttpAgent (which
// verifies the protocol's event order and applies messages and state as it reads).
import { describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import type { AGUIEvent } from '@ag-ui/core';
import { parseAgentEvent } from '@a3s-lab/code';
import type { AgentEvent, RunRecord } from '@a3s-lab/code';
import { AgUiEncoder } from './ag-ui-encoder.js';

function recorded(events: readonly (readonly [string, Record<string, unknown>])[]): AgentEvent[] {
  return events.map(([type, payload], i) => {
    const event = parseAgentEvent({ version: 1, type, payload, metadata: { run_id: 'run_1', sequence: i + 1, timestamp_ms: 1_000 } });
    if (event === null) throw new Error(`invalid ${type} payload`);
    return event;
  });
}

const RUN: RunRecord = {
  id: 'run_1', sessionId: 's_1', status: 'completed', kind: 'stream', prompt: 'p', startedAtMs: 1, endedAtMs: 2, text: 'Done.', error: null,
  usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 }, toolCallsCount: 1, turns: 1, lastSequence: 12,
};

const EVENTS = recorded([
  ['turn_start', { turn: 1 }],
  ['reasoning_delta', { text: 'thinking' }],
  ['text_delta', { text: 'Listing. ' }],
  ['task_updated', { plan: [{ step: 'list', status: 'in_progress' }] }],
  ['tool_input_delta', { tool_id: 't1', tool_name: 'bash', delta: '{"command":"ls"}' }],
  ['tool_start', { tool_id: 't1', tool_name: 'bash', args: { command: 'ls' }, origin: 'agent' }],
  ['confirmation_required', { tool_id: 't1', tool_name: 'bash', args: { command: 'ls' }, timeout_ms: 1000, confirmation_id: 'c1' }],
  ['confirmation_received', { tool_id: 't1', tool_name: 'bash', approved: true }],
  ['tool_end', { tool_id: 't1', tool_name: 'bash', exit_code: 0, output: 'README.md', duration_ms: 3, origin: 'agent' }],
  ['task_updated', { plan: [{ step: 'list', status: 'completed' }] }],
  ['text_delta', { text: 'Done.' }],
  ['turn_end', { turn: 1, usage: {} }],
]);

/** Runs `events` (AG-UI) through HttpAgent as if the server had sent them; returns what it received and built. */
async function throughClient(events: readonly AGUIEvent[]): Promise<{ received: string[]; agent: HttpAgent }> {
  const sse = new EventEncoder();
  const wire = events.map((e) => sse.encodeSSE(e)).join('');
  const agent = new HttpAgent({ url: 'http://host.invalid/agui', threadId: 's_1', fetch: async () => new Response(wire, { headers: { 'content-type': 'text/event-stream' } }) });
  const received: string[] = [];
  await agent.runAgent({ runId: 'r1' }, { onEvent: ({ event }) => void received.push(event.type) });
  return { received, agent };
}

describe('AgUiEncoder', () => {
  it('a whole run: every event valid, the order the client verifies, text / tool call / result / state applied', async () => {
    const encoder = new AgUiEncoder({ threadId: 's_1', runId: 'r1', a3sRunId: 'run_1' });
    const events = [encoder.start(), ...EVENTS.flatMap((e) => encoder.encode(e, Number(e.metadata?.['sequence']))), ...encoder.finish(RUN)];
    for (const event of events) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    const { received, agent } = await throughClient(events);
    expect(received[0]).toBe('RUN_STARTED');
    expect(received.at(-1)).toBe('RUN_FINISHED');
    expect(received.filter((t) => t.startsWith('STATE_'))).toEqual(['STATE_SNAPSHOT', 'STATE_DELTA']);
    expect(agent.state).toEqual({ plan: [{ step: 'list', status: 'completed' }] });
    const tool = agent.messages.find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ toolCallId: 't1', content: 'README.md' });
    expect(agent.messages.filter((m) => m.role === 'assistant').map((m) => (m as { content?: string }).content ?? '')).toContain('Done.');
  });

  it('a pending confirmation ends the AG-UI run with an interrupt the client records; the resumed run continues the same A3S run', async () => {
    const first = new AgUiEncoder({ threadId: 's_1', runId: 'r1', a3sRunId: 'run_1' });
    const upTo = EVENTS.slice(0, 7);
    const asked = upTo.at(-1)!;
    const paused = [first.start(), ...upTo.flatMap((e) => first.encode(e, Number(e.metadata?.['sequence']))), ...first.interrupt(asked, 1_000)];
    for (const event of paused) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(paused.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [{ id: 'c1', reason: 'tool_approval', toolCallId: 't1', expiresAt: new Date(2_000).toISOString() }] } });
    const { received } = await throughClient(paused);
    expect(received.at(-1)).toBe('RUN_FINISHED');

    // The continuation: primed with what the first AG-UI run told, it sends only the rest.
    const next = new AgUiEncoder({ threadId: 's_1', runId: 'r2', a3sRunId: 'run_1' });
    for (const e of upTo) next.encode(e, Number(e.metadata?.['sequence']));
    const rest = [next.start(), ...EVENTS.slice(7).flatMap((e) => next.encode(e, Number(e.metadata?.['sequence']))), ...next.finish(RUN)];
    for (const event of rest) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(rest.map((e) => e.type).filter((t) => t.startsWith('TOOL_CALL'))).toEqual(['TOOL_CALL_RESULT']);
    expect(rest.map((e) => e.type).filter((t) => t.startsWith('STATE_'))).toEqual(['STATE_SNAPSHOT']);
  });

  it('cancelled and failed runs: the cancelled outcome, RUN_ERROR; open calls closed with a result first', () => {
    const open = EVENTS.slice(0, 6);
    const run = (status: RunRecord['status'], error: RunRecord['error'] = null): AGUIEvent[] => {
      const encoder = new AgUiEncoder({ threadId: 's_1', runId: 'r1', a3sRunId: 'run_1' });
      return [encoder.start(), ...open.flatMap((e) => encoder.encode(e, Number(e.metadata?.['sequence']))), ...encoder.finish({ ...RUN, status, error })];
    };
    expect(run('cancelled').slice(-2)).toMatchObject([{ type: 'TOOL_CALL_RESULT', toolCallId: 't1', content: 'Not finished: the run ended (cancelled)' }, { type: 'RUN_FINISHED', outcome: { type: 'cancelled' } }]);
    expect(run('failed', { code: 'LLM_ERROR', message: 'overloaded' }).at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'LLM_ERROR', message: 'overloaded' });
  });
});
