import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { sweepMarkedProcesses } from '@a3s-lab/code-core/util';
import type { ProcessTable } from '@a3s-lab/code-core/util';

/**
 * Environment variable every stdio MCP server is started with, with a value unique to the
 * server's process. Descendants inherit it even when they leave the server's process group
 * (`setsid`, a double fork), so closing the server finds and kills them too. A name of its own
 * (not the local backend's `A3S_PROCESS_MARKER`), so a server started from inside a `bash` call
 * keeps that call's marker as well.
 */
export const MCP_SERVER_MARKER_ENV = 'A3S_MCP_SERVER_MARKER';

const table: ProcessTable = {
  selfPid: process.pid,
  readdirSync: (path) => readdirSync(path),
  readFileSync: (path, encoding) => readFileSync(path, encoding),
  kill: (pid, signal) => process.kill(pid, signal),
};

/** A fresh marker value for one server process. */
export function newServerMarker(): string {
  return randomBytes(12).toString('hex');
}

/**
 * SIGKILLs every process whose environment carries `marker` and returns their pids: core's
 * `sweepMarkedProcesses` (the one sweep, shared with the local backend's tool processes).
 * Synchronous, so it also runs inside an `exit` handler.
 */
export function killMarkedProcesses(marker: string): number[] {
  return (sweepMarkedProcesses(table, [`${MCP_SERVER_MARKER_ENV}=${marker}`])[0] ?? []).map((found) => found.pid);
}
