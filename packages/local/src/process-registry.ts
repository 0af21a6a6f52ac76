import { processGroupRegistry, signalProcessGroup as signalHostProcessGroup } from '@a3s-lab/code-core/util';
import { sweepMarkedProcessesNow } from './process-sweep.js';

/**
 * The host's process-group registry (core's, shared with every other package that starts process
 * groups, such as stdio MCP servers): a tool process group still registered when the Node process
 * ends is sent SIGKILL with every marked descendant that left it, on `exit` and on SIGTERM,
 * SIGINT and SIGHUP when nothing else handles that signal (see `processGroupRegistry`).
 */
const registry = processGroupRegistry(process);

/** Records a live process group (its leader's pid) and the marker of its call's processes. */
export function registerProcessGroup(pgid: number, marker?: string): void {
  registry.register(pgid, () => {
    signalProcessGroup(pgid, 'SIGKILL');
    if (marker !== undefined) sweepMarkedProcessesNow(marker, pgid);
  });
}

/** Forgets a process group once it is fully gone. */
export function unregisterProcessGroup(pgid: number): void {
  registry.unregister(pgid);
}

/** Sends `signal` to a whole process group; false when the group no longer exists. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  return signalHostProcessGroup(process, pgid, signal);
}

/** Ends every registered group (this package's and the others') and its marked escapees (synchronous: safe inside an `exit` handler). */
export function killAllProcessGroups(): void {
  registry.killAll();
}

/** Number of groups currently registered, this package's and the others' (diagnostics and tests). */
export function liveProcessGroupCount(): number {
  return registry.size;
}
