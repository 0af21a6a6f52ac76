// The process runner through the spawn helper: once the helper runs, `runProcess` forks nothing
// in this process (the child's parent is the helper), and everything a direct spawn guarantees
// holds: a process group of its own, the exact environment, cwd, exit codes and signals,
// timeouts, cancellation (also before the helper reported the child), spawn failures, and the
// marker sweep (run in the helper, several calls sharing one scan).
import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HostFailure } from '@a3s-lab/code-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runProcess } from '../src/internal.js';
import { sweepThroughHelper } from '../src/search/spawn-helper.js';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
// Through the helper whatever this worker's size (a host smaller than SPAWN_HELPER_MIN_RSS_MB forks itself).
process.env['A3S_SPAWN_HELPER_MIN_RSS_MB'] = '0';
let root = '';

/** The parent pid and process group of `pid` (from /proc), or null once it is gone. */
function statOf(pid: number): { ppid: number; pgrp: number; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state ?? '', ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    return null;
  }
}

/** True once `pid` is gone or a zombie (a SIGKILLed process dies when it is next scheduled: polled). */
async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const stat = statOf(pid);
    if (stat === null || stat.state === 'Z') return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'a3s-runner-helper-')));
  // The first spawn starts the helper (and runs directly); wait until calls go through it.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const result = await runProcess({ file: 'sh', args: ['-c', 'echo $PPID'], cwd: root, env, timeoutMs: 10_000 });
    if (Number(result.stdout.trim()) !== process.pid) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the spawn helper never came up');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('runProcess through the spawn helper', () => {
  it('runs the child from the helper, in a group of its own, with exactly the given environment and cwd', async () => {
    let spawnedPid = 0;
    const result = await runProcess({
      file: 'bash',
      args: ['-c', 'echo "$PPID $$ $(ps -o pgid= -p $$ | tr -d " ")"; env | sort; pwd; echo oops >&2; exit 3'],
      cwd: root,
      env: { ...env, ONLY_THIS: 'yes' },
      timeoutMs: 10_000,
      onSpawn: (pid) => {
        spawnedPid = pid;
      },
    });
    const [first, ...rest] = result.stdout.trim().split('\n');
    const [ppid, self, pgid] = (first ?? '').split(' ').map(Number);
    expect(ppid).not.toBe(process.pid);
    expect(statOf(ppid ?? 0)?.ppid).toBe(process.pid);
    expect(self).toBe(spawnedPid);
    expect(pgid).toBe(spawnedPid);
    const names = rest.filter((line) => line.includes('=')).map((line) => line.split('=')[0]);
    expect(names.filter((name) => name !== '_' && name !== 'PWD' && name !== 'SHLVL').sort()).toEqual(['A3S_PROCESS_MARKER', 'ONLY_THIS', 'PATH']);
    expect(rest.at(-1)).toBe(root);
    expect(result).toMatchObject({ exitCode: 3, signal: null, stderr: 'oops\n', timedOut: false, cancelled: false });
  });

  it('kills the group at the deadline and reports the signal', async () => {
    let pid = 0;
    const result = await runProcess({ file: 'sh', args: ['-c', 'sleep 30 & wait'], cwd: root, env, timeoutMs: 200, killGraceMs: 100, onSpawn: (p) => void (pid = p) });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    expect(await gone(pid)).toBe(true);
  });

  it('cancels a run aborted before the helper reported the child, and one aborted mid-run', async () => {
    const early = new AbortController();
    const pending = runProcess({ file: 'sleep', args: ['30'], cwd: root, env, timeoutMs: 10_000, killGraceMs: 100, abortSignal: early.signal });
    early.abort();
    expect(await pending).toMatchObject({ cancelled: true, exitCode: null });

    const late = new AbortController();
    let pid = 0;
    const running = runProcess({ file: 'sh', args: ['-c', 'echo up; sleep 30'], cwd: root, env, timeoutMs: 10_000, killGraceMs: 100, abortSignal: late.signal, onOutput: () => late.abort(), onSpawn: (p) => void (pid = p) });
    const result = await running;
    expect(result).toMatchObject({ cancelled: true, stdout: 'up\n' });
    expect(await gone(pid)).toBe(true);
  });

  it('rejects with a HostFailure when the command cannot start', async () => {
    const failure = await runProcess({ file: '/nonexistent/binary', args: [], cwd: root, env, timeoutMs: 10_000 }).catch((error: unknown) => error);
    expect(HostFailure.isHostFailure(failure)).toBe(true);
    expect((failure as HostFailure).reason).toBe('NotFound');
  });

  it('sweeps the escapees of many calls ending together, in the helper', async () => {
    const command = (index: number): string => `setsid sh -c 'touch flag${index}; exec sleep ${4000 + index}.${process.pid % 1000}' & while [ ! -e flag${index} ]; do sleep 0.01; done`;
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => runProcess({ file: 'bash', args: ['-c', command(index)], cwd: root, env, timeoutMs: 10_000 })));
    for (const result of results) {
      expect(result.exitCode).toBe(0);
      expect(result.killedEscapedProcesses?.map((entry) => entry.command)).toEqual(['sleep']);
      for (const escaped of result.killedEscapedProcesses ?? []) expect(await gone(escaped.pid)).toBe(true);
    }
    // The helper answers a sweep for a marker nobody carries with nothing.
    expect(await sweepThroughHelper(['A3S_PROCESS_MARKER=none-such'])).toEqual([[]]);
  });

  it('finds an escapee whose environment is larger than the sweep read buffer (the marker comes last)', async () => {
    // Two 100 KB variables before the marker: the escapee's environ puts the marker past the
    // helper's first 64 KiB read (and its first doubling). No shell in between (a shell would
    // reorder the environment): `setsid -f` execs `sleep` with it as given, and `sleep` keeps
    // the call's pipes open until the drain window ends the call.
    const big = { ...env, A3S_TEST_BIG_1: 'x'.repeat(100_000), A3S_TEST_BIG_2: 'y'.repeat(100_000) };
    const result = await runProcess({ file: 'setsid', args: ['-f', 'sleep', `4100.${process.pid % 1000}`], cwd: root, env: big, timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
    expect(result.killedEscapedProcesses?.map((entry) => entry.command)).toEqual(['sleep']);
    for (const escaped of result.killedEscapedProcesses ?? []) expect(await gone(escaped.pid)).toBe(true);
  });

  it('ends a call whose helper died under it at once (exit status unknown), kills its group, and runs the next call', async () => {
    let pid = 0;
    let killed = false;
    const result = await runProcess({
      file: 'sh',
      args: ['-c', 'echo $PPID; exec sleep 30'],
      cwd: root,
      env,
      timeoutMs: 20_000,
      killGraceMs: 100,
      onSpawn: (p) => void (pid = p),
      onOutput: (_stream, text) => {
        if (killed) return;
        killed = true;
        process.kill(Number(text.trim()), 'SIGKILL');
      },
    });
    expect(result).toMatchObject({ timedOut: false, cancelled: false, exitCode: null, signal: null });
    expect(result.stderr).toContain('the spawn helper exited during the call');
    expect(await gone(pid)).toBe(true);
    expect((await runProcess({ file: 'sh', args: ['-c', 'echo next'], cwd: root, env, timeoutMs: 10_000 })).stdout).toBe('next\n');
  });

  it('ends a call whose helper died after handing its stdout pipe over (output past the relay limit), before the deadline', async () => {
    // Until the helper runs again, calls spawn directly: wait for one that goes through it.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const probe = await runProcess({ file: 'sh', args: ['-c', 'echo $PPID'], cwd: root, env, timeoutMs: 10_000 });
      if (Number(probe.stdout.trim()) !== process.pid) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let pid = 0;
    let text = '';
    let killed = false;
    const result = await runProcess({
      file: 'sh',
      // 300 KB keeps the stdout pipe open past the relay limit, then the command holds it open.
      args: ['-c', "echo $PPID; head -c 300000 /dev/zero | tr '\\0' x; exec sleep 30"],
      cwd: root,
      env,
      timeoutMs: 20_000,
      onSpawn: (p) => void (pid = p),
      onOutput: (_stream, chunk) => {
        text += chunk;
        if (killed || text.length < 200_000) return;
        killed = true;
        process.kill(Number(text.split('\n')[0]), 'SIGKILL');
      },
    });
    expect(result).toMatchObject({ timedOut: false, cancelled: false, exitCode: null });
    expect(result.stderr).toContain('the spawn helper exited during the call');
    expect(await gone(pid)).toBe(true);
  });
});
