/**
 * Registry of live process groups started by this package. Every group still registered when the
 * Node process exits is sent SIGKILL, so a crash or `process.exit()` in the host does not leave
 * detached children behind.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Records a live process group (its leader's pid). */
export function registerProcessGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killAllProcessGroups);
  }
}

/** Forgets a process group once it is fully gone. */
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

/** SIGKILLs every registered group (synchronous: also safe inside a process `exit` handler). */
export function killAllProcessGroups(): void {
  for (const pgid of liveGroups) signalProcessGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

/** Number of groups currently registered (diagnostics and tests). */
export function liveProcessGroupCount(): number {
  return liveGroups.size;
}
