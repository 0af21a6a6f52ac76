import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { confirmationLaneOf } from './confirmation-lane.js';
import { ConfirmationManager, validateConfirmationPolicy } from './confirmation-manager.js';
import { DEFAULT_TOOL_CAPABILITIES, READ_ONLY_TOOL_CAPABILITIES } from '../tools/tool-capabilities.js';

const base = { toolName: 'write', args: { file_path: 'a' }, lane: 'write' as const };

describe('ConfirmationManager', () => {
  it('a throwing event listener neither rejects the request nor leaves it pending', async () => {
    const manager = new ConfirmationManager({ defaultTimeoutMs: 60_000 }, {
      emit: () => {
        throw new Error('listener crashed');
      },
    });
    const pending = manager.request({ ...base, toolId: 't1' });
    expect(manager.pending().map((p) => p.toolId)).toEqual(['t1']);
    expect(manager.confirm('t1', false, 'no')).toBe(true);
    expect(await pending).toEqual({ approved: false, reason: 'no', source: 'user' });
    expect(manager.pending()).toEqual([]);
  });

  it('approves and denies through confirm, emitting required/received', async () => {
    const events: AgentEvent[] = [];
    const manager = new ConfirmationManager({}, { emit: (e) => events.push(e) });
    const pending = manager.request({ ...base, toolId: 't1' });
    expect(manager.pending()).toEqual([expect.objectContaining({ toolId: 't1', toolName: 'write', args: { file_path: 'a' } })]);
    expect(manager.pending()[0]!.remainingMs).toBeGreaterThan(0);
    expect(manager.confirm('t1', true, 'ok')).toBe(true);
    expect(await pending).toEqual({ approved: true, reason: 'ok', source: 'user' });
    const denied = manager.request({ ...base, toolId: 't2' });
    expect(manager.confirm('t2', false)).toBe(true);
    expect(await denied).toMatchObject({ approved: false, source: 'user' });
    expect(events.map((e) => e.type)).toEqual(['confirmation_required', 'confirmation_received', 'confirmation_required', 'confirmation_received']);
    expect(events[0]!.payload).toEqual({ tool_id: 't1', tool_name: 'write', args: { file_path: 'a' }, timeout_ms: 30000, confirmation_id: 't1#1' });
    expect(events[1]!.payload).toEqual({ tool_id: 't1', tool_name: 'write', approved: true, reason: 'ok' });
  });

  it('refuses late, repeated and unknown confirmations', async () => {
    const manager = new ConfirmationManager({ defaultTimeoutMs: 10 });
    const outcome = await manager.request({ ...base, toolId: 't1' });
    expect(outcome).toMatchObject({ approved: false, source: 'timeout' });
    expect(manager.confirm('t1', true)).toBe(false);
    expect(manager.confirm('unknown', true)).toBe(false);
    const second = manager.request({ ...base, toolId: 't2', timeoutMs: 10_000 });
    expect(manager.confirm('t2', false)).toBe(true);
    expect(manager.confirm('t2', true)).toBe(false);
    expect((await second).approved).toBe(false);
  });

  it('applies timeoutAction auto_approve and emits confirmation_timeout', async () => {
    const events: AgentEvent[] = [];
    const manager = new ConfirmationManager({ defaultTimeoutMs: 10, timeoutAction: 'auto_approve' });
    const outcome = await manager.request({ ...base, toolId: 't1', emit: (e) => events.push(e) });
    expect(outcome).toMatchObject({ approved: true, source: 'timeout' });
    expect(events.map((e) => [e.type, e.payload['action']])).toEqual([['confirmation_required', undefined], ['confirmation_timeout', 'auto_approve']]);
  });

  it('auto-approves YOLO lanes without asking', async () => {
    const manager = new ConfirmationManager({ yoloLanes: ['query'] });
    expect(await manager.request({ ...base, toolId: 't', lane: 'query' })).toMatchObject({ approved: true, source: 'yolo' });
    expect(manager.pending()).toEqual([]);
  });

  it('cancels a pending entry when its signal aborts', async () => {
    const manager = new ConfirmationManager();
    const controller = new AbortController();
    const pending = manager.request({ ...base, toolId: 't', abortSignal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ approved: false, source: 'cancelled' });
    expect(manager.pending()).toEqual([]);
    expect(manager.confirm('t', true)).toBe(false);
  });

  it('denies everything when disabled', async () => {
    const manager = new ConfirmationManager({ enabled: false });
    expect(await manager.request({ ...base, toolId: 't' })).toMatchObject({ approved: false });
  });

  it('validates the policy, naming the field', () => {
    const field = (value: unknown): unknown => {
      try {
        validateConfirmationPolicy(value);
      } catch (error) {
        return CodeError.hasCode(error, 'SESSION_CONFIGURATION_ERROR') ? error.details['field'] : error;
      }
      return null;
    };
    expect(field({ enabled: 'yes' })).toBe('confirmationPolicy.enabled');
    expect(field({ defaultTimeoutMs: -1 })).toBe('confirmationPolicy.defaultTimeoutMs');
    expect(field({ timeoutAction: 'approve' })).toBe('confirmationPolicy.timeoutAction');
    expect(field({ yoloLanes: ['everything'] })).toBe('confirmationPolicy.yoloLanes');
    expect(field({ yolo: true })).toBe('confirmationPolicy.yolo');
    expect(validateConfirmationPolicy({})).toEqual({ enabled: true, defaultTimeoutMs: 30000, timeoutAction: 'reject', yoloLanes: [] });
  });
});

describe('confirmationLaneOf', () => {
  it('classifies calls into lanes', () => {
    expect(confirmationLaneOf('mcp__srv__read', READ_ONLY_TOOL_CAPABILITIES)).toBe('mcp');
    expect(confirmationLaneOf('program', DEFAULT_TOOL_CAPABILITIES, 'program')).toBe('program');
    expect(confirmationLaneOf('bash', DEFAULT_TOOL_CAPABILITIES)).toBe('execute');
    expect(confirmationLaneOf('git', READ_ONLY_TOOL_CAPABILITIES)).toBe('execute');
    expect(confirmationLaneOf('web_fetch', READ_ONLY_TOOL_CAPABILITIES)).toBe('network');
    expect(confirmationLaneOf('web_search', READ_ONLY_TOOL_CAPABILITIES)).toBe('network');
    expect(confirmationLaneOf('read', READ_ONLY_TOOL_CAPABILITIES)).toBe('query');
    expect(confirmationLaneOf('write', DEFAULT_TOOL_CAPABILITIES)).toBe('write');
  });
});
