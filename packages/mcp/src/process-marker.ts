import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Environment variable every stdio MCP server is started with, with a value unique to the
 * server's process. Descendants inherit it even when they leave the server's process group
 * (`setsid`, a double fork), so closing the server finds and kills them too. A name of its own
 * (not the local backend's `A3S_PROCESS_MARKER`), so a server started from inside a `bash` call
 * keeps that call's marker as well.
 */
export const MCP_SERVER_MARKER_ENV = 'A3S_MCP_SERVER_MARKER';

/** A fresh marker value for one server process. */
export function newServerMarker(): string {
  return randomBytes(12).toString('hex');
}

/**
 * SIGKILLs every process whose environment carries `marker` (Linux: `/proc/<pid>/environ`;
 * elsewhere nothing is found) and returns their pids. Synchronous, so it also runs inside an
 * `exit` handler. The same sweep as the local backend's for tool processes (adapters do not
 * import each other).
 */
export function killMarkedProcesses(marker: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`${MCP_SERVER_MARKER_ENV}=${marker}\0`);
  const killed: number[] = [];
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
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Gone already.
    }
  }
  return killed;
}
