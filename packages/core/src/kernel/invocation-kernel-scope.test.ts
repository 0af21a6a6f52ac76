import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool, until } from '../../test/kernel-kit.js';
import { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { DEFAULT_TOOL_CAPABILITIES } from '../tools/tool-capabilities.js';
import type { ToolContext } from '../tools/tool.js';
import { InvocationRuntime } from './invocation-runtime.js';

const honours = (_args: unknown, ctx: ToolContext) =>
  new Promise<never>((_resolve, reject) => ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason)));

describe('kernel execution scope', () => {
  it('a deadline aborts the tool signal and yields a timeout result', async () => {
    let signal: AbortSignal | undefined;
    const tool = recordingTool('slow', (args, ctx) => {
      signal = ctx.abortSignal;
      return honours(args, ctx);
    });
    const { kernel, types } = makeKernel([tool], { toolTimeoutMs: 20 });
    const result = await kernel.invoke({ toolName: 'slow', args: { text: 'a' }, origin: 'agent', toolId: 't1' });
    expect(signal?.aborted).toBe(true);
    expect(result.errorKind).toEqual({ type: 'timeout', op: 'slow', duration_ms: 20 });
    expect(result.output).not.toContain('grace period');
    expect(types('t1')).toEqual(['tool_start', 'tool_execution_start', 'tool_end']);
    expect(kernel.activeInvocations()).toEqual([]);
  });

  it('a BUDGET_EXHAUSTED or SESSION_CLOSED a tool lets through ends the call like the kernel\'s own check', async () => {
    const { CodeError } = await import('../errors/code-error.js');
    const budget = recordingTool('spender', () => Promise.reject(new CodeError('BUDGET_EXHAUSTED', 'tool calls used up', { details: { limit: 'tool_calls' } })));
    const closed = recordingTool('closer', () => {
      throw new CodeError('SESSION_CLOSED', 'session is closed');
    });
    const { kernel, types } = makeKernel([budget, closed]);
    await expect(kernel.invoke({ toolName: 'spender', args: { text: 'a' }, origin: 'agent', toolId: 'b1' })).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    await expect(kernel.invoke({ toolName: 'closer', args: { text: 'a' }, origin: 'agent', toolId: 'c1' })).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    expect(types('b1')).toEqual(['tool_start', 'tool_execution_start', 'tool_end']);
    expect(kernel.activeInvocations()).toEqual([]);
  });

  it('a tool that ignores its signal still yields a timeout after the grace', async () => {
    const tool = recordingTool('stuck', () => new Promise(() => {}));
    const { kernel } = makeKernel([tool], { toolTimeoutMs: 20, abortGraceMs: 30 });
    const result = await kernel.invoke({ toolName: 'stuck', args: { text: 'a' }, origin: 'agent' });
    expect(result.errorKind?.type).toBe('timeout');
    expect(result.output).toContain('did not stop within the 30 ms grace period');
  });

  it("a tool's own timeoutMs(args) wins over the session default", async () => {
    const tool = recordingTool('bashy', honours, { timeoutMs: () => 15 });
    const { kernel } = makeKernel([tool], { toolTimeoutMs: 600_000 });
    const result = await kernel.invoke({ toolName: 'bashy', args: { text: 'a' }, origin: 'agent' });
    expect(result.errorKind).toEqual({ type: 'timeout', op: 'bashy', duration_ms: 15 });
  });

  it('caller cancellation and cancelAll yield cancelled', async () => {
    const tool = recordingTool('slow', honours);
    const { kernel } = makeKernel([tool]);
    const controller = new AbortController();
    const first = kernel.invoke({ toolName: 'slow', args: { text: 'a' }, origin: 'agent', abortSignal: controller.signal });
    await until(() => tool.calls.length === 1);
    controller.abort();
    expect((await first).errorKind).toEqual({ type: 'cancelled', op: 'slow' });
    const second = kernel.invoke({ toolName: 'slow', args: { text: 'b' }, origin: 'host-direct', toolId: 'h1' });
    await until(() => tool.calls.length === 2);
    expect(kernel.activeInvocations()).toEqual([expect.objectContaining({ toolId: 'h1', toolName: 'slow', origin: 'host-direct', state: 'running' })]);
    kernel.cancelAll('session closed');
    const result = await second;
    expect(result.errorKind?.type).toBe('cancelled');
    expect(result.output).toContain('session closed');
  });

  it('an already-aborted signal cancels before anything runs', async () => {
    const tool = recordingTool('echo');
    const { kernel } = makeKernel([tool]);
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent', abortSignal: AbortSignal.abort() });
    expect(result.errorKind?.type).toBe('cancelled');
    expect(tool.calls).toEqual([]);
  });

  it('cancelling a call waiting for confirmation clears the pending entry', async () => {
    const tool = recordingTool('echo');
    const confirmation = new ConfirmationManager();
    const { kernel } = makeKernel([tool], { confirmation, permissionPolicy: { ask: ['echo'] } });
    const controller = new AbortController();
    const running = kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent', abortSignal: controller.signal, toolId: 'q1' });
    await until(() => confirmation.pending().length === 1);
    expect(kernel.activeInvocations()[0]?.state).toBe('gate-pending');
    controller.abort();
    expect((await running).errorKind?.type).toBe('cancelled');
    expect(confirmation.pending()).toEqual([]);
    expect(confirmation.confirm('q1', true)).toBe(false);
    expect(tool.calls).toEqual([]);
  });

  it('the queue caps concurrency; a queued call can be cancelled', async () => {
    const releases: (() => void)[] = [];
    const tool = recordingTool('gate', () => new Promise((resolve) => releases.push(() => resolve({ output: 'done' }))));
    const { kernel, events } = makeKernel([tool], { maxConcurrentTools: 1 });
    const a = kernel.invoke({ toolName: 'gate', args: { text: 'a' }, origin: 'agent', toolId: 'a' });
    const controller = new AbortController();
    const b = kernel.invoke({ toolName: 'gate', args: { text: 'b' }, origin: 'agent', toolId: 'b', abortSignal: controller.signal });
    const c = kernel.invoke({ toolName: 'gate', args: { text: 'c' }, origin: 'agent', toolId: 'c' });
    await until(() => releases.length === 1);
    controller.abort();
    expect((await b).errorKind?.type).toBe('cancelled');
    // c is still queued behind a: only one call has reached the tool.
    expect(tool.calls).toHaveLength(1);
    expect(kernel.activeInvocations().map((x) => [x.toolId, x.state])).toEqual([['a', 'running'], ['c', 'admitted']]);
    releases[0]!();
    expect((await a).exitCode).toBe(0);
    await until(() => releases.length === 2);
    releases[1]!();
    expect((await c).exitCode).toBe(0);
    const starts = events.filter((e) => e.type === 'tool_execution_start').map((e) => e.payload['tool_id']);
    expect(starts).toEqual(['a', 'c']);
    expect(tool.calls.map((args) => args['text'])).toEqual(['a', 'c']);
  });

  it('nesting deeper than maxNestingDepth is rejected', async () => {
    const deep = recordingTool('deep', async (args, ctx) => {
      const depth = Number(args['text']);
      const inner = await ctx.runtime.invoke('deep', { text: String(depth + 1) });
      return { output: inner.output, exitCode: inner.exitCode };
    });
    const { kernel } = makeKernel([deep], { maxNestingDepth: 3 });
    const result = await kernel.invoke({ toolName: 'deep', args: { text: '0' }, origin: 'host-direct' });
    expect(result.output).toMatch(/nesting depth 4 exceeds the limit of 3/);
    expect(deep.calls).toHaveLength(4);
  });

  it('a nested call after the parent ended is refused; close() rejects later calls', async () => {
    let saved: ToolContext | undefined;
    const tool = recordingTool('leaker', async (_a, ctx) => {
      saved = ctx;
      return { output: 'ok' };
    });
    const { kernel } = makeKernel([tool]);
    await kernel.invoke({ toolName: 'leaker', args: { text: 'a' }, origin: 'host-direct' });
    await expect(saved!.runtime.invoke('leaker', { text: 'b' })).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
    kernel.close();
    await expect(kernel.invoke({ toolName: 'leaker', args: { text: 'a' }, origin: 'agent' })).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('runtime.capabilities reports a child call as the kernel would, conservative for unknown tools', async () => {
    const seen: unknown[] = [];
    const reader = recordingTool('reader', async () => ({ output: 'r' }), { capabilities: (args) => (args['text'] === 'write' ? {} : { readOnly: true, idempotent: true, cancellationSafe: true, maxParallelism: 4 }) });
    const thrower = recordingTool('thrower', async () => ({ output: 't' }), {
      capabilities: () => {
        throw new Error('bad declaration');
      },
    });
    const asker = recordingTool('asker', async (_args, ctx) => {
      seen.push(ctx.runtime.capabilities('reader', { text: 'x' }), ctx.runtime.capabilities('reader', { text: 'write' }), ctx.runtime.capabilities('nope', {}), ctx.runtime.capabilities('thrower', { text: 'x' }));
      return { output: 'ok' };
    });
    const { kernel } = makeKernel([reader, thrower, asker]);
    await kernel.invoke({ toolName: 'asker', args: { text: 'a' }, origin: 'agent' });
    expect(seen[0]).toEqual(kernel.capabilities('reader', { text: 'x' }));
    expect(seen[0]).toMatchObject({ readOnly: true, maxParallelism: 4, resumable: false });
    expect(seen.slice(1)).toEqual([DEFAULT_TOOL_CAPABILITIES, DEFAULT_TOOL_CAPABILITIES, DEFAULT_TOOL_CAPABILITIES]);
    expect(reader.calls).toEqual([]);
    expect(new InvocationRuntime(null).capabilities('reader', {})).toBe(DEFAULT_TOOL_CAPABILITIES);
    expect(new InvocationRuntime({ invokeNested: async () => ({ name: 'x', output: '', exitCode: 0 }), toolNames: () => [] }).capabilities('reader', {})).toBe(DEFAULT_TOOL_CAPABILITIES);
  });
});
