// The UI message stream projection of every kind of v1 event, checked by the AI SDK's own client:
// DefaultChatTransport validates each chunk against the protocol's schema (uiMessageChunkSchema)
// and readUIMessageStream builds the message; the history fold must build the same message.
import { describe, expect, it } from 'vitest';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import type { UIMessage } from 'ai';
import { parseAgentEvent } from '@a3s-lab/code';
import type { AgentEvent, RunRecord } from '@a3s-lab/code';
import { foldUIMessage } from './fold-ui-message.js';
import { formatUIMessageChunk, UI_MESSAGE_STREAM_DONE } from './ui-message-chunk.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import { UIMessageEncoder } from './ui-message-encoder.js';

/** v1 events as a run records them (validated against the v1 schema), sequence 1..n. */
function recorded(events: readonly (readonly [string, Record<string, unknown>])[]): AgentEvent[] {
  return events.map(([type, payload], i) => {
    const event = parseAgentEvent({ version: 1, type, payload, metadata: { run_id: 'run_1', sequence: i + 1 } });
    if (event === null) throw new Error(`invalid ${type} payload`);
    return event;
  });
}

const RUN: RunRecord = {
  id: 'run_1', sessionId: 's_1', status: 'completed', kind: 'stream', prompt: 'p', startedAtMs: 1, endedAtMs: 2, text: 'Done.', error: null,
  usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, cacheReadTokens: 2, cacheWriteTokens: 0 }, toolCallsCount: 1, turns: 2, lastSequence: 23,
};

const EVENTS = recorded([
  ['agent_start', { run_id: 'run_1', session_id: 's_1', prompt: 'p' }],
  ['turn_start', { turn: 1 }],
  ['reasoning_delta', { text: 'thinking' }],
  ['text_delta', { text: 'Let me plan. ' }],
  ['task_updated', { plan: [{ step: 'list', status: 'in_progress' }] }],
  ['tool_input_delta', { tool_id: 't1', tool_name: 'bash', delta: '{"command":' }],
  ['tool_start', { tool_id: 't1', tool_name: 'bash', args: { command: 'ls' }, origin: 'agent' }],
  ['confirmation_required', { tool_id: 't1', tool_name: 'bash', args: { command: 'ls' }, timeout_ms: 1000, confirmation_id: 'c1' }],
  ['confirmation_timeout', { tool_id: 't1', tool_name: 'bash', action: 'reject' }],
  ['tool_end', { tool_id: 't1', tool_name: 'bash', exit_code: 1, output: 'confirmation timed out', duration_ms: 1000, origin: 'agent' }],
  ['confirmation_required', { tool_id: 'child-1', tool_name: 'write', args: { file_path: 'x' }, timeout_ms: 1000, confirmation_id: 'c2', notice: "subagent 'general' asks you" }],
  ['confirmation_received', { tool_id: 'child-1', tool_name: 'write', approved: true }],
  ['subagent_start', { task_id: 'k1', agent: 'general', description: 'note' }],
  ['subagent_end', { task_id: 'k1', agent: 'general' }],
  ['permission_denied', { tool_id: 't2', tool_name: 'bash', reason: 'denied by rule', rule: 'bash(rm *)' }],
  ['turn_end', { turn: 1, usage: { input_tokens: 5 } }],
  ['turn_start', { turn: 2 }],
  ['text_delta', { text: 'partial answer of a failed attempt' }],
  ['turn_start', { turn: 2, retry: true, attempt: 2 }],
  ['text_delta', { text: 'Done.' }],
  ['task_updated', { plan: [{ step: 'list', status: 'completed' }] }],
  ['turn_end', { turn: 2, usage: { input_tokens: 5 } }],
  ['agent_end', { run_id: 'run_1', text: 'Done.', usage: { input_tokens: 10 }, verification_summary: { passed: 1, failed: 0 } }],
]);

