import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';

import { sweepMarkedProcesses } from '@a3s-lab/code-core/util';
import type { MarkedProcess } from '@a3s-lab/code-core/util';

/**
 * The spawn helper: a small Node process that starts the host's subprocesses (ripgrep, and the
 * process runner's `bash`, `git` and `bwrap`) and hands the host the child's stdout and stderr
 * pipes (file descriptors over the IPC channel), then reports its exit. `child_process.spawn`
 * forks synchronously on the calling thread, and a fork costs in proportion to the resident
 * memory of the process that forks: ~25 ms for a host of 400 MB on a loaded 2-core machine, every
 * one blocking the host's event loop (200 sessions grepping at once: 9.5 s of blocked loop,
 * `bench/concurrency.bench.ts`). The helper is ~40 MB, forks in a fraction of that, and never
 * blocks the host. It also runs the marker sweep at the end of a process-runner call (the
 * synchronous `/proc` scan of core's `sweepMarkedProcesses`, whose source it embeds: requests
 * that arrive together share one scan). Its source is inline (`node -e`), so it needs no file of
 * its own in the bundled packages. When the host disconnects, it kills what it started (the
 * whole group of a detached child).
 */
const HELPER_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const fs = require('node:fs');
// A transpiler that keeps function names (tsx, esbuild's keepNames) wraps them in __name.
const __name = (target) => target;
const sweepMarkedProcesses = (${sweepMarkedProcesses.toString()});
const table = { selfPid: process.pid, readdirSync: (path) => fs.readdirSync(path), readFileSync: (path, encoding) => fs.readFileSync(path, encoding), kill: (pid, signal) => process.kill(pid, signal) };
// A host that went away mid-send is not an error here: 'disconnect' ends the helper.
const send = (message, handle) => {
  if (process.connected) process.send(message, handle, undefined, () => undefined);
  else handle?.destroy?.();
};
const children = new Map();
let sweeps = [];
const sweepAll = () => {
  const batch = sweeps;
  sweeps = [];
  const markers = [...new Set(batch.flatMap((request) => request.markers))];
  let found;
  try {
    found = sweepMarkedProcesses(table, markers);
  } catch (error) {
    // The host sweeps itself.
    for (const request of batch) send({ type: 'swept', id: request.id, error: String(error && error.message) });
    return;
  }
  const byMarker = new Map(markers.map((marker, index) => [marker, found[index]]));
  for (const request of batch) send({ type: 'swept', id: request.id, found: request.markers.map((marker) => byMarker.get(marker) ?? []) });
};
const killChild = (child, detached) => {
  try {
    if (detached && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {}
};
process.on('message', (message) => {
  if (message.type === 'kill') { const entry = children.get(message.id); if (entry) killChild(entry.child, entry.detached); return; }
  if (message.type === 'sweep') {
    if (sweeps.length === 0) setImmediate(sweepAll);
    sweeps.push(message);
    return;
  }
  if (message.type !== 'spawn') return;
  const { id, command, args, cwd, env } = message;
  const detached = message.detached === true;
  let child;
  try {
    child = spawn(command, args, { cwd, env, detached, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
    return;
  }
  // Not a byte may be read here: the pipes go to the host unread (a net.Socket starts reading
  // as it is built; stopping it in the same tick is before any read callback can run).
  child.stdout?._handle?.readStop();
  child.stderr?._handle?.readStop();
  children.set(id, { child, detached });
  child.once('error', (error) => {
    children.delete(id);
    send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
  });
  child.once('spawn', () => {
    send({ type: 'stdout', id, pid: child.pid }, child.stdout);
    send({ type: 'stderr', id }, child.stderr);
  });
  child.once('exit', (code, signal) => {
    children.delete(id);
    send({ type: 'exit', id, code, signal });
  });
});
send({ type: 'ready', id: 0 });
process.on('disconnect', () => {
  for (const { child, detached } of children.values()) killChild(child, detached);
  process.exit(0);
});
// Nothing it started may outlive it, even when it fails.
process.on('uncaughtException', (error) => {
  for (const { child, detached } of children.values()) killChild(child, detached);
  process.stderr.write('a3s spawn helper: ' + String(error && error.stack) + '\n');
  process.exit(1);
});
`;

interface HelperMessage {
  readonly type: 'ready' | 'stdout' | 'stderr' | 'exit' | 'error' | 'swept';
  readonly id: number;
  readonly pid?: number;
  readonly code?: number | string | null;
  readonly signal?: string | null;
  readonly message?: string;
  readonly found?: MarkedProcess[][];
  readonly error?: string;
}

/**
 * A child started through the helper (or directly): the subset of `ChildProcess` the ripgrep
 * engine and the process runner use. Events: `spawn` (then `pid` is set), `error` (it could not
 * start), `exit` (code, signal), `close` (exit code, once it exited and both pipes closed).
 */
export interface HelperChild extends EventEmitter {
  /** The child's pid, once `spawn` was emitted (at once for a direct spawn). */
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal: 'SIGKILL'): void;
}

/** Options of {@link spawnThroughHelper}. */
export interface HelperSpawnOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Starts the child as the leader of a new process group (and session): `spawn`'s `detached`. */
  readonly detached?: boolean;
}

/** The `code` of the error a helper child emits when the helper exited under it. */
export const HELPER_LOST = 'A3S_SPAWN_HELPER_LOST';

let helper: ChildProcess | null = null;
/** True once the helper said it runs: until then (and if it never does) spawns are direct. */
let helperReady = false;
let helperFailed = false;
let nextId = 1;
const pending = new Map<number, HelperChildImpl>();
const pendingSweeps = new Map<number, { readonly resolve: (found: MarkedProcess[][]) => void; readonly reject: (error: Error) => void }>();

class HelperChildImpl extends EventEmitter implements HelperChild {
  readonly stdout: Readable;
  readonly stderr: Readable;
  pid: number | undefined;
  #streams: { stdout: Readable | null; stderr: Readable | null } = { stdout: null, stderr: null };
  #exit: { code: number | null } | null = null;
  #open = 2;
  #killed = false;

  constructor(readonly id: number) {
    super();
    // Until the real pipes arrive, listeners are kept on placeholders and moved over.
    this.stdout = placeholder(() => this.#streams.stdout);
    this.stderr = placeholder(() => this.#streams.stderr);
  }

  attach(which: 'stdout' | 'stderr', stream: Readable, pid: number | undefined): void {
    this.#streams[which] = stream;
    (this[which] as unknown as Placeholder).adopt(stream);
    stream.once('close', () => {
      this.#open -= 1;
      this.#maybeClose();
    });
    if (this.#killed) stream.destroy();
    // A pipe nobody reads would never see its end (and `close` never come): drain it.
    else stream.resume();
    if (which === 'stdout' && pid !== undefined) {
      this.pid = pid;
      this.emit('spawn');
    }
  }

  exited(code: number | null, signal: string | null): void {
    this.#exit = { code };
    this.emit('exit', code, signal);
    this.#maybeClose();
  }

  failed(error: Error): void {
    if (!pending.has(this.id)) return;
    release(this.id);
    this.emit('error', error);
  }

  kill(): void {
    if (this.#killed) return;
    this.#killed = true;
    if (this.#exit === null) helper?.send({ type: 'kill', id: this.id }, undefined, undefined, () => undefined);
  }

  #maybeClose(): void {
    if (this.#exit === null || this.#open > 0) return;
    release(this.id);
    this.emit('close', this.#exit.code);
  }
}

/** A stand-in stream: `on`/`once` listeners (and `destroy`) go to the real stream once it is there. */
interface Placeholder {
  adopt(stream: Readable): void;
}
function placeholder(current: () => Readable | null): Readable {
  const waiting: [string, 'on' | 'once', (...args: unknown[]) => void][] = [];
  let destroyed = false;
  const self = {
    on(event: string, listener: (...args: unknown[]) => void) {
      const stream = current();
      if (stream === null) waiting.push([event, 'on', listener]);
      else stream.on(event, listener);
      return self;
    },
    once(event: string, listener: (...args: unknown[]) => void) {
      const stream = current();
      if (stream === null) waiting.push([event, 'once', listener]);
      else stream.once(event, listener);
      return self;
    },
    destroy() {
      const stream = current();
      if (stream === null) destroyed = true;
      else stream.destroy();
      return self;
    },
    adopt(stream: Readable) {
      for (const [event, kind, listener] of waiting.splice(0)) stream[kind](event, listener);
      if (destroyed) stream.destroy();
    },
  };
  return self as unknown as Readable;
}

/** Forgets a child (its exit, or the host gave up waiting for it); the helper is unref'd when nothing is in flight. */
function release(id: number): void {
  pending.delete(id);
  if (pending.size === 0 && pendingSweeps.size === 0) unrefHelper();
}

function unrefHelper(): void {
  helper?.unref();
  (helper as unknown as { channel?: { unref(): void } } | null)?.channel?.unref();
}

function refHelper(): void {
  helper?.ref();
  (helper as unknown as { channel?: { ref(): void } } | null)?.channel?.ref();
}

function startHelper(): ChildProcess | null {
  if (helper !== null || helperFailed) return helper;
  try {
    const started = spawn(process.execPath, ['-e', HELPER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, serialization: 'json' });
    started.on('message', (message: HelperMessage, handle?: unknown) => {
      if (message.type === 'ready') {
        helperReady = true;
        return;
      }
      if (message.type === 'swept') {
        const sweep = pendingSweeps.get(message.id);
        pendingSweeps.delete(message.id);
        if (pending.size === 0 && pendingSweeps.size === 0) unrefHelper();
        if (message.error === undefined) sweep?.resolve(message.found ?? []);
        else sweep?.reject(new Error(message.error));
        return;
      }
      const child = pending.get(message.id);
      if (child === undefined) {
        (handle as Readable | undefined)?.destroy();
        return;
      }
      if ((message.type === 'stdout' || message.type === 'stderr') && handle !== undefined) child.attach(message.type, handle as Readable, message.pid);
      else if (message.type === 'exit') child.exited(typeof message.code === 'number' ? message.code : null, message.signal ?? null);
      else if (message.type === 'error') child.failed(Object.assign(new Error(message.message ?? 'spawn failed'), { code: message.code }));
    });
    const lost = (): void => {
      if (helper !== started) return;
      // A helper that never came up (no `-e` on this runtime...) is not tried again; one that
      // ran and died is restarted by the next spawn.
      if (!helperReady) helperFailed = true;
      helper = null;
      helperReady = false;
      for (const child of [...pending.values()]) child.failed(Object.assign(new Error('the spawn helper exited'), { code: HELPER_LOST }));
      for (const sweep of [...pendingSweeps.values()]) sweep.reject(new Error('the spawn helper exited'));
      pendingSweeps.clear();
    };
    started.once('exit', lost);
    started.on('error', () => {
      helperFailed = true;
      lost();
    });
    helper = started;
    unrefHelper();
    return helper;
  } catch {
    helperFailed = true;
    return null;
  }
}

/** The running helper, or null (starting it if it is not: the first call spawns directly). */
function readyHelper(): ChildProcess | null {
  const running = process.env['A3S_NO_SPAWN_HELPER'] === '1' ? null : startHelper();
  return running !== null && helperReady ? running : null;
}

/**
 * Starts `command` through the spawn helper (stdin ignored, stdout and stderr piped), or
 * directly while the helper is starting (the first call starts it), when it cannot run, or with
 * `A3S_NO_SPAWN_HELPER=1`. See {@link HelperChild} for the events.
 */
export function spawnThroughHelper(command: string, args: readonly string[], options: HelperSpawnOptions): HelperChild {
  const running = readyHelper();
  const detached = options.detached === true;
  if (running === null) {
    return spawn(command, [...args], { cwd: options.cwd, env: options.env, detached, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }) as unknown as HelperChild;
  }
  const id = nextId;
  nextId += 1;
  const child = new HelperChildImpl(id);
  pending.set(id, child);
  refHelper();
  running.send({ type: 'spawn', id, command, args, cwd: options.cwd, env: options.env, detached }, undefined, undefined, (error) => {
    if (error !== null) child.failed(error);
  });
  return child;
}

/**
 * Stops waiting for `child` (started by {@link spawnThroughHelper}): a child that never reports
 * its exit (stuck in uninterruptible sleep) must not keep the helper, and so the host, alive.
 */
export function releaseHelperChild(child: HelperChild): void {
  if (child instanceof HelperChildImpl) release(child.id);
}

/**
 * Runs core's `sweepMarkedProcesses` for `markers` in the spawn helper, off this process's event
 * loop (sweeps asked for while one runs share the next scan). Null when the helper does not run
 * (the caller sweeps itself); rejects when the helper exits meanwhile.
 */
export function sweepThroughHelper(markers: readonly string[]): Promise<MarkedProcess[][]> | null {
  const running = process.env['A3S_NO_SPAWN_HELPER'] === '1' || !helperReady ? null : helper;
  if (running === null) return null;
  const id = nextId;
  nextId += 1;
  return new Promise((resolve, reject) => {
    pendingSweeps.set(id, { resolve, reject });
    refHelper();
    running.send({ type: 'sweep', id, markers }, undefined, undefined, (error) => {
      if (error === null || !pendingSweeps.delete(id)) return;
      release(-1);
      reject(error);
    });
  });
}

/** The pid of the running spawn helper, if one runs (diagnostics and benchmarks). */
export function helperPid(): number | undefined {
  return helperReady ? (helper?.pid ?? undefined) : undefined;
}
