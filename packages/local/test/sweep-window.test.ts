// The sweep's window on this machine's real /proc: a call's sweep reads the environments of the
// processes from its leader's pid on, and still finds every process of the call.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { sweepFirstPid, sweepMarkedProcesses, tasksCreatedSinceBoot } from '@a3s-lab/code-core/util';
import type { ProcessTable } from '@a3s-lab/code-core/util';
import { afterEach, describe, expect, it } from 'vitest';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A `sleep` carrying `entry` (NAME=value) in its environment, once it runs. */
async function sleeper(entry: string): Promise<ChildProcess> {
  const [name, value] = entry.split('=') as [string, string];
  const child = spawn('sleep', ['30'], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [name]: value }, stdio: 'ignore' });
  started.push(child);
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  return child;
}

/** Resolves when `child` has exited. */
function exited(child: ChildProcess): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
}

/** This process's view of /proc, recording whose environment was read. */
function recordingTable(): ProcessTable & { readonly environs: number[] } {
  const environs: number[] = [];
  return {
    selfPid: process.pid,
    environs,
    readdirSync: (path) => readdirSync(path),
    readFileSync: (path, encoding) => {
      if (path.endsWith('/environ')) environs.push(Number(path.split('/')[2]));
      return readFileSync(path, encoding);
    },
    kill: (pid, signal) => process.kill(pid, signal as NodeJS.Signals),
  };
}

describe.runIf(process.platform === 'linux')('the sweep window on /proc', () => {
  it('reads no environment below the leader, finds the call; a process from before the call is left to a full sweep', async () => {
    const entry = `A3S_SWEEP_WINDOW_TEST=${randomBytes(8).toString('hex')}`;
    const before = await sleeper(entry);
    const tasksCreatedBefore = tasksCreatedSinceBoot(recordingTable());
    expect(tasksCreatedBefore).not.toBeNull();
    const leader = await sleeper(entry);
    const escapee = await sleeper(entry);
    const pids = (children: readonly ChildProcess[]): number[] => children.map((child) => child.pid as number).sort((a, b) => a - b);

    const windowed = recordingTable();
    const firstPid = sweepFirstPid(windowed, { leaderPid: leader.pid as number, tasksCreatedBefore: tasksCreatedBefore as number });
    expect(firstPid).toBe(leader.pid);
    const found = sweepMarkedProcesses(windowed, [entry], firstPid);
    expect(found[0]?.map((process) => process.pid).sort((a, b) => a - b)).toEqual(pids([leader, escapee]));
    // Only pids from the leader on (this test's own processes, a few others started meanwhile).
    expect(windowed.environs.every((pid) => pid >= (leader.pid as number))).toBe(true);
    expect(windowed.environs).not.toContain(before.pid);

    // SIGKILL is delivered asynchronously: the killed ones are gone once they have exited.
    await Promise.all([exited(leader), exited(escapee)]);
    const full = recordingTable();
    expect(sweepMarkedProcesses(full, [entry])[0]?.map((process) => process.pid)).toEqual([before.pid]);
    expect(full.environs).toContain(before.pid);
  });
});
