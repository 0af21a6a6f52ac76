import { sweepMarkedProcesses } from './process-sweep.js';

/**
 * Registry of live process groups started by this package, with each call's environment marker.
 * Every group (and every marked descendant that left it) still registered when the Node process
 * ends is sent SIGKILL: on `exit` (a crash, `process.exit()`), and on SIGTERM, SIGINT and SIGHUP
 * when nothing else handles that signal (then the signal's default action follows, so the host
 * still dies by it). A host that handles those signals itself ends through `exit`, or calls
 * {@link killAllProcessGroups}.
 */
const liveGroups = new Map<number, string | undefined>();
let hooksInstalled = false;

/** Signals after which no tool process may outlive the host. */
export const HOST_TERMINATION_SIGNALS: readonly NodeJS.Signals[] = Object.freeze(['SIGTERM', 'SIGINT', 'SIGHUP'] as NodeJS.Signals[]);

function onTerminationSignal(signal: NodeJS.Signals): void {
  // Another listener means the host decides what the signal does; its exit runs the `exit` hook.
  if (process.listenerCount(signal) > 1) return;
  killAllProcessGroups();
  process.removeListener(signal, onTerminationSignal);
  // No listener left: the default action (termination by this signal) applies.
  process.kill(process.pid, signal);
}

/** Records a live process group (its leader's pid) and the marker of its call's processes. */
export function registerProcessGroup(pgid: number, marker?: string): void {
  liveGroups.set(pgid, marker);
  if (!hooksInstalled) {
    hooksInstalled = true;
    process.on('exit', killAllProcessGroups);
    for (const signal of HOST_TERMINATION_SIGNALS) process.on(signal, onTerminationSignal);
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

/** SIGKILLs every registered group and its marked escapees (synchronous: safe inside an `exit` handler). */
export function killAllProcessGroups(): void {
  for (const [pgid, marker] of liveGroups) {
    signalProcessGroup(pgid, 'SIGKILL');
    if (marker !== undefined) sweepMarkedProcesses(marker, pgid);
  }
  liveGroups.clear();
}

/** Number of groups currently registered (diagnostics and tests). */
export function liveProcessGroupCount(): number {
  return liveGroups.size;
}
