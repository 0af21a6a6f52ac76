/**
 * What {@link sweepMarkedProcesses} reads and signals. Node's `fs` (`readdirSync`,
 * `readFileSync`) and `process` (`kill`) satisfy it; core imports no `node:` module, so the
 * packages that start processes pass theirs in.
 */
export interface ProcessTable {
  /** The pid of the sweeping process (never killed). */
  readonly selfPid: number;
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: 'latin1'): string;
  kill(pid: number, signal: string): unknown;
}

/** A process found and SIGKILLed by {@link sweepMarkedProcesses}. */
export interface MarkedProcess {
  readonly pid: number;
  /** Its command name (`/proc/<pid>/comm`; `?` when unreadable). */
  readonly command: string;
  /** Its process group when it was found (`null` when unreadable). */
  readonly pgid: number | null;
}

/**
 * Where the processes of one call can be in the process table: the pid of its first process (the
 * leader: every other one descends from it) and the system's count of created tasks
 * ({@link tasksCreatedSinceBoot}) read just before the leader was started.
 */
export interface SweepWindow {
  readonly leaderPid: number;
  readonly tasksCreatedBefore: number;
}

/**
 * The system's count of tasks (processes and threads) created since boot: `processes` in
 * `/proc/stat`. Null when it cannot be read (not Linux).
 */
export function tasksCreatedSinceBoot(table: Pick<ProcessTable, 'readFileSync'>): number | null {
  try {
    const stat = table.readFileSync('/proc/stat', 'latin1');
    const at = stat.indexOf('\nprocesses ');
    if (at === -1) return null;
    const count = Number(stat.slice(at + 11, stat.indexOf('\n', at + 11)));
    return Number.isSafeInteger(count) ? count : null;
  } catch {
    return null;
  }
}

/**
 * The lowest pid the sweep of a call must read (see {@link sweepMarkedProcesses}): the call's
 * leader's, when the table shows that every pid allocated since the leader's is at least it. That
 * holds when the pid counter has not wrapped past the leader (the last pid allocated, in
 * `/proc/loadavg`, is not below it) and too few tasks were created since for it to have gone round
 * all the way (fewer than half the pids that were free), in `/proc` as this process sees it. Else
 * 0: every process. Read when the call has ended, just before its sweep. (A root process that sets
 * the next pid itself, `ns_last_pid` or `clone3`'s `set_tid`, can hide from it; unsandboxed root
 * commands are not contained anyway, and in the OS sandbox the pid namespace, not the sweep, ends
 * them.)
 */
export function sweepFirstPid(table: Pick<ProcessTable, 'selfPid' | 'readFileSync'>, window: SweepWindow): number {
  try {
    const self = table.readFileSync('/proc/self/stat', 'latin1');
    const created = tasksCreatedSinceBoot(table);
    // "load1 load5 load15 running/total last-pid": `total` tasks exist, `last-pid` was allocated last.
    const load = table.readFileSync('/proc/loadavg', 'latin1').trim().split(' ');
    const pidMax = Number(table.readFileSync('/proc/sys/kernel/pid_max', 'latin1').trim());
    const since = created === null ? Number.NaN : created - window.tasksCreatedBefore;
    const tasks = Number((load[3] ?? '').split('/')[1]);
    const lastPid = Number(load[4]);
    const ownView = Number(self.slice(0, self.indexOf(' '))) === table.selfPid;
    return ownView && lastPid >= window.leaderPid && since >= 0 && since < (pidMax - tasks) / 2 ? window.leaderPid : 0;
  } catch {
    // Something unreadable: every process.
    return 0;
  }
}

/**
 * SIGKILLs every process whose environment carries one of `markers` (each `NAME=value`, the value
 * unique to one call or server) and returns, per marker in the same order, the processes it
 * killed. One pass over `/proc` serves every marker (Linux; elsewhere nothing is found).
 * Descendants inherit a marker even when they leave their process group (`setsid`, a double
 * fork), so this finds what a group kill misses. Synchronous, so it also runs inside an `exit`
 * handler.
 *
 * Only processes whose pid is at least `firstPid` have their environment read (default 0: every
 * process; a call's is {@link sweepFirstPid}, the lowest of the calls swept together): on a
 * machine with hundreds of processes that is the difference between reading a few environments
 * and reading hundreds, at the end of every call.
 *
 * The one implementation of the sweep: the local backend's tool processes, stdio MCP servers and
 * the local spawn helper (which embeds this function's source, so it must stay self-contained:
 * no reference to anything outside its body).
 */
export function sweepMarkedProcesses(table: ProcessTable, markers: readonly string[], firstPid = 0): MarkedProcess[][] {
  const found: MarkedProcess[][] = markers.map(() => []);
  if (markers.length === 0) return found;
  let entries: string[];
  try {
    entries = table.readdirSync('/proc');
  } catch {
    return found;
  }
  const needles = markers.map((marker) => `${marker}\0`);
  const read = (path: string): string | null => {
    try {
      return table.readFileSync(path, 'latin1');
    } catch {
      return null;
    }
  };
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57 || !/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === table.selfPid || pid < firstPid) continue;
    const environ = read(`/proc/${entry}/environ`);
    if (environ === null || environ.length === 0) continue;
    for (let index = 0; index < needles.length; index += 1) {
      const needle = needles[index] as string;
      if (!environ.includes(needle)) continue;
      // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp ...
      const stat = read(`/proc/${entry}/stat`);
      const pgid = stat === null ? null : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      try {
        table.kill(pid, 'SIGKILL');
      } catch {
        break;
      }
      (found[index] as MarkedProcess[]).push({ pid, command: read(`/proc/${entry}/comm`)?.trim() ?? '?', pgid: pgid === null || Number.isNaN(pgid) ? null : pgid });
      break;
    }
  }
  return found;
}
