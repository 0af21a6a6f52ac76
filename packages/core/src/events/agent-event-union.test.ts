import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAgentEvent, isKnownAgentEvent, nestedAgentEvent, parseAgentEvent, type AgentEvent, type AgentEventOfType, type AgentEventPayloadV1, type UnknownAgentEvent } from './agent-event.js';
import type { KnownAgentEventTypeV1 } from './agent-event-types.js';

// Type-level pins run under `tsc` (pnpm run typecheck): an `@ts-expect-error` that stops
// erroring fails the build, so a loosened union cannot pass unnoticed.

/** What a host writes: one switch, no casts, no `!`. */
function describeEvent(event: AgentEvent): string {
  switch (event.type) {
    case 'text_delta':
      expectTypeOf(event.payload.text).toEqualTypeOf<string>();
      return event.text;
    case 'tool_start':
      expectTypeOf(event.payload.origin).toEqualTypeOf<'agent' | 'nested' | 'host-direct' | 'verification'>();
      return `${event.toolName}#${event.toolId} ${JSON.stringify(event.payload.args)}`;
    case 'tool_end':
      expectTypeOf(event.exitCode).toEqualTypeOf<number>();
      expectTypeOf(event.payload.error_kind).toEqualTypeOf<{ [x: string]: unknown; type: string } | undefined>();
      return `${event.toolName} exited ${event.exitCode} after ${event.payload.duration_ms} ms`;
    case 'tool_output_delta':
      // Either field may carry the chunk; the projection always does.
      return event.text;
    case 'tool_input_delta':
      expectTypeOf(event.toolName).toEqualTypeOf<string | undefined>();
      return event.text;
    case 'turn_end':
      expectTypeOf(event.payload.usage.input_tokens).toEqualTypeOf<number | undefined>();
      return `turn ${event.turn}`;
    case 'error':
      return `${event.code}: ${event.text}`;
    case 'agent_end':
      expectTypeOf(event.verificationSummaryText).toEqualTypeOf<string | undefined>();
      return event.text;
    case 'confirmation_received':
      expectTypeOf(event.payload.approved).toEqualTypeOf<boolean>();
      return event.toolId;
    case 'task_updated':
      return event.payload.plan.map((item) => `${item.step}: ${item.status}`).join(', ');
    case 'budget_threshold_hit':
      return `${event.payload.kind} at ${event.payload.threshold}`;
    default:
      // Unknown future types and the known ones not handled above.
      return String(event.type);
  }
}

describe('AgentEvent (discriminated union)', () => {
  it('narrows on type: payloads and projections are typed per event type', () => {
    expect(describeEvent(createAgentEvent('text_delta', { text: 'hi' }))).toBe('hi');
    expect(describeEvent(createAgentEvent('tool_end', { tool_id: 't', tool_name: 'bash', exit_code: 2, output: '', duration_ms: 5 }))).toBe('bash exited 2 after 5 ms');
    expect(describeEvent(createAgentEvent('error', { code: 'LLM_ERROR', message: 'rate limited' }))).toBe('LLM_ERROR: rate limited');
    expect(describeEvent(createAgentEvent('tool_output_delta', { tool_id: 't', tool_name: 'bash', delta: 'chunk' }))).toBe('chunk');
    expect(describeEvent(createAgentEvent('task_updated', { plan: [{ step: 'read', status: 'completed' }] }))).toBe('read: completed');
  });

  it('keeps an unknown type in its own branch', () => {
    const event = parseAgentEvent({ version: 1, type: 'hologram_rendered', payload: { x: 1 } });
    expect(event).not.toBeNull();
    if (event === null) return;
    expect(describeEvent(event)).toBe('hologram_rendered');
    expect(isKnownAgentEvent(event)).toBe(false);
    if (!isKnownAgentEvent(event)) expectTypeOf(event).toEqualTypeOf<UnknownAgentEvent>();
    expectTypeOf<UnknownAgentEvent['payload']>().toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });

  it('rejects typos and mismatched payloads at compile time', () => {
    const event = createAgentEvent('turn_start', { turn: 1 }) as AgentEvent;
    // @ts-expect-error a misspelt known type has no overlap with the union
    expect(event.type === 'tool_ned').toBe(false);
    if (isKnownAgentEvent(event)) {
      // @ts-expect-error nor with the known branch
      expect(event.type === 'nonsense_typo').toBe(false);
    }
    // @ts-expect-error text_delta needs `text`
    expect(() => createAgentEvent('text_delta', {})).not.toThrow();
    // @ts-expect-error tool_end's exit_code is a number
    expect(() => createAgentEvent('tool_end', { tool_id: 't', tool_name: 'x', exit_code: '0', output: '', duration_ms: 1 })).not.toThrow();
    // @ts-expect-error a known type cannot take the untyped overload
    expect(() => createAgentEvent('tool_start', { anything: true } as Record<string, unknown>)).not.toThrow();
    // @ts-expect-error toolId is never projected on a text event
    expectTypeOf<AgentEventOfType<'text_delta'>['toolId']>().toEqualTypeOf<string>();
  });

  it('derives the payload types from the published schema', () => {
    expectTypeOf<AgentEventPayloadV1<'tool_start'>['args']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<AgentEventPayloadV1<'confirmation_required'>['timeout_ms']>().toEqualTypeOf<number>();
    expectTypeOf<AgentEventPayloadV1<'agent_end'>['verification_summary']>().toEqualTypeOf<Record<string, unknown> | string | null | undefined>();
    expectTypeOf<AgentEventOfType<'turn_start'>['turn']>().toEqualTypeOf<number>();
    expectTypeOf<AgentEvent['type']>().toExtend<string>();
    expectTypeOf<Extract<AgentEvent, { type: KnownAgentEventTypeV1 }>['type']>().toEqualTypeOf<KnownAgentEventTypeV1>();
  });
});

describe('parseAgentEvent keeps the union true', () => {
  it('refuses a known type whose payload does not match its schema', () => {
    expect(parseAgentEvent({ version: 1, type: 'tool_end', payload: { tool_id: 't', tool_name: 'bash', exit_code: '0', output: '', duration_ms: 1 } })).toBeNull();
    expect(parseAgentEvent({ version: 1, type: 'text_delta', payload: {} })).toBeNull();
    const ok = parseAgentEvent({ version: 1, type: 'tool_end', payload: { tool_id: 't', tool_name: 'bash', exit_code: 0, output: '', duration_ms: 1, extra: true } });
    expect(ok).toMatchObject({ type: 'tool_end', exitCode: 0, toolId: 't' });
  });

  it('keeps an unknown type with whatever object payload it has', () => {
    expect(parseAgentEvent({ version: 1, type: 'hologram_rendered', payload: { exit_code: 'x' } })).toMatchObject({ type: 'hologram_rendered', payload: { exit_code: 'x' } });
  });
});

describe('nestedAgentEvent', () => {
  it('puts the parent tool id into payload and metadata and re-projects', () => {
    const event = createAgentEvent('tool_start', { tool_id: 't2', tool_name: 'grep', args: {}, origin: 'nested' }, { run_id: 'r' });
    const nested = nestedAgentEvent(event, 't1');
    expectTypeOf(nested).toEqualTypeOf(event);
    expect(nested).toEqual({ version: 1, type: 'tool_start', payload: { tool_id: 't2', tool_name: 'grep', args: {}, origin: 'nested', parent_tool_id: 't1' }, metadata: { run_id: 'r', parent_tool_id: 't1' }, toolId: 't2', toolName: 'grep' });
    expect(event.payload).not.toHaveProperty('parent_tool_id');
  });
});
