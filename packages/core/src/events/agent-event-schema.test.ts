import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createAgentEvent } from './agent-event.js';
import { agentEventJsonSchemaV1 } from './agent-event-schema.js';
import { AGENT_EVENT_TYPES_V1 } from './agent-event-types.js';

const publishedText = readFileSync(new URL('../../schemas/events.v1.json', import.meta.url), 'utf8');
// strict: unknown keywords or type ambiguities in the published schema fail the suite.
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(publishedText) as object);

/** Envelope of `type` with `payload`, as a host would receive it in JSON. */
const event = (type: string, payload: Record<string, unknown>, metadata?: Record<string, unknown>) => JSON.parse(JSON.stringify(createAgentEvent(type, payload, metadata))) as unknown;

const VALID: readonly (readonly [string, Record<string, unknown>])[] = [
  ['agent_start', { run_id: 'r1', session_id: 's1', prompt: 'hi', kind: 'send' }],
  ['agent_start', {}],
  ['turn_start', { turn: 1 }],
  ['turn_start', { turn: 1, attempt: 2, retry: true, reason: 'stream cut' }],
  ['text_delta', { text: 'Hel', turn: 1 }],
  ['reasoning_delta', { text: 'hmm' }],
  ['tool_start', { tool_id: 't1', tool_name: 'read', args: { file_path: 'a.ts' }, origin: 'agent' }],
  ['tool_start', { tool_id: 't2', tool_name: 'grep', args: {}, origin: 'nested', parent_tool_id: 't1' }],
  ['tool_input_delta', { tool_id: 't1', delta: '{"file_' }],
  ['tool_input_delta', { tool_id: 't1', tool_name: '', delta: '' }],
  ['tool_execution_start', { tool_id: 't1', tool_name: 'read' }],
  ['tool_output_delta', { tool_id: 't1', tool_name: 'bash', text: 'out' }],
  ['tool_output_delta', { tool_id: 't1', tool_name: 'bash', delta: 'out' }],
  ['tool_end', { tool_id: 't1', tool_name: 'read', exit_code: 0, output: 'ok', duration_ms: 3 }],
  [
    'tool_end',
    {
      tool_id: 't1',
      tool_name: 'write',
      exit_code: 1,
      output: 'conflict',
      duration_ms: 0,
      origin: 'host-direct',
      error_kind: { type: 'version_conflict', path: 'a', expected: null },
      metadata: { bytes: 3 },
      artifacts: ['a3s://tool-output/write/1'],
      future_field: true,
    },
  ],
  ['turn_end', { turn: 1, usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0 }, stop_reason: 'end_turn', tool_calls: 0 }],
  ['agent_end', { text: 'done', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }, verification_summary: null }],
  ['agent_end', { text: '', usage: {}, verification_summary: { text: '2 checks passed' } }],
  ['agent_end', { text: '', usage: {}, verification_summary: '2 checks passed' }],
  ['error', { code: 'LLM_ERROR', message: 'rate limited', details: { status: 429 } }],
  ['confirmation_required', { tool_id: 't1', tool_name: 'bash', args: { command: 'ls' }, timeout_ms: 30000 }],
  ['confirmation_received', { tool_id: 't1', tool_name: 'bash', approved: false, reason: 'no' }],
  ['confirmation_received', { tool_id: 't1', tool_name: 'bash', approved: true }],
  ['confirmation_timeout', { tool_id: 't1', tool_name: 'bash', action: 'reject' }],
  ['permission_denied', { tool_id: 't1', tool_name: 'bash', reason: 'deny rule', rule: 'bash(rm *)' }],
  ['task_updated', { plan: [{ step: 'read', status: 'completed' }, { step: 'fix', status: 'in_progress', note: 'x' }] }],
  ['planning_start', {}],
  ['planning_end', { plan: [] }],
  ['step_start', { step: 'a' }],
  ['step_end', {}],
  ['subagent_start', { task_id: 'k', agent: 'explore', description: 'find' }],
  ['subagent_progress', { task_id: 'k' }],
  ['subagent_end', { task_id: 'k', agent: 'explore', status: 'completed' }],
  ['context_compacted', { before_tokens: 1000, after_tokens: 300 }],
  ['persistence_failed', { code: 'IO_ERROR', message: 'disk full' }],
  ['budget_threshold_hit', { kind: 'tokens', threshold: 0.8, used: 80, limit: 100 }],
  ['mcp_tools_changed', { server: 'github', source: 'session', added: ['new_tool'], changed: ['create_issue'], removed: [], accepted: false }],
];

