import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool, writeTool } from '../../test/kernel-kit.js';
import { BudgetGuard } from '../budget/budget-guard.js';
import { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { CodeError } from '../errors/code-error.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import { InvocationRuntime } from './invocation-runtime.js';

describe('kernel pipeline order', () => {
  it('invalid arguments never reach a hook, a confirmation or the tool', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    const hookCalls: unknown[] = [];
    hooks.register('spy', 'pre_tool_use', null, null, (e) => void hookCalls.push(e));
    const confirmation = new ConfirmationManager();
    const { kernel, events } = makeKernel([tool], { hooks, confirmation, permissionPolicy: { ask: ['echo'] } });
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 5, extra: true }, origin: 'agent', toolId: 'bad' });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind?.type).toBe('invalid_argument');
    expect(result.output).toContain('/text: must be string');
    expect(result.output).toContain('/extra: unexpected property');
    expect(hookCalls).toEqual([]);
    expect(tool.calls).toEqual([]);
    expect(confirmation.pending()).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['tool_start', 'tool_end']);
    const missing = await kernel.invoke({ toolName: 'echo', args: {}, origin: 'host-direct' });
    expect(missing.output).toContain('/text: required property is missing');
  });

  it('an unknown tool is a typed failure naming the available tools', async () => {
    const { kernel } = makeKernel([recordingTool('echo')]);
    const result = await kernel.invoke({ toolName: 'nope', args: {}, origin: 'agent' });
    expect(result.errorKind).toEqual({ type: 'unsupported', message: expect.stringContaining("Available tools: echo") });
  });

  it('a denied call has no side effect and emits permission_denied', async () => {
    const write = writeTool();
    const { kernel, workspace, types } = makeKernel([write], { permissionPolicy: { deny: ['write'], defaultDecision: 'allow' } });
    const result = await kernel.invoke({ toolName: 'write', args: { path: 'a.txt', content: 'x' }, origin: 'agent', toolId: 'w1' });
    expect(result.errorKind?.type).toBe('permission_denied');
    expect(write.calls).toEqual([]);
    expect(workspace.paths()).toEqual([]);
    expect(types('w1')).toEqual(['tool_start', 'permission_denied', 'tool_end']);
  });

  it('a path that fails workspace confinement is denied even when policy allows everything', async () => {
    const write = writeTool();
    const { kernel, workspace } = makeKernel([write], { permissionPolicy: { defaultDecision: 'allow' } });
    const result = await kernel.invoke({ toolName: 'write', args: { path: '../outside.txt', content: 'x' }, origin: 'agent' });
    expect(result.errorKind?.type).toBe('permission_denied');
    expect(result.output).toContain('../outside.txt');
    expect(write.calls).toEqual([]);
    expect(workspace.paths()).toEqual([]);
  });

  it('a pre-hook block stops even a host-direct call', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('guard', 'pre_tool_use', { tool: 'echo' }, null, () => ({ action: 'block', reason: 'not today' }));
    const { kernel } = makeKernel([tool], { hooks });
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 'x' }, origin: 'host-direct' });
    expect(result.errorKind).toEqual({ type: 'hook_denied', reason: 'not today', retryable: false });
    expect(tool.calls).toEqual([]);
  });

  it('host-direct skips permission and confirmation only', async () => {
    const write = writeTool();
    const { kernel, workspace } = makeKernel([write], { permissionPolicy: { ask: ['write'], deny: ['write'] }, confirmation: null });
    const direct = await kernel.invoke({ toolName: 'write', args: { path: 'a.txt', content: 'x' }, origin: 'host-direct' });
    expect(direct.exitCode).toBe(0);
    expect(workspace.paths()).toEqual(['a.txt']);
    const agent = await kernel.invoke({ toolName: 'write', args: { path: 'b.txt', content: 'x' }, origin: 'agent' });
    expect(agent.errorKind?.type).toBe('permission_denied');
    expect(workspace.paths()).toEqual(['a.txt']);
  });

  it('host-direct still gets budget, timeout, cancellation, recursion guard and sanitisation', async () => {
    const budget = new BudgetGuard({ maxToolCalls: 1 });
    const leaky = recordingTool('leaky', async () => ({ output: 'key AKIAIOSFODNN7EXAMPLE' }));
    const slow = recordingTool('slow', (_a, ctx) => new Promise((_r, reject) => ctx.abortSignal.addEventListener('abort', () => reject(ctx.abortSignal.reason))));
    const batch = recordingTool('batch', async (_a, ctx) => {
      const inner = await ctx.runtime.invoke('batch', { text: 'inner' });
      return { output: inner.output, exitCode: inner.exitCode };
    }, { orchestration: 'batch' });
    const { kernel, events } = makeKernel([leaky, slow, batch], { budget, toolTimeoutMs: 30, abortGraceMs: 50 });
    const first = await kernel.invoke({ toolName: 'leaky', args: { text: 'x' }, origin: 'host-direct' });
    // A mutating host-direct call is sanitised like any other (only host-direct reads are not).
    expect(first.output).toBe('key [REDACTED]');
    expect(events.find((e) => e.type === 'tool_end')?.payload['output']).toBe('key [REDACTED]');
    await expect(kernel.invoke({ toolName: 'leaky', args: { text: 'x' }, origin: 'host-direct' })).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(leaky.calls).toHaveLength(1);
    budget.raise({ maxToolCalls: 10 });
    const timedOut = await kernel.invoke({ toolName: 'slow', args: { text: 'x' }, origin: 'host-direct' });
    expect(timedOut.errorKind).toEqual({ type: 'timeout', op: 'slow', duration_ms: 30 });
    const controller = new AbortController();
    const pending = kernel.invoke({ toolName: 'slow', args: { text: 'x' }, origin: 'host-direct', abortSignal: controller.signal, toolId: 'c1' });
    controller.abort(new Error('host stop'));
    expect((await pending).errorKind).toEqual({ type: 'cancelled', op: 'slow' });
    const nested = await kernel.invoke({ toolName: 'batch', args: { text: 'x' }, origin: 'host-direct' });
    expect(nested.exitCode).toBe(1);
    expect(nested.output).toMatch(/'batch' orchestration cannot run inside another/);
    expect(batch.calls).toHaveLength(1);
  });

  it('a nested call through context.runtime is judged like a model call', async () => {
    const write = writeTool();
    let nestedResult: unknown;
    const outer = recordingTool('outer', async (_a, ctx) => {
      const result = await ctx.runtime.invoke('write', { path: 'n.txt', content: 'x' });
      nestedResult = result;
      return { output: result.output, exitCode: result.exitCode };
    });
    const confirmation = new ConfirmationManager();
    const { kernel, events, workspace } = makeKernel([outer, write], { permissionPolicy: { ask: ['write'], allow: ['outer'] }, confirmation });
    const running = kernel.invoke({ toolName: 'outer', args: { text: 'x' }, origin: 'host-direct', toolId: 'p1' });
    await new Promise<void>((resolve) => {
      const tick = (): void => (confirmation.pending().length > 0 ? resolve() : void setTimeout(tick, 2));
      tick();
    });
    const [pending] = confirmation.pending();
    expect(pending).toMatchObject({ toolName: 'write' });
    const required = events.find((e) => e.type === 'confirmation_required');
    expect(required?.payload['parent_tool_id']).toBe('p1');
    expect(required?.metadata?.parent_tool_id).toBe('p1');
    expect(confirmation.confirm(pending!.toolId, false, 'no nested writes')).toBe(true);
    const result = await running;
    expect(result.exitCode).toBe(1);
    expect(nestedResult).toMatchObject({ errorKind: { type: 'permission_denied' } });
    expect(workspace.paths()).toEqual([]);
    const nestedStart = events.find((e) => e.type === 'tool_start' && e.payload['tool_name'] === 'write');
    expect(nestedStart?.payload).toMatchObject({ origin: 'nested', parent_tool_id: 'p1' });
    expect(nestedStart?.metadata).toEqual({ parent_tool_id: 'p1' });
  });

  it('InvocationRuntime without a gateway fails closed', async () => {
    const runtime = new InvocationRuntime(null);
    expect(runtime.governed).toBe(false);
    const error = await runtime.invoke('write', {}).catch((e: unknown) => e);
    expect(CodeError.hasCode(error, 'SECURITY_ERROR')).toBe(true);
  });

  it('tool-owned escalation raises allow to ask but never relaxes a deny', async () => {
    const tool = recordingTool('echo', undefined, { escalate: (args) => (args['text'] === 'risky' ? 'looks risky' : undefined) });
    const { kernel } = makeKernel([tool], { permissionPolicy: { allow: ['echo'] }, confirmation: null });
    expect((await kernel.invoke({ toolName: 'echo', args: { text: 'fine' }, origin: 'agent' })).exitCode).toBe(0);
    const escalated = await kernel.invoke({ toolName: 'echo', args: { text: 'risky' }, origin: 'agent' });
    expect(escalated.errorKind?.type).toBe('permission_denied');
    expect(escalated.output).toContain('looks risky');
    const denyKit = makeKernel([recordingTool('echo', undefined, { escalate: () => 'x' })], { permissionPolicy: { deny: ['echo'] }, confirmation: new ConfirmationManager() });
    const denied = await denyKit.kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(denied.errorKind?.type).toBe('permission_denied');
    expect(denyKit.types()).not.toContain('confirmation_required');
  });

  it('active-skill restriction denies tools outside the skill', async () => {
    let allowed: string[] | null = ['read'];
    const tool = recordingTool('echo');
    const { kernel } = makeKernel([tool], { activeSkillTools: () => allowed });
    expect((await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' })).errorKind?.type).toBe('permission_denied');
    allowed = null;
    expect((await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' })).exitCode).toBe(0);
  });
});
