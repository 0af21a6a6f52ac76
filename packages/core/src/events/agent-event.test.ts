import { describe, expect, it } from 'vitest';
import { createAgentEvent, parseAgentEvent, withEventMetadata, type AgentEvent, type AgentEventMetadata } from './agent-event.js';

/** The convenience fields of an event, without the envelope. */
const projection = (event: AgentEvent): Record<string, unknown> => {
  const { version: _version, type: _type, payload: _payload, metadata: _metadata, ...rest } = event;
  return rest;
};

/** Builds an event from a type known only at run time, as `parseAgentEvent` does for wire input. */
const loose = (type: string, payload: Record<string, unknown>, metadata?: AgentEventMetadata): AgentEvent => createAgentEvent(type, payload, metadata);

describe('createAgentEvent', () => {
  it('builds the v1 envelope and keeps the payload object as given', () => {
    const payload = { text: 'hi' };
    const event = createAgentEvent('text_delta', payload);
    expect(event.version).toBe(1);
    expect(event.type).toBe('text_delta');
    expect(event.payload).toBe(payload);
    expect('metadata' in event).toBe(false);
  });

  it('defaults the payload to an empty object and attaches metadata when given', () => {
    const event = createAgentEvent('agent_start', {}, { run_id: 'r1', sequence: 0 });
    expect(event).toEqual({ version: 1, type: 'agent_start', payload: {}, metadata: { run_id: 'r1', sequence: 0 } });
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['text_delta', { text: 'hello' }, { text: 'hello' }],
    ['reasoning_delta', { text: 'thinking' }, { text: 'thinking' }],
    ['turn_start', { turn: 2, attempt: 1 }, { turn: 2 }],
    ['turn_end', { turn: 2, usage: { input_tokens: 1 } }, { turn: 2 }],
    ['agent_end', { text: 'done', usage: {} }, { text: 'done' }],
    ['error', { code: 'LLM_ERROR', message: 'rate limited' }, { code: 'LLM_ERROR', text: 'rate limited' }],
    ['tool_start', { tool_id: 't1', tool_name: 'read', args: {}, origin: 'agent' }, { toolId: 't1', toolName: 'read' }],
    ['tool_input_delta', { tool_id: 't1', tool_name: 'write', delta: '{"file' }, { toolId: 't1', toolName: 'write', text: '{"file' }],
    ['tool_execution_start', { tool_id: 't1', tool_name: 'bash' }, { toolId: 't1', toolName: 'bash' }],
    ['tool_output_delta', { tool_id: 't1', tool_name: 'bash', text: 'line\n' }, { toolId: 't1', toolName: 'bash', text: 'line\n' }],
    ['tool_output_delta', { tool_id: 't1', tool_name: 'bash', delta: 'chunk' }, { toolId: 't1', toolName: 'bash', text: 'chunk' }],
    ['tool_end', { tool_id: 't1', tool_name: 'bash', exit_code: 2, output: 'x', duration_ms: 5 }, { toolId: 't1', toolName: 'bash', exitCode: 2 }],
    ['confirmation_required', { tool_id: 't2', tool_name: 'write', args: {}, timeout_ms: 30000 }, { toolId: 't2', toolName: 'write' }],
    ['confirmation_received', { tool_id: 't2', tool_name: 'write', approved: true }, { toolId: 't2', toolName: 'write' }],
    ['confirmation_timeout', { tool_id: 't2', tool_name: 'write', action: 'reject' }, { toolId: 't2', toolName: 'write' }],
    ['permission_denied', { tool_id: 't3', tool_name: 'bash', reason: 'denied by rule' }, { toolId: 't3', toolName: 'bash' }],
    ['task_updated', { plan: [{ step: 'a', status: 'pending' }] }, {}],
    ['budget_threshold_hit', { kind: 'tokens', threshold: 0.8, used: 80, limit: 100 }, {}],
    ['mcp_tools_changed', { server: 'github', added: [], changed: ['x'], removed: [], accepted: false }, {}],
  ])('projects %s', (type, payload, expected) => {
    expect(projection(loose(type, payload))).toEqual(expected);
  });

  it('falls back from tool_id/tool_name to id/name and from text to delta to message', () => {
    expect(projection(loose('tool_start', { id: 'x', name: 'grep' }))).toEqual({ toolId: 'x', toolName: 'grep' });
    expect(loose('tool_start', { tool_id: 'a', id: 'b', tool_name: 'c', name: 'd' })).toMatchObject({ toolId: 'a', toolName: 'c' });
    expect(loose('text_delta', { text: 'first', delta: 'second', message: 'third' }).text).toBe('first');
    expect(loose('text_delta', { text: 7, delta: 'second' }).text).toBe('second');
  });

  it('only projects tool fields for tool, confirmation and permission events', () => {
    expect(projection(loose('subagent_start', { id: 'task-1', name: 'explore' }))).toEqual({});
    expect(projection(loose('agent_start', { tool_id: 't', tool_name: 'n' }))).toEqual({});
  });

  it('only projects code for error events', () => {
    expect(projection(loose('persistence_failed', { code: 'IO_ERROR' }))).toEqual({});
  });

  it('ignores fields of the wrong type', () => {
    const event = loose('tool_end', { tool_id: 1, tool_name: null, exit_code: '0', turn: Number.NaN, text: {} });
    expect(projection(event)).toEqual({});
    expect(projection(loose('turn_start', { turn: Number.POSITIVE_INFINITY }))).toEqual({});
    expect(projection(loose('error', { code: 5, message: 'm' }))).toEqual({ text: 'm' });
  });

  it('keeps unknown event types intact with their payload and metadata', () => {
    const payload = { text: 'future', nested: { a: [1, 2] }, tool_id: 'ignored' };
    const event = createAgentEvent('hologram_rendered', payload, { run_id: 'r', custom: true });
    expect(event.type).toBe('hologram_rendered');
    expect(event.payload).toEqual({ text: 'future', nested: { a: [1, 2] }, tool_id: 'ignored' });
    expect(event.metadata).toEqual({ run_id: 'r', custom: true });
    expect(event.text).toBe('future');
    expect(event.toolId).toBeUndefined();
  });
});

