import { describe, expect, it } from 'vitest';
import { makeKernel, recordingTool, writeTool } from '../../test/kernel-kit.js';
import { HookRegistry } from '../hooks/hook-registry.js';

describe('kernel hooks', () => {
  it('skip: the tool does not run and the result says so', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('skipper', 'pre_tool_use', null, null, () => ({ action: 'skip', reason: 'cached' }));
    const { kernel } = makeKernel([tool], { hooks });
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(result.exitCode).toBe(0);
    expect(result.metadata).toMatchObject({ skipped: true, skipped_by: 'skipper' });
    expect(tool.calls).toEqual([]);
  });

  it('retry: hook_denied retryable with retry_after_ms', async () => {
    const hooks = new HookRegistry();
    hooks.register('later', 'pre_tool_use', null, null, () => ({ action: 'retry', reason: 'busy', retryAfterMs: 250 }));
    const { kernel } = makeKernel([recordingTool('echo')], { hooks });
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(result.errorKind).toEqual({ type: 'hook_denied', reason: 'busy', retryable: true, retry_after_ms: 250 });
  });

  it('modified args are validated again and cannot be laundered', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('mod', 'pre_tool_use', null, null, (e) => {
      const args = e.payload['args'] as { text: string };
      return { action: 'continue', modified: { args: args.text === 'bad' ? { text: 42 } : { text: `${args.text}!` } } };
    });
    const { kernel } = makeKernel([tool], { hooks });
    const good = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(good.output).toBe('ran a!');
    const bad = await kernel.invoke({ toolName: 'echo', args: { text: 'bad' }, origin: 'agent' });
    expect(bad.errorKind?.type).toBe('invalid_argument');
    expect(bad.output).toContain('modified by a pre_tool_use hook');
    expect(tool.calls).toEqual([{ text: 'a!' }]);
  });

  it('a modified result without args fails closed', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('mod', 'pre_tool_use', null, null, () => ({ action: 'continue', modified: { text: 'x' } }));
    const { kernel } = makeKernel([tool], { hooks });
    expect((await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' })).errorKind?.type).toBe('hook_denied');
    expect(tool.calls).toEqual([]);
  });

  it('a pre-hook that throws or times out fails closed', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('crash', 'pre_tool_use', null, null, () => {
      throw new Error('hook crashed');
    });
    const { kernel } = makeKernel([tool], { hooks });
    const crashed = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'host-direct' });
    expect(crashed.errorKind).toMatchObject({ type: 'hook_denied', retryable: false });
    expect(crashed.output).toContain('hook crashed');
    hooks.unregister('crash');
    hooks.register('hang', 'pre_tool_use', null, { timeoutMs: 20 }, () => new Promise(() => {}));
    const hung = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(hung.errorKind?.type).toBe('hook_denied');
    expect(tool.calls).toEqual([]);
  });

  it('path matchers see resolved paths; payloads are redacted', async () => {
    const write = writeTool();
    const hooks = new HookRegistry();
    const seen: unknown[] = [];
    hooks.register('src-only', 'pre_tool_use', { pathPattern: 'src/**' }, null, (e) => {
      seen.push(e.payload);
      return { action: 'block', reason: 'src is frozen' };
    });
    const { kernel, workspace } = makeKernel([write], { hooks });
    const result = await kernel.invoke({ toolName: 'write', args: { path: 'lib/../src/a.ts', content: 'token=sk-ant-api03-0123456789abcdef0123' }, origin: 'agent' });
    expect(result.errorKind?.type).toBe('hook_denied');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ tool_name: 'write', paths: ['src/a.ts'], args: { content: 'token=[REDACTED]' } });
    expect((await kernel.invoke({ toolName: 'write', args: { path: 'docs/a.md', content: 'x' }, origin: 'agent' })).exitCode).toBe(0);
    expect(workspace.paths()).toEqual(['docs/a.md']);
  });

  it('a path-scoped pre-hook is matched against args an earlier hook rewrote', async () => {
    const write = writeTool();
    const hooks = new HookRegistry();
    hooks.register('redirect', 'pre_tool_use', null, { priority: 1 }, (e) => ({ action: 'continue', modified: { args: { ...(e.payload['args'] as object), path: 'src/a.ts' } } }));
    hooks.register('src-frozen', 'pre_tool_use', { pathPattern: 'src/**' }, null, () => ({ action: 'block', reason: 'src is frozen' }));
    const { kernel, workspace } = makeKernel([write], { hooks });
    const result = await kernel.invoke({ toolName: 'write', args: { path: 'docs/a.md', content: 'x' }, origin: 'agent' });
    expect(result.errorKind).toMatchObject({ type: 'hook_denied', reason: 'src is frozen' });
    expect(write.calls).toEqual([]);
    expect(workspace.paths()).toEqual([]);
  });

  it('post-hooks may replace output, which is still redacted; a failing post-hook withholds output', async () => {
    const tool = recordingTool('echo');
    const hooks = new HookRegistry();
    hooks.register('rewrite', 'post_tool_use', null, null, (e) => ({ action: 'continue', modified: { output: `${String(e.payload['output'])} sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV` } }));
    const { kernel } = makeKernel([tool], { hooks });
    const result = await kernel.invoke({ toolName: 'echo', args: { text: 'a' }, origin: 'agent' });
    expect(result.output).toBe('ran a [REDACTED]');
    hooks.register('crash', 'post_tool_use', null, null, () => {
      throw new Error('post crash');
    });
    const withheld = await kernel.invoke({ toolName: 'echo', args: { text: 'secret-output' }, origin: 'agent' });
    expect(withheld.output).not.toContain('secret-output');
    expect(withheld.errorKind?.type).toBe('hook_denied');
  });
});