const INVALID: readonly (readonly [string, string, Record<string, unknown>])[] = [
  ['turn_start without turn', 'turn_start', {}],
  ['turn_start with a negative turn', 'turn_start', { turn: -1 }],
  ['text_delta without text', 'text_delta', { delta: 'x' }],
  ['text_delta with non-string text', 'text_delta', { text: 5 }],
  ['reasoning_delta without text', 'reasoning_delta', {}],
  ['tool_start without origin', 'tool_start', { tool_id: 't', tool_name: 'read', args: {} }],
  ['tool_start with an unknown origin', 'tool_start', { tool_id: 't', tool_name: 'read', args: {}, origin: 'robot' }],
  ['tool_start with array args', 'tool_start', { tool_id: 't', tool_name: 'read', args: [], origin: 'agent' }],
  ['tool_start with an empty tool_id', 'tool_start', { tool_id: '', tool_name: 'read', args: {}, origin: 'agent' }],
  ['tool_input_delta without delta', 'tool_input_delta', { tool_id: 't' }],
  ['tool_execution_start without tool_name', 'tool_execution_start', { tool_id: 't' }],
  ['tool_output_delta without text or delta', 'tool_output_delta', { tool_id: 't', tool_name: 'bash' }],
  ['tool_end without exit_code', 'tool_end', { tool_id: 't', tool_name: 'read', output: '', duration_ms: 1 }],
  ['tool_end with a fractional exit_code', 'tool_end', { tool_id: 't', tool_name: 'read', exit_code: 0.5, output: '', duration_ms: 1 }],
  ['tool_end with an untyped error_kind', 'tool_end', { tool_id: 't', tool_name: 'read', exit_code: 1, output: '', duration_ms: 1, error_kind: { path: 'a' } }],
  ['tool_end with negative duration', 'tool_end', { tool_id: 't', tool_name: 'read', exit_code: 0, output: '', duration_ms: -1 }],
  ['turn_end without usage', 'turn_end', { turn: 1 }],
  ['turn_end with string usage counts', 'turn_end', { turn: 1, usage: { input_tokens: '10' } }],
  ['agent_end without usage', 'agent_end', { text: 'x' }],
  ['agent_end with a numeric verification_summary', 'agent_end', { text: 'x', usage: {}, verification_summary: 3 }],
  ['error without message', 'error', { code: 'LLM_ERROR' }],
  ['error with a lower-case code', 'error', { code: 'llm_error', message: 'x' }],
  ['confirmation_required without timeout_ms', 'confirmation_required', { tool_id: 't', tool_name: 'bash', args: {} }],
  ['confirmation_received with a string approved', 'confirmation_received', { tool_id: 't', tool_name: 'bash', approved: 'yes' }],
  ['confirmation_timeout without action', 'confirmation_timeout', { tool_id: 't', tool_name: 'bash' }],
  ['permission_denied without reason', 'permission_denied', { tool_id: 't', tool_name: 'bash' }],
  ['task_updated without plan', 'task_updated', {}],
  ['task_updated with a malformed item', 'task_updated', { plan: [{ step: 'a' }] }],
  ['budget_threshold_hit without limit', 'budget_threshold_hit', { kind: 'tokens', threshold: 0.8, used: 80 }],
  ['budget_threshold_hit with a zero threshold', 'budget_threshold_hit', { kind: 'tokens', threshold: 0, used: 0, limit: 1 }],
  ['mcp_tools_changed without accepted', 'mcp_tools_changed', { server: 'github', added: [], changed: ['x'], removed: [] }],
  ['context_compacted with fractional tokens', 'context_compacted', { before_tokens: 1.5 }],
];

describe('events.v1.json', () => {
  it('is exactly the agentEventJsonSchemaV1 constant (regenerate with `pnpm --filter @a3s-lab/code-core run schemas`)', () => {
    expect(publishedText).toBe(`${JSON.stringify(agentEventJsonSchemaV1, null, 2)}\n`);
  });

  it('declares draft 2020-12 and has a payload schema for every known type', () => {
    expect(agentEventJsonSchemaV1.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(agentEventJsonSchemaV1.$defs.payloads.$defs).sort()).toEqual([...AGENT_EVENT_TYPES_V1].sort());
    expect(agentEventJsonSchemaV1.allOf.map((branch) => branch.if.properties.type.const)).toEqual([...AGENT_EVENT_TYPES_V1]);
  });

  it.each(VALID)('accepts %s', (type, payload) => {
    const ok = validate(event(type, payload));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each(INVALID)('rejects %s', (_label, type, payload) => {
    expect(validate(event(type, payload))).toBe(false);
    expect(validate.errors?.some((error) => error.instancePath.startsWith('/payload'))).toBe(true);
  });

  it('accepts replay metadata and rejects malformed metadata', () => {
    expect(validate(event('text_delta', { text: 'x' }, { run_id: 'r', session_id: 's', sequence: 0, timestamp_ms: 1700000000000, parent_tool_id: 'p', extra: 1 }))).toBe(true);
    expect(validate(event('text_delta', { text: 'x' }, { sequence: -1 }))).toBe(false);
    expect(validate(event('text_delta', { text: 'x' }, { sequence: 1.5 }))).toBe(false);
    expect(validate(event('text_delta', { text: 'x' }, { run_id: 5 }))).toBe(false);
    expect(validate({ version: 1, type: 'text_delta', payload: { text: 'x' }, metadata: [] })).toBe(false);
  });

  it('lets an unknown type through when the envelope is valid', () => {
    expect(validate({ version: 1, type: 'hologram_rendered', payload: { anything: [1, { deep: true }] } })).toBe(true);
  });

  it('rejects envelopes that are not v1', () => {
    expect(validate({ version: 2, type: 'text_delta', payload: { text: 'x' } })).toBe(false);
    expect(validate({ version: '1', type: 'text_delta', payload: { text: 'x' } })).toBe(false);
    expect(validate({ type: 'text_delta', payload: { text: 'x' } })).toBe(false);
    expect(validate({ version: 1, payload: {} })).toBe(false);
    expect(validate({ version: 1, type: '', payload: {} })).toBe(false);
    expect(validate({ version: 1, type: 'agent_start' })).toBe(false);
    expect(validate({ version: 1, type: 'agent_start', payload: [] })).toBe(false);
    expect(validate({ version: 1, type: 'agent_start', payload: {}, toolName: 3 })).toBe(false);
    expect(validate('text')).toBe(false);
    expect(validate(null)).toBe(false);
  });

  it('validates the convenience fields createAgentEvent projects', () => {
    const projected = event('tool_end', { tool_id: 't', tool_name: 'bash', exit_code: 1, output: '', duration_ms: 2 });
    expect(projected).toMatchObject({ toolId: 't', toolName: 'bash', exitCode: 1 });
    expect(validate(projected)).toBe(true);
  });
});
