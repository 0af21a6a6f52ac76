import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LocalWorkspaceBackend } from '../src/index.js';
import { buildChildEnv, OutputCapture, runProcess } from '../src/internal.js';
import type { RunProcessOptions } from '../src/internal.js';
import { groupMembers, waitGroupGone } from './helpers/process-groups.js';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'a3s-runner-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(command: string, options: Partial<RunProcessOptions> = {}) {
  let pgid = 0;
  const result = await runProcess({
    file: 'bash',
    args: ['-c', command],
    cwd: root,
    env: buildChildEnv(),
    timeoutMs: 30_000,
    ...options,
    onSpawn: (id) => {
      pgid = id;
    },
  });
  return { result, pgid };
}

describe('runProcess', () => {
  it('cuts `yes` at the deadline, keeps head and tail with exact accounting, memory stays flat', async () => {
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const { result, pgid } = await run('yes', { timeoutMs: 1500, maxOutputBytes: 64 * 1024 });
    const growth = process.memoryUsage().rss - before;
    expect(result.timedOut).toBe(true);
    expect(result.stdoutBytes).toBeGreaterThan(1024 * 1024);
    const marker = /\n\[\.\.\. (\d+) bytes omitted \.\.\.\]\n/.exec(result.stdout);
    expect(marker).not.toBeNull();
    expect(Number(marker?.[1])).toBe(result.droppedBytes);
    const kept = Buffer.byteLength(result.stdout) - Buffer.byteLength(marker?.[0] ?? '');
    expect(kept + result.droppedBytes).toBe(result.stdoutBytes);
    expect(kept).toBe(64 * 1024);
    expect(result.stdout.startsWith('y\ny\ny\n')).toBe(true);
    expect(result.stdout.endsWith('y\n')).toBe(true);
    // Gigabytes went through the pipe; the capture must not have kept them.
    expect(growth).toBeLessThan(150 * 1024 * 1024);
    expect(await waitGroupGone(pgid)).toEqual([]);
  }, 60_000);

  it('ends `sleep 100` at the timeout and leaves no process', async () => {
    const { result, pgid } = await run('sleep 100', { timeoutMs: 500 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM', cancelled: false });
    expect(await waitGroupGone(pgid)).toEqual([]);
  });

  it('kills a command that traps SIGTERM with the SIGKILL follow-up', async () => {
    const { result, pgid } = await run('trap "" TERM; sleep 100; echo survived', { timeoutMs: 500, killGraceMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).not.toContain('survived');
    expect(await waitGroupGone(pgid)).toEqual([]);
  });

  it('returns promptly when a background grandchild holds stdout', async () => {
    const { result, pgid } = await run('sleep 100 & echo started', { timeoutMs: 30_000, drainGraceMs: 200 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('started\n');
    expect(await waitGroupGone(pgid)).toEqual([]);
  });

  it('kills the whole group when the signal aborts', async () => {
    const controller = new AbortController();
    let pgid = 0;
    const running = runProcess({
      file: 'bash',
      args: ['-c', 'sleep 100 & sleep 100 & wait'],
      cwd: root,
      env: buildChildEnv(),
      timeoutMs: 60_000,
      abortSignal: controller.signal,
      onSpawn: (id) => {
        pgid = id;
      },
    });
    // Abort once the background sleeps exist, so the kill has a real group to take down.
    const until = Date.now() + 10_000;
    while (groupMembers(pgid).length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(3);
    controller.abort();
    const result = await running;
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(await waitGroupGone(pgid)).toEqual([]);
  });

  it('kills background jobs left by a command that exited normally', async () => {
    const { result, pgid } = await run('sleep 100 >/dev/null 2>&1 & echo done', { timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(await waitGroupGone(pgid)).toEqual([]);
  });

  it('keeps stdout and stderr apart under a shared budget', async () => {
    // The sleeps order the arrival of the chunks, so which bytes land in head and tail is known.
    const { result } = await run('echo "err first" >&2; sleep 0.3; for i in $(seq 1 200); do echo "out $i"; done; sleep 0.3; echo "err last" >&2', { maxOutputBytes: 400 });
    expect(result.stdout.startsWith('out 1\n')).toBe(true);
    expect(result.stdout.endsWith('out 200\n')).toBe(true);
    expect(result.stderr).toBe('err first\nerr last\n');
    expect(result.stdout).not.toContain('err');
    const omitted = (text: string): number => Number(/\[\.\.\. (\d+) bytes omitted/.exec(text)?.[1] ?? 0);
    expect(omitted(result.stdout) + omitted(result.stderr)).toBe(result.droppedBytes);
    const keptBytes = (text: string): number => Buffer.byteLength(text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, ''));
    expect(keptBytes(result.stdout) + keptBytes(result.stderr) + result.droppedBytes).toBe(result.stdoutBytes + result.stderrBytes);
  });

  it('never splits a UTF-8 character at the cut points', async () => {
    const { result } = await run('for i in $(seq 1 2000); do printf "é€😀"; done', { maxOutputBytes: 1001 });
    expect(result.stdout).not.toContain('\uFFFD');
    const kept = Buffer.byteLength(result.stdout.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, ''));
    expect(kept + result.droppedBytes).toBe(result.stdoutBytes);
    expect(result.stdoutBytes).toBe(2000 * 9);
  });

  it('reports spawn failures as HostFailure', async () => {
    await expect(runProcess({ file: 'bash', args: ['-c', 'true'], cwd: join(root, 'missing'), env: buildChildEnv(), timeoutMs: 5000 })).rejects.toMatchObject({ code: 'IO_ERROR', reason: 'NotFound' });
  });
});

describe('OutputCapture', () => {
  it('keeps everything under budget and accounts for interleaved streams', () => {
    const capture = new OutputCapture(10);
    capture.push('stdout', Buffer.from('abc'));
    capture.push('stderr', Buffer.from('12'));
    capture.push('stdout', Buffer.from('def'));
    expect(capture.finish()).toEqual({ stdout: 'abcdef', stderr: '12', stdoutBytes: 6, stderrBytes: 2, droppedBytes: 0 });
  });

  it('drops the middle of the combined output', () => {
    const capture = new OutputCapture(8);
    capture.push('stdout', Buffer.from('HEAD'));
    capture.push('stderr', Buffer.from('middle-error'));
    capture.push('stdout', Buffer.from('xxTAIL'));
    const out = capture.finish();
    expect(out.stdout).toBe('HEAD\n[... 2 bytes omitted ...]\nTAIL');
    expect(out.stderr).toBe('\n[... 12 bytes omitted ...]\n');
    expect(out.droppedBytes).toBe(14);
  });
});

describe('LocalWorkspaceBackend processes', () => {
  it('hides secret-bearing variables from the child unless passed on purpose', async () => {
    const names = ['A3S_TEST_API_KEY', 'A3S_TEST_SECRET', 'A3S_TEST_TOKEN', 'A3S_TEST_PASSWORD', 'a3s_test_lower_token'];
    for (const name of names) process.env[name] = 'leak';
    process.env['A3S_TEST_PLAIN'] = 'visible';
    try {
      const backend = new LocalWorkspaceBackend(root);
      const result = await backend.exec({ command: 'env', timeoutMs: 20_000, env: { A3S_PASSED_TOKEN: 'on-purpose' } });
      for (const name of names) expect(result.stdout).not.toContain(`${name}=`);
      expect(result.stdout).not.toContain('=leak');
      expect(result.stdout).toContain('A3S_TEST_PLAIN=visible');
      expect(result.stdout).toContain('A3S_PASSED_TOKEN=on-purpose');
      expect(result.stdout).toContain('GIT_TERMINAL_PROMPT=0');
    } finally {
      for (const name of [...names, 'A3S_TEST_PLAIN']) delete process.env[name];
    }
  });

  it('close() kills running groups and the pending call settles', async () => {
    const backend = new LocalWorkspaceBackend(root);
    const running = backend.exec({ command: 'echo $$; sleep 100', timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await backend.close();
    const result = await running;
    expect(result.signal).toBe('SIGKILL');
    const pgid = Number(result.stdout.trim());
    expect(pgid).toBeGreaterThan(0);
    expect(await waitGroupGone(pgid)).toEqual([]);
    await backend.close();
  });

  it('rejects an aborted exec with an AbortError carrying the partial result', async () => {
    const backend = new LocalWorkspaceBackend(root);
    const controller = new AbortController();
    const running = backend.exec({ command: 'echo $$; sleep 100', timeoutMs: 60_000, abortSignal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    const error = (await running.catch((caught: unknown) => caught)) as { name: string; result: { cancelled: boolean; stdout: string } };
    expect(error.name).toBe('AbortError');
    expect(error.result.cancelled).toBe(true);
    expect(await waitGroupGone(Number(error.result.stdout.trim()))).toEqual([]);
  });
});