describe('parseAgentEvent', () => {
  it('re-projects an envelope read from JSON', () => {
    const original = createAgentEvent('tool_end', { tool_id: 't', tool_name: 'read', exit_code: 0, output: 'ok', duration_ms: 1 }, { run_id: 'r', sequence: 4 });
    const parsed = parseAgentEvent(JSON.parse(JSON.stringify({ version: 1, type: original.type, payload: original.payload, metadata: original.metadata })));
    expect(parsed).toEqual(original);
  });

  it('keeps unknown types', () => {
    expect(parseAgentEvent({ version: 1, type: 'brand_new', payload: { x: 1 } })).toEqual({ version: 1, type: 'brand_new', payload: { x: 1 } });
  });

  it('replaces a missing or non-object payload with {} and drops non-object metadata', () => {
    expect(parseAgentEvent({ version: 1, type: 'agent_start' })).toEqual({ version: 1, type: 'agent_start', payload: {} });
    expect(parseAgentEvent({ version: 1, type: 'agent_start', payload: null, metadata: 'x' })).toEqual({ version: 1, type: 'agent_start', payload: {} });
    expect(parseAgentEvent({ version: 1, type: 'agent_start', payload: 'text', metadata: null })).toEqual({ version: 1, type: 'agent_start', payload: {} });
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', '{"version":1,"type":"x"}'],
    ['a number', 1],
    ['version 2', { version: 2, type: 'text_delta', payload: {} }],
    ['version as string', { version: '1', type: 'text_delta', payload: {} }],
    ['no version', { type: 'text_delta', payload: {} }],
    ['no type', { version: 1, payload: {} }],
    ['a non-string type', { version: 1, type: 5, payload: {} }],
  ])('rejects %s', (_label, value) => {
    expect(parseAgentEvent(value)).toBeNull();
  });
});

describe('withEventMetadata', () => {
  it('returns a copy with metadata merged, later keys winning, and leaves the original alone', () => {
    const event = createAgentEvent('text_delta', { text: 'x' }, { run_id: 'r', sequence: 1 });
    const merged = withEventMetadata(event, { sequence: 2, session_id: 's' });
    expect(merged).not.toBe(event);
    expect(merged.metadata).toEqual({ run_id: 'r', sequence: 2, session_id: 's' });
    expect(merged.text).toBe('x');
    expect(event.metadata).toEqual({ run_id: 'r', sequence: 1 });
  });

  it('adds metadata to an event that had none', () => {
    expect(withEventMetadata(createAgentEvent('agent_start', {}), { run_id: 'r' }).metadata).toEqual({ run_id: 'r' });
  });
});
