/**
 * Live process groups of stdio MCP servers started by this package. Every group still registered
 * when the host process exits is sent SIGKILL, so servers die with the host even when it ends by
 * `process.exit()` or an uncaught exception.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killAll(): void {
  for (const pgid of liveGroups) signalProcessGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

/** Records a live process group (its leader's pid). */
export function registerProcessGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killAll);
  }
}

/** Forgets a process group once its leader has exited. */
export function unregisterProcessGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/** Sends `signal` to a whole process group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
