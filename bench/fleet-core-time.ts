// Core time of the processes a fleet benchmark window involves (bench/fleet.bench.ts), from
// /proc: utime + stime of each process (and of its waited-for children: cutime + cstime), in
// clock ticks, grouped in classes. PostgreSQL backends are classed by the process holding the
// client end of their connection (the backend's title names its client port; /proc/net/tcp names
// the socket's inode; the client process holds a file descriptor on it), so that a worker's
// database work counts as the workers', the observer's as the observer's. Linux only.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** What is sampled: the benchmark's own process, the worker processes, the PostgreSQL server. */
export interface CoreTimeTargets {
  /** The submitting and observing process (and the scripted model server in it). */
  readonly bench: number;
  readonly workers: readonly number[];
  /** The postmaster (its backends are its children). */
  readonly postmaster: number;
}

/** Core time by class, in milliseconds: all of it, and the part spent in the kernel (stime). */
export type CoreTime = Map<string, { readonly all: number; readonly sys: number }>;

interface ProcStat {
  readonly ppid: number;
  /** utime + stime. */
  readonly own: number;
  /** cutime + cstime (children waited for). */
  readonly children: number;
  /** stime + cstime. */
  readonly sys: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and parentheses): from the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    const at = (field: number): number => Number(fields[field - 3]);
    return { ppid: at(4), own: at(14) + at(15), children: at(16) + at(17), sys: at(15) + at(17) };
  } catch {
    return null;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

function pids(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
}

/** Socket inode of each local TCP port (IPv4 and IPv6 tables). */
function socketsByPort(): Map<number, string> {
  const byPort = new Map<number, string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      const inode = cols[9];
      if (local === undefined || inode === undefined) continue;
      byPort.set(Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16), inode);
    }
  }
  return byPort;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (link.startsWith('socket:[')) inodes.add(link.slice(8, -1));
      } catch {
        // Closed meanwhile.
      }
    }
  } catch {
    // Gone.
  }
  return inodes;
}

/**
 * Core time so far of every sampled process, by class: `bench`, `workers`, `postgres: bench's
 * backends`, `postgres: workers' backends`, `postgres: other` (the postmaster, its auxiliary
 * processes, backends whose client was not found, and every exited backend: the postmaster's
 * children time). Take one before and one after a window; {@link coreTimeDelta} subtracts them.
 */
export function sampleCoreTime(targets: CoreTimeTargets): CoreTime {
  const out: CoreTime = new Map();
  const add = (key: string, proc: ProcStat | null): void => {
    const known = out.get(key) ?? { all: 0, sys: 0 };
    const ms = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;
    out.set(key, { all: known.all + ms((proc?.own ?? 0) + (proc?.children ?? 0)), sys: known.sys + ms(proc?.sys ?? 0) });
  };
  add('bench', stat(targets.bench));
  for (const pid of targets.workers) add('workers', stat(pid));
  add('postgres: other', stat(targets.postmaster));
  const byPort = socketsByPort();
  const benchSockets = socketInodes(targets.bench);
  const workerSockets = new Set(targets.workers.flatMap((pid) => [...socketInodes(pid)]));
  for (const pid of pids()) {
    const proc = stat(pid);
    if (proc === null || proc.ppid !== targets.postmaster) continue;
    const port = /\(([0-9]+)\)/.exec(cmdline(pid))?.[1];
    const inode = port === undefined ? undefined : byPort.get(Number(port));
    const owner = inode === undefined ? 'other' : benchSockets.has(inode) ? "bench's backends" : workerSockets.has(inode) ? "workers' backends" : 'other';
    add(`postgres: ${owner}`, proc);
  }
  return out;
}

/** `after - before` per class (a class missing before counts from 0). */
export function coreTimeDelta(before: CoreTime, after: CoreTime): CoreTime {
  const out: CoreTime = new Map();
  for (const [key, value] of after) out.set(key, { all: value.all - (before.get(key)?.all ?? 0), sys: value.sys - (before.get(key)?.sys ?? 0) });
  return out;
}

/** Busy core time of the whole machine so far (every process's, ms), from /proc/stat. */
export function machineBusyMs(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal (guest times are inside user/nice).
  const busy = (cpu[0] ?? 0) + (cpu[1] ?? 0) + (cpu[2] ?? 0) + (cpu[5] ?? 0) + (cpu[6] ?? 0) + (cpu[7] ?? 0);
  return (busy * 1000) / TICKS_PER_SECOND;
}

/** The postmaster of the PostgreSQL server listening on `port` (its command line has `-p <port>`). */
export function postmasterOf(port: number): number {
  for (const pid of pids()) {
    const args = cmdline(pid).split(' ');
    const at = args.indexOf('-p');
    if (at >= 0 && args[at + 1] === String(port) && /(^|\/)postgres$/.test(args[0] ?? '')) return pid;
  }
  throw new Error(`no postmaster with -p ${port}`);
}

/** One line per class: core ms per run, and the share of the window's core time. */
export function formatCoreTime(delta: CoreTime, runs: number, machineMs: number, wallMs: number, cores: number): string {
  const rows = [...delta].filter(([, value]) => value.all > 0).sort((a, b) => b[1].all - a[1].all);
  const ours = rows.reduce((sum, [, value]) => sum + value.all, 0);
  const lines = rows.map(([key, value]) => `    ${key.padEnd(28)} ${(value.all / runs).toFixed(2).padStart(7)} core-ms/run (${(value.sys / runs).toFixed(2)} of it in the kernel)`);
  lines.push(`    ${'sum of the above'.padEnd(28)} ${(ours / runs).toFixed(2).padStart(7)} core-ms/run`);
  lines.push(`    ${'rest of the machine'.padEnd(28)} ${(Math.max(0, machineMs - ours) / runs).toFixed(2).padStart(7)} core-ms/run (other processes: other agents' work)`);
  lines.push(`    ${'idle'.padEnd(28)} ${(Math.max(0, wallMs * cores - machineMs) / runs).toFixed(2).padStart(7)} core-ms/run (${cores} cores x ${(wallMs / 1000).toFixed(2)} s window)`);
  return lines.join('\n');
}
