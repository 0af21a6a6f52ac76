/**
 * What the registry uses of the host process. Node's `process` satisfies it; core imports no
 * `node:` module, so the packages that start processes pass theirs in.
 */
export interface HostProcess {
  readonly pid: number;
  on(event: string, listener: (signal: string) => void): unknown;
  removeListener(event: string, listener: (signal: string) => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal?: string | number): unknown;
}

/** Signals after which no process group started by A3S Code may outlive the host. */
export const HOST_TERMINATION_SIGNALS: readonly ['SIGTERM', 'SIGINT', 'SIGHUP'] = Object.freeze(['SIGTERM', 'SIGINT', 'SIGHUP'] as const);

/**
 * The live process groups started by this process's packages (`bash` and other tool processes
 * of the local backend, stdio MCP servers), each with the synchronous action that ends it. Every
 * group still registered when the host ends is ended: on `exit` (a crash, `process.exit()`), and
 * on SIGTERM, SIGINT and SIGHUP when nothing else handles that signal (then the signal's default
 * action follows, so the host still dies by it). A host that handles those signals itself ends
 * through `exit`, or calls {@link ProcessGroupRegistry.killAll}.
 */
export interface ProcessGroupRegistry {
  /** Records a live group (its leader's pid) and how to end it; installs the host hooks once. */
  register(pgid: number, end: () => void): void;
  /** Forgets a group once it is fully gone. */
  unregister(pgid: number): void;
  /** Ends every registered group and forgets them (synchronous: safe inside an `exit` handler). */
  killAll(): void;
  /** Number of groups registered (diagnostics and tests). */
  readonly size: number;
}

// One registry per host process whichever package asks: with two, each one's signal handler
// would see the other's as "the host handles this signal" and step aside, and the host would no
// longer die by the signal.
const registries = new WeakMap<HostProcess, ProcessGroupRegistry>();

/** The one {@link ProcessGroupRegistry} of `host` (Node's `process`). */
export function processGroupRegistry(host: HostProcess): ProcessGroupRegistry {
  let registry = registries.get(host);
  if (registry === undefined) {
    registry = createRegistry(host);
    registries.set(host, registry);
  }
  return registry;
}

function createRegistry(host: HostProcess): ProcessGroupRegistry {
  const live = new Map<number, () => void>();
  let hooksInstalled = false;
  const killAll = (): void => {
    const ends = [...live.values()];
    live.clear();
    for (const end of ends) end();
  };
  const onTerminationSignal = (signal: string): void => {
    // Another listener means the host decides what the signal does; its exit runs the `exit` hook.
    if (host.listenerCount(signal) > 1) return;
    killAll();
    host.removeListener(signal, onTerminationSignal);
    // No listener left: the default action (termination by this signal) applies.
    host.kill(host.pid, signal);
  };
  return {
    register(pgid, end) {
      live.set(pgid, end);
      if (hooksInstalled) return;
      hooksInstalled = true;
      host.on('exit', killAll);
      for (const signal of HOST_TERMINATION_SIGNALS) host.on(signal, onTerminationSignal);
    },
    unregister(pgid) {
      live.delete(pgid);
    },
    killAll,
    get size() {
      return live.size;
    },
  };
}

/** Sends `signal` to the whole process group `pgid` of `host`; false when the group no longer exists. */
export function signalProcessGroup(host: HostProcess, pgid: number, signal: string): boolean {
  try {
    host.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
