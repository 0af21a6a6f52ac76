import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Environment variable every process started by `runProcess` carries, with a value unique to
 * the call. Descendants inherit it even when they leave the process group (`setsid`,
 * `setsid -f`, a double fork), so the sweep at the end of the call finds them.
 */
export const PROCESS_MARKER_ENV = 'A3S_PROCESS_MARKER';

/** A process found and killed by {@link sweepMarkedProcesses}. */
export interface SweptProcess {
  readonly pid: number;
  /** Its command name (`/proc/<pid>/comm`). */
  readonly command: string;
}

/** A fresh marker value for one call. */
export function newProcessMarker(): string {
  return randomBytes(12).toString('hex');
}

/**
 * SIGKILLs every process whose environment carries `marker` (Linux: `/proc/<pid>/environ`;
 * elsewhere nothing is found) and returns those that had left process group `pgid`: the
 * escapees a group kill misses. Synchronous, so it also runs inside an `exit` handler.
 */
export function sweepMarkedProcesses(marker: string, pgid: number): SweptProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`${PROCESS_MARKER_ENV}=${marker}\0`);
  const escaped: SweptProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    const group = processGroupOf(entry);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      continue;
    }
    if (group !== pgid) escaped.push({ pid, command: commandOf(entry) });
  }
  return escaped;
}

function processGroupOf(entry: string): number | null {
  try {
    const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]);
  } catch {
    return null;
  }
}

function commandOf(entry: string): string {
  try {
    return readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}
