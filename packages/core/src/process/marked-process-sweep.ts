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
 * SIGKILLs every process whose environment carries one of `markers` (each `NAME=value`, the value
 * unique to one call or server) and returns, per marker in the same order, the processes it
 * killed. One pass over `/proc` serves every marker (Linux; elsewhere nothing is found).
 * Descendants inherit a marker even when they leave their process group (`setsid`, a double
 * fork), so this finds what a group kill misses. Synchronous, so it also runs inside an `exit`
 * handler.
 *
 * With a `window` (the earliest of the calls swept), only processes whose pid is at least its
 * leader's have their environment read, when the table shows that every pid allocated since the
 * leader's is such a pid: the pid counter has not wrapped past the leader (the last pid allocated
 * is not below it) and too few tasks were created since for it to have gone round all the way
 * (fewer than half the pids that were free). Else, and when `/proc` is not this process's own
 * view, every process is read, as without a window. On a machine with hundreds of processes that
 * is the difference between reading a few environments and reading hundreds, at the end of every
 * call. (A root process that sets the next pid itself, `ns_last_pid` or `clone3`'s `set_tid`, can
 * hide from the window; unsandboxed root commands are not contained anyway, and in the OS sandbox
 * the pid namespace, not the sweep, ends them.)
 *
 * The one implementation of the sweep: the local backend's tool processes, stdio MCP servers and
 * the local spawn helper (which embeds this function's source, so it must stay self-contained:
 * no reference to anything outside its body).
 */
export function sweepMarkedProcesses(table: ProcessTable, markers: readonly string[], window?: SweepWindow): MarkedProcess[][] {
  const found: MarkedProcess[][] = markers.map(() => []);
  if (markers.length === 0) return found;
  let entries: string[];
  try {
    entries = table.readdirSync('/proc');
  } catch {
    return found;
  }
  let firstPid = 0;
  if (window !== undefined) {
    try {
      const self = table.readFileSync('/proc/self/stat', 'latin1');
      const stat = table.readFileSync('/proc/stat', 'latin1');
      // "load1 load5 load15 running/total last-pid": `total` tasks exist, `last-pid` was allocated last.
      const load = table.readFileSync('/proc/loadavg', 'latin1').trim().split(' ');
      const pidMax = Number(table.readFileSync('/proc/sys/kernel/pid_max', 'latin1').trim());
      // `processes` of /proc/stat as tasksCreatedSinceBoot reads it (repeated: this function is self-contained).
      const at = stat.indexOf('\nprocesses ');
      const created = at === -1 ? Number.NaN : Number(stat.slice(at + 11, stat.indexOf('\n', at + 11))) - window.tasksCreatedBefore;
      const tasks = Number((load[3] ?? '').split('/')[1]);
      const lastPid = Number(load[4]);
      const ownView = Number(self.slice(0, self.indexOf(' '))) === table.selfPid;
      if (ownView && lastPid >= window.leaderPid && created >= 0 && created < (pidMax - tasks) / 2) firstPid = window.leaderPid;
    } catch {
      // Something unreadable: read every process.
    }
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
