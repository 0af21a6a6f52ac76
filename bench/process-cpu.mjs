// CPU time of the processes a benchmark process starts (Linux /proc; 0 elsewhere): its live
// children's own and reaped-children's time (a spawn helper's figure holds every command it
// started and waited for) plus what this process reaped itself. Used by concurrency.bench.ts
// and concurrency-floor.mjs so both sides count their tool processes the same way.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ 100 on Linux

function fields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** ms of CPU of this process's children (live ones with their reaped descendants, and the ones it reaped), `exclude`d pids left out. */
export function childrenCpuMs(exclude = []) {
  const self = fields('self');
  if (self === null) return 0;
  // Fields after the command name: state ppid ... utime(12) stime(13) cutime(14) cstime(15) (1-based from state: 12..15 -> index 11..14).
  let ticks = Number(self[13]) + Number(self[14]);
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || exclude.includes(Number(entry))) continue;
    const child = fields(entry);
    if (child === null || Number(child[1]) !== process.pid) continue;
    ticks += Number(child[11]) + Number(child[12]) + Number(child[13]) + Number(child[14]);
  }
  return ticks * TICK_MS;
}
