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
 * SIGKILLs every process whose environment carries one of `markers` (each `NAME=value`, the value
 * unique to one call or server) and returns, per marker in the same order, the processes it
 * killed. One pass over `/proc` serves every marker (Linux; elsewhere nothing is found).
 * Descendants inherit a marker even when they leave their process group (`setsid`, a double
 * fork), so this finds what a group kill misses. Synchronous, so it also runs inside an `exit`
 * handler.
 *
 * The one implementation of the sweep: the local backend's tool processes, stdio MCP servers and
 * the local spawn helper (which embeds this function's source, so it must stay self-contained:
 * no reference to anything outside its body).
 */
export function sweepMarkedProcesses(table: ProcessTable, markers: readonly string[]): MarkedProcess[][] {
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
    if (pid === table.selfPid) continue;
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
