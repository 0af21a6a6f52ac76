import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { sweepFirstPid, sweepMarkedProcesses, tasksCreatedSinceBoot } from '@a3s-lab/code-core/util';
import type { MarkedProcess, ProcessTable, SweepWindow } from '@a3s-lab/code-core/util';

import { sweepThroughHelper } from './search/spawn-helper.js';

/**
 * Environment variable every process started by `runProcess` carries, with a value unique to
 * the call. Descendants inherit it even when they leave the process group (`setsid`,
 * `setsid -f`, a double fork), so the sweep at the end of the call finds them.
 */
export const PROCESS_MARKER_ENV = 'A3S_PROCESS_MARKER';

/** A process found and killed by the sweep of a call that had left the call's group. */
export interface SweptProcess {
  readonly pid: number;
  /** Its command name (`/proc/<pid>/comm`). */
  readonly command: string;
}

/** This process's view of the process table (Node's `fs` and `process`). */
export const HOST_PROCESS_TABLE: ProcessTable = {
  selfPid: process.pid,
  readdirSync: (path) => readdirSync(path),
  readFileSync: (path, encoding) => readFileSync(path, encoding),
  kill: (pid, signal) => process.kill(pid, signal),
};

/**
 * The system's count of created tasks now, read just before a call's leader is spawned: with the
 * leader's pid it is the call's `SweepWindow` (see `sweepMarkedProcesses`). Null off Linux.
 */
export function tasksCreatedNow(): number | null {
  return tasksCreatedSinceBoot(HOST_PROCESS_TABLE);
}

/** A fresh marker value for one call. */
export function newProcessMarker(): string {
  return randomBytes(12).toString('hex');
}

/** The `NAME=value` environment entry of a call's `marker`. */
export function processMarkerEntry(marker: string): string {
  return `${PROCESS_MARKER_ENV}=${marker}`;
}

/** The killed processes that had left group `pgid`: the escapees a group kill misses. */
export function escapedFrom(found: readonly MarkedProcess[], pgid: number): SweptProcess[] {
  return found.filter((entry) => entry.pgid !== pgid).map(({ pid, command }) => ({ pid, command }));
}

/**
 * SIGKILLs every process (from pid `firstPid` on) whose environment carries `marker` and returns
 * those that had left process group `pgid`. Synchronous (the host's exit handler); the end of a call sweeps through
 * the spawn helper instead (`sweepThroughHelper`), off the host's event loop.
 */
export function sweepMarkedProcessesNow(marker: string, pgid: number, firstPid = 0): SweptProcess[] {
  return escapedFrom(sweepMarkedProcesses(HOST_PROCESS_TABLE, [processMarkerEntry(marker)], firstPid)[0] ?? [], pgid);
}

/**
 * The sweep at the end of a call (see {@link sweepMarkedProcessesNow}; `window`: where the call's
 * processes can be, see `sweepFirstPid`): through the spawn helper
 * when it runs, so the `/proc` scan (which grows with the number of processes on the machine)
 * does not block this process's event loop and calls ending together share one scan; in this
 * process otherwise, or when the helper exits meanwhile. Never rejects.
 */
export async function sweepAfterCall(marker: string, pgid: number, window?: SweepWindow): Promise<SweptProcess[]> {
  const entry = processMarkerEntry(marker);
  const firstPid = window === undefined ? 0 : sweepFirstPid(HOST_PROCESS_TABLE, window);
  const remote = sweepThroughHelper([entry], firstPid);
  if (remote !== null) {
    try {
      return escapedFrom((await remote)[0] ?? [], pgid);
    } catch {
      // The helper went away: sweep here.
    }
  }
  return sweepMarkedProcessesNow(marker, pgid, firstPid);
}
