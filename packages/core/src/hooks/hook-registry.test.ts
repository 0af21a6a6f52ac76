import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { HOOK_EVENTS, HookRegistry } from './hook-registry.js';
import type { HookInvocation } from './hook-registry.js';

describe('HookRegistry', () => {
  it('knows exactly the reference events', () => {
    expect([...HOOK_EVENTS]).toEqual([
      'pre_tool_use', 'post_tool_use', 'generate_start', 'generate_end', 'session_start', 'session_end',
      'pre_prompt', 'post_response', 'on_error', 'pre_planning', 'post_planning',
    ]);
  });

  it('runs lower priority first, ties in registration order, and stops at the first non-continue', async () => {
    const hooks = new HookRegistry();
    const order: string[] = [];
    hooks.register('late', 'pre_prompt', null, { priority: 200 }, () => {
      order.push('late');
      return { action: 'continue' };
    });
    hooks.register('a', 'pre_prompt', null, null, () => {
      order.push('a');
    });
    hooks.register('b', 'pre_prompt', null, null, async () => {
      order.push('b');
      return { action: 'block', reason: 'no' };
    });
    hooks.register('first', 'pre_prompt', null, { priority: 1 }, () => {
      order.push('first');
      return { action: 'continue', modified: { prompt: 'changed' } };
    });
    const result = await hooks.run('pre_prompt', { prompt: 'p' });
    expect(order).toEqual(['first', 'a', 'b']);
    expect(result).toMatchObject({ action: 'block', reason: 'no', hookId: 'b', modified: { prompt: 'changed' } });
  });

  it('redacts modifications before later hooks see them; the caller still gets them as made', async () => {
    const hooks = new HookRegistry();
    const seen: unknown[] = [];
    hooks.register('inject', 'pre_prompt', null, { priority: 1 }, () => ({ action: 'continue', modified: { prompt: 'use sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV now' } }));
    hooks.register('observer', 'pre_prompt', null, null, (event: HookInvocation) => {
      seen.push(event.payload['prompt']);
    });
    const result = await hooks.run('pre_prompt', { prompt: 'p' });
    expect(seen).toEqual(['use [REDACTED] now']);
    expect(result.payload['prompt']).toBe('use [REDACTED] now');
    expect(result.modified).toEqual({ prompt: 'use sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV now' });
  });

  it('matches later hooks against the payload as modified by earlier ones', async () => {
    const hooks = new HookRegistry();
    const hits: string[] = [];
    hooks.register('rewrite', 'pre_tool_use', null, { priority: 1 }, () => ({ action: 'continue', modified: { command: 'git push --force', paths: ['.env'] } }));
    hooks.register('push', 'pre_tool_use', { commandPattern: 'git push *' }, null, () => void hits.push('push'));
    hooks.register('env', 'pre_tool_use', { pathPattern: '.env' }, null, () => void hits.push('env'));
    await hooks.run('pre_tool_use', { tool_name: 'bash', command: 'ls', paths: ['a.txt'] });
    expect(hits).toEqual(['push', 'env']);
  });

  it('merges modifications into the payload later hooks see', async () => {
    const hooks = new HookRegistry();
    const seen: unknown[] = [];
    hooks.register('m1', 'pre_planning', null, null, () => ({ action: 'continue', modified: { hints: ['x'] } }));
    hooks.register('m2', 'pre_planning', null, null, (event: HookInvocation) => {
      seen.push(event.payload['hints']);
      return { action: 'continue', modified: { selected_strategy: 'step_by_step' } };
    });
    const result = await hooks.run('pre_planning', { task_description: 't' });
    expect(seen).toEqual([['x']]);
    expect(result.action).toBe('continue');
    expect(result.modified).toEqual({ hints: ['x'], selected_strategy: 'step_by_step' });
    expect(result.payload).toEqual({ task_description: 't', hints: ['x'], selected_strategy: 'step_by_step' });
  });

  it('matches tool globs, resolved path globs and command patterns', async () => {
    const hooks = new HookRegistry();
    const hits: string[] = [];
    hooks.register('tool', 'pre_tool_use', { tool: 'mcp__*' }, null, () => void hits.push('tool'));
    hooks.register('path', 'pre_tool_use', { pathPattern: 'src/**/*.ts' }, null, () => void hits.push('path'));
    hooks.register('cmd', 'pre_tool_use', { commandPattern: 'git push *' }, null, () => void hits.push('cmd'));
    hooks.register('re', 'pre_tool_use', { commandPattern: '/rm\\s+-rf/i' }, null, () => void hits.push('re'));
    await hooks.run('pre_tool_use', {}, { target: { toolName: 'mcp__srv__x' } });
    await hooks.run('pre_tool_use', {}, { target: { toolName: 'write', paths: ['README.md', 'src/a/b.ts'] } });
    await hooks.run('pre_tool_use', {}, { target: { toolName: 'bash', command: 'git push origin main' } });
    await hooks.run('pre_tool_use', {}, { target: { toolName: 'bash', command: 'RM -RF /' } });
    await hooks.run('pre_tool_use', {}, { target: { toolName: 'bash', command: 'git pushx' } });
    expect(hits).toEqual(['tool', 'path', 'cmd', 're']);
    expect(hooks.needsTarget('pre_tool_use')).toBe(true);
  });

  it('fails closed when a handler throws, times out or returns garbage', async () => {
    const hooks = new HookRegistry();
    hooks.register('throws', 'pre_prompt', null, null, () => {
      throw new Error('boom');
    });
    expect(await hooks.run('pre_prompt', {})).toMatchObject({ action: 'block', failed: true, hookId: 'throws' });
    hooks.unregister('throws');
    hooks.register('slow', 'pre_prompt', null, { timeoutMs: 20 }, () => new Promise(() => {}));
    const slow = await hooks.run('pre_prompt', {});
    expect(slow).toMatchObject({ action: 'block', failed: true });
    expect(slow.reason).toMatch(/timed out after 20 ms/);
    hooks.unregister('slow');
    hooks.register('garbage', 'pre_prompt', null, null, () => ({ action: 'maybe' }) as never);
    expect(await hooks.run('pre_prompt', {})).toMatchObject({ action: 'block', failed: true });
  });

  it('redacts payloads before handlers see them', async () => {
    const hooks = new HookRegistry();
    let seen: unknown;
    hooks.register('spy', 'on_error', null, null, (event) => {
      seen = event.payload;
    });
    await hooks.run('on_error', { message: 'failed with AKIAIOSFODNN7EXAMPLE' });
    expect(seen).toEqual({ message: 'failed with [REDACTED]' });
  });

  it('validates registrations and supports unregister', () => {
    const hooks = new HookRegistry();
    const noop = () => undefined;
    expect(() => hooks.register('x', 'nope' as never, null, null, noop)).toThrow(CodeError);
    expect(() => hooks.register('x', 'pre_prompt', null, { timeoutMs: 0 }, noop)).toThrow(/timeoutMs/);
    hooks.register('x', 'pre_prompt', null, null, noop);
    expect(() => hooks.register('x', 'pre_prompt', null, null, noop)).toThrow(/already registered/);
    expect(hooks.has('pre_prompt')).toBe(true);
    expect(hooks.unregister('x')).toBe(true);
    expect(hooks.unregister('x')).toBe(false);
    expect(hooks.has('pre_prompt')).toBe(false);
  });
});