function encodeAll(events: readonly AgentEvent[], run: RunRecord): UIMessageChunk[] {
  const encoder = new UIMessageEncoder({ runId: run.id, sessionId: run.sessionId });
  return [encoder.start(), ...events.flatMap((e) => encoder.encode(e, Number(e.metadata?.['sequence']))), ...encoder.finish(run)];
}

/** The message the AI SDK's transport + reader build from `chunks` sent as this host sends them. */
async function clientMessage(chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  const wire = chunks.map(formatUIMessageChunk).join('') + UI_MESSAGE_STREAM_DONE;
  const transport = new DefaultChatTransport({ api: 'http://host.invalid/chat', fetch: async () => new Response(wire, { headers: { 'content-type': 'text/event-stream' } }) });
  const stream = await transport.sendMessages({ chatId: 's_1', messages: [], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = structuredClone(message);
  if (last === undefined) throw new Error('no message');
  return last;
}

describe('UIMessageEncoder', () => {
  it('every chunk it sends passes the protocol schema, and the history fold builds the message the client builds', async () => {
    const chunks = encodeAll(EVENTS, RUN);
    const message = await clientMessage(chunks);
    expect(foldUIMessage(chunks)).toEqual(message);
    expect(message.id).toBe('run_1');
    expect(message.parts.map((p) => p.type)).toEqual([
      'step-start', 'reasoning', 'text', 'data-plan', 'tool-bash', 'tool-write', 'data-subagent', 'data-notice',
      'step-start', 'text', 'data-verification',
    ]);
    const byType = (type: string): Record<string, unknown> => message.parts.find((p) => p.type === type) as unknown as Record<string, unknown>;
    // A timed-out confirmation: denied, not a failed command.
    expect(byType('tool-bash')).toMatchObject({ state: 'output-denied', input: { command: 'ls' }, approval: { id: 'c1', approved: false, reason: 'timed out' } });
    // A subagent's call asking the same human: its own part, answered, settled.
    expect(byType('tool-write')).toMatchObject({ state: 'output-available', approval: { id: 'c2', approved: true, requestReason: "subagent 'general' asks you" } });
    // The plan is one part, replaced as it changes; the retried attempt's text is gone.
    expect(byType('data-plan')).toMatchObject({ id: 'plan', data: { plan: [{ step: 'list', status: 'completed' }] } });
    expect(byType('data-subagent')).toMatchObject({ id: 'k1', data: { phase: 'end', agent: 'general' } });
    expect(byType('data-notice')).toMatchObject({ data: { event: 'permission_denied', reason: 'denied by rule' } });
    expect(message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual(['Let me plan. ', 'Done.']);
    expect(message.metadata).toEqual({ runId: 'run_1', sessionId: 's_1', status: 'completed', lastSequence: 23, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 2 } });
  });

  it('the same events encode to the same chunks (a resumed stream is a replay)', () => {
    expect(encodeAll(EVENTS, RUN)).toEqual(encodeAll(EVENTS, RUN));
  });

  it('a cancelled run ends with abort, a failed one with error; open tool parts are settled either way', async () => {
    const open = EVENTS.slice(0, 7);
    const cancelled = encodeAll(open, { ...RUN, status: 'cancelled' });
    expect(cancelled.slice(-3).map((c) => c.type)).toEqual(['tool-output-error', 'abort', 'finish']);
    expect((await clientMessage(cancelled)).parts.find((p) => p.type === 'tool-bash')).toMatchObject({ state: 'output-error', errorText: 'the run ended (cancelled) before this call finished' });
    const failed = encodeAll(open, { ...RUN, status: 'failed', error: { code: 'LLM_ERROR', message: 'overloaded' } });
    expect(failed.slice(-2)).toEqual([{ type: 'error', errorText: 'LLM_ERROR: overloaded' }, expect.objectContaining({ type: 'finish', finishReason: 'error' })]);
  });
});
