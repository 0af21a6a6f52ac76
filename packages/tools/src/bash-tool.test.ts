import type { ExecOptions, ExecResult, WorkspaceBackend } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { describe, expect, it } from 'vitest';
import { run } from '../test/tool-context.js';
import { BASH_KERNEL_MARGIN_MS, createBashTool } from './bash-tool.js';

const bash = createBashTool();

function withExec(result: Partial<ExecResult>, calls: ExecOptions[] = []): WorkspaceBackend {
  const inner = new MemoryWorkspaceBackend();
  return {
    kind: 'fake',
    root: inner.root,
    capabilities: { ...inner.capabilities, exec: true },
    resolvePath: (options) => inner.resolvePath(options),
    readFile: (options) => inner.readFile(options),
    stat: (options) => inner.stat(options),
    exec: async (options) => {
      calls.push(options);
      return { stdout: '', stderr: '', exitCode: 0, signal: null, timedOut: false, cancelled: false, durationMs: 5, stdoutBytes: 0, stderrBytes: 0, droppedBytes: 0, ...result };
    },
  };
}

describe('bash', () => {
  it('passes command and timeout to the backend and shows labelled streams with the exit code', async () => {
    const calls: ExecOptions[] = [];
    const ws = withExec({ stdout: 'out\n', stderr: 'warn', exitCode: 3, stdoutBytes: 4, stderrBytes: 4 }, calls);
    const result = await run(bash, ws, { command: 'make test', timeout: 1000 });
    expect(calls[0]).toMatchObject({ command: 'make test', timeoutMs: 1000 });
    expect(result.output).toBe('stdout:\nout\nstderr:\nwarn\nexit code: 3');
    expect(result.exitCode).toBe(3);
    expect(result.errorKind).toBeUndefined();
    expect(result.metadata).toMatchObject({ exit_code: 3, stdout_bytes: 4, stderr_bytes: 4, dropped_bytes: 0, duration_ms: 5, timed_out: false });
  });

  it('reports exact dropped-byte accounting', async () => {
    const ws = withExec({ stdout: 'head...tail', stdoutBytes: 100000, stderrBytes: 10, droppedBytes: 34000 });
    const result = await run(bash, ws, { command: 'yes | head -c 100000' });
    expect(result.output).toContain('[output truncated: 34000 bytes dropped from the middle; the process wrote 100000 bytes to stdout and 10 bytes to stderr]');
    expect(result.metadata).toMatchObject({ dropped_bytes: 34000 });
  });

  it('maps timeout and cancellation to error kinds', async () => {
    const timedOut = await run(bash, withExec({ exitCode: null, signal: 'SIGKILL', timedOut: true }), { command: 'sleep 100', timeout: 50 });
    expect(timedOut.errorKind).toEqual({ type: 'timeout', op: 'bash', duration_ms: 50 });
    expect(timedOut.exitCode).toBe(124);
    expect(timedOut.metadata).toMatchObject({ timed_out: true });
    const cancelled = await run(bash, withExec({ exitCode: null, signal: 'SIGTERM', cancelled: true }), { command: 'sleep 100' });
    expect(cancelled.errorKind).toEqual({ type: 'cancelled', op: 'bash' });
    expect(cancelled.exitCode).toBe(130);
  });

  it('asks the kernel for the command deadline plus a margin and matches permission on the command', () => {
    expect(bash.timeoutMs?.({ command: 'x' })).toBe(120000 + BASH_KERNEL_MARGIN_MS);
    expect(bash.timeoutMs?.({ command: 'x', timeout: 1000 })).toBe(1000 + BASH_KERNEL_MARGIN_MS);
    expect(bash.permissionTarget?.({ command: 'git status' })).toEqual({ kind: 'command', command: 'git status' });
    expect(bash.capabilities?.({ command: 'ls' })).toMatchObject({ readOnly: false, maxParallelism: 1 });
  });
});
