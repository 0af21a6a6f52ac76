import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';

/**
 * The spawn helper: a small Node process that starts ripgrep for the host and hands the host
 * the child's stdout and stderr pipes (file descriptors over the IPC channel), then reports its
 * exit. `child_process.spawn` forks synchronously on the calling thread, and a fork costs in
 * proportion to the resident memory of the process that forks: ~25 ms for a host of 400 MB on a
 * loaded 2-core machine, every one blocking the host's event loop (200 sessions grepping at once:
 * 9.5 s of blocked loop, `bench/concurrency.bench.ts`). The helper is ~40 MB, forks in a
 * fraction of that, and never blocks the host. Its source is inline (`node -e`), so it needs no
 * file of its own in the bundled packages. When the host disconnects, it kills what it started.
 */
const HELPER_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const children = new Map();
process.on('message', (message) => {
  if (message.type === 'kill') { children.get(message.id)?.kill('SIGKILL'); return; }
  if (message.type !== 'spawn') return;
  const { id, command, args, cwd, env } = message;
  let child;
  try {
    child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    process.send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
    return;
  }
  // Not a byte may be read here: the pipes go to the host unread (a net.Socket starts reading
  // as it is built; stopping it in the same tick is before any read callback can run).
  child.stdout?._handle?.readStop();
  child.stderr?._handle?.readStop();
  children.set(id, child);
  child.once('error', (error) => {
    children.delete(id);
    process.send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
  });
  child.once('spawn', () => {
    process.send({ type: 'stdout', id, pid: child.pid }, child.stdout);
    process.send({ type: 'stderr', id }, child.stderr);
  });
  child.once('exit', (code, signal) => {
    children.delete(id);
    process.send({ type: 'exit', id, code, signal });
  });
});
process.send({ type: 'ready', id: 0 });
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

interface HelperMessage {
  readonly type: 'ready' | 'stdout' | 'stderr' | 'exit' | 'error';
  readonly id: number;
  readonly pid?: number;
  readonly code?: number | string | null;
  readonly signal?: string | null;
  readonly message?: string;
}

/** A child started through the helper: the subset of `ChildProcess` the ripgrep engine uses. */
export interface HelperChild extends EventEmitter {
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal: 'SIGKILL'): void;
}

let helper: ChildProcess | null = null;
/** True once the helper said it runs: until then (and if it never does) spawns are direct. */
let helperReady = false;
let helperFailed = false;
let nextId = 1;
const pending = new Map<number, HelperChildImpl>();

class HelperChildImpl extends EventEmitter implements HelperChild {
  readonly stdout: Readable;
  readonly stderr: Readable;
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

  attach(which: 'stdout' | 'stderr', stream: Readable): void {
    this.#streams[which] = stream;
    (this[which] as unknown as Placeholder).adopt(stream);
    stream.once('close', () => {
      this.#open -= 1;
      this.#maybeClose();
    });
    if (this.#killed) stream.destroy();
    // A pipe nobody reads would never see its end (and `close` never come): drain it.
    else stream.resume();
  }

  exited(code: number | null): void {
    this.#exit = { code };
    this.#maybeClose();
  }

  failed(error: Error): void {
    pending.delete(this.id);
    this.emit('error', error);
  }

  kill(): void {
    if (this.#killed) return;
    this.#killed = true;
    if (this.#exit === null) helper?.send({ type: 'kill', id: this.id });
  }

  #maybeClose(): void {
    if (this.#exit === null || this.#open > 0) return;
    pending.delete(this.id);
    if (pending.size === 0) unrefHelper();
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
      const child = pending.get(message.id);
      if (child === undefined) {
        (handle as Readable | undefined)?.destroy();
        return;
      }
      if ((message.type === 'stdout' || message.type === 'stderr') && handle !== undefined) child.attach(message.type, handle as Readable);
      else if (message.type === 'exit') child.exited(typeof message.code === 'number' ? message.code : null);
      else if (message.type === 'error') child.failed(Object.assign(new Error(message.message ?? 'spawn failed'), { code: message.code }));
    });
    const lost = (): void => {
      if (helper !== started) return;
      // A helper that never came up (no `-e` on this runtime...) is not tried again; one that
      // ran and died is restarted by the next spawn.
      if (!helperReady) helperFailed = true;
      helper = null;
      helperReady = false;
      for (const child of [...pending.values()]) child.failed(new Error('the spawn helper exited'));
    };
    started.once('exit', lost);
    started.once('error', () => {
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

/**
 * Starts `command` through the spawn helper (stdin ignored, stdout and stderr piped), or
 * directly while the helper is starting (the first call starts it), when it cannot run, or with
 * `A3S_NO_SPAWN_HELPER=1`. Events: `error` (the command could not start), `close`
 * (exit code, once both pipes closed).
 */
export function spawnThroughHelper(command: string, args: readonly string[], options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> }): HelperChild {
  const running = process.env['A3S_NO_SPAWN_HELPER'] === '1' ? null : startHelper();
  if (running === null || !helperReady) {
    return spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] }) as unknown as HelperChild;
  }
  const id = nextId;
  nextId += 1;
  const child = new HelperChildImpl(id);
  pending.set(id, child);
  refHelper();
  running.send({ type: 'spawn', id, command, args, cwd: options.cwd, env: options.env });
  return child;
}
