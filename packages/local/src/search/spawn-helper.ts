import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

import type { MarkedProcess } from '@a3s-lab/code-core/util';

import { HelperChildImpl } from './helper-child.js';
import type { HelperChild } from './helper-child.js';
import { HELPER_SOURCE } from './spawn-helper-source.js';

export type { HelperChild } from './helper-child.js';

// The spawn helper: a small Node process that starts the host's subprocesses (ripgrep, and the
// process runner's `bash`, `git` and `bwrap`) and reports their output and exit to the host.
// `child_process.spawn` forks synchronously on the calling thread, and a fork costs in
// proportion to the resident memory of the process that forks: ~25 ms for a host of 400 MB on a
// loaded 2-core machine, every one blocking the host's event loop (200 sessions grepping at
// once: 9.5 s of blocked loop, `bench/concurrency.bench.ts`). The helper is ~40 MB, forks in a
// fraction of that, and never blocks the host; it starts once the host has grown past
// `SPAWN_HELPER_MIN_RSS_MB` (a smaller host forks faster than the helper's hops). A child's
// output comes as IPC messages up to `RELAY_LIMIT_BYTES` per stream, the rest (if any) through the pipe itself, handed over as a
// descriptor. It also runs the marker sweep at the end of a process-runner call (the synchronous
// `/proc` scan of core's `sweepMarkedProcesses`, whose source it embeds: requests that arrive
// together share one scan). When the host disconnects, it kills what it started (the whole group
// of a detached child). Its source and protocol: `spawn-helper-source.ts`.
interface HelperMessage {
  readonly type: 'ready' | 'spawned' | 'data' | 'pipe' | 'end' | 'exit' | 'error' | 'swept';
  readonly id: number;
  readonly pid?: number;
  readonly stream?: 'stdout' | 'stderr';
  readonly data?: string;
  readonly code?: number | string | null;
  readonly signal?: string | null;
  readonly message?: string;
  readonly found?: MarkedProcess[][];
  readonly error?: string;
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
      const stream = message.stream === 'stderr' ? 'stderr' : 'stdout';
      if (message.type === 'spawned' && message.pid !== undefined) child.spawned(message.pid);
      else if (message.type === 'data' && message.data !== undefined) child.data(stream, Buffer.from(message.data, 'latin1'));
      else if (message.type === 'end') child.ended(stream);
      else if (message.type === 'pipe' && handle !== undefined) child.pipe(stream, handle as Readable);
      else if (message.type === 'exit') child.exited(typeof message.code === 'number' ? message.code : null, message.signal ?? null);
      else if (message.type === 'error') child.failed(Object.assign(new Error(message.message ?? 'spawn failed'), { code: message.code }));
      else (handle as Readable | undefined)?.destroy();
    });
    const lost = (): void => {
      if (helper !== started) return;
      // A helper that never came up (no `-e` on this runtime...) is not tried again; one that
      // ran and died is restarted by the next spawn.
      if (!helperReady) helperFailed = true;
      helper = null;
      helperReady = false;
      for (const child of [...pending.values()]) child.lost(Object.assign(new Error('the spawn helper exited'), { code: HELPER_LOST }));
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

/**
 * Resident size from which subprocesses go through the helper (`A3S_SPAWN_HELPER_MIN_RSS_MB`
 * overrides it; 0: always). A fork blocks the host ~3.4 ms per 100 MB it holds (1.2 ms at 65 MB,
 * 4.6 ms at 160 MB, 11.9 ms at 360 MB, measured on a quiet 2-core machine), while the helper is a
 * cold Node process with IPC hops: below this size a lone host is faster forking itself (the
 * 8-turn fix-the-bug job, ~108 MB: 2.5 ms per turn less), and above it the blocked loop costs
 * every other session of the host more than the hops.
 */
export const SPAWN_HELPER_MIN_RSS_MB = 160;

/** True when this spawn should go through the helper: it runs already, or the host has grown past {@link SPAWN_HELPER_MIN_RSS_MB}. */
function helperWanted(): boolean {
  if (process.env['A3S_NO_SPAWN_HELPER'] === '1') return false;
  if (helper !== null) return true;
  const configured = process.env['A3S_SPAWN_HELPER_MIN_RSS_MB'];
  const minMb = configured === undefined || configured === '' || !Number.isFinite(Number(configured)) ? SPAWN_HELPER_MIN_RSS_MB : Number(configured);
  return minMb <= 0 || process.memoryUsage.rss() >= minMb * 1024 * 1024;
}

/** The running helper, or null (starting it when it is wanted and not running: that first call spawns directly). */
function readyHelper(): ChildProcess | null {
  const running = helperWanted() ? startHelper() : null;
  return running !== null && helperReady ? running : null;
}

/**
 * Starts `command` through the spawn helper (stdin ignored, stdout and stderr piped), or
 * directly: while the host is smaller than {@link SPAWN_HELPER_MIN_RSS_MB} and no helper runs,
 * while the helper is starting (the first call past that size starts it), when it cannot run, or
 * with `A3S_NO_SPAWN_HELPER=1`. See {@link HelperChild} for the events.
 */
export function spawnThroughHelper(command: string, args: readonly string[], options: HelperSpawnOptions): HelperChild {
  const running = readyHelper();
  const detached = options.detached === true;
  if (running === null) {
    return spawn(command, [...args], { cwd: options.cwd, env: options.env, detached, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }) as unknown as HelperChild;
  }
  const id = nextId;
  nextId += 1;
  const child = new HelperChildImpl(
    id,
    () => helper?.send({ type: 'kill', id }, undefined, undefined, () => undefined),
    () => release(id),
  );
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
  if (child instanceof HelperChildImpl) child.release();
}

/**
 * Runs core's `sweepMarkedProcesses` for `markers`, from pid `firstPid` on, in the spawn helper,
 * off this process's event loop (sweeps asked for while one runs share the next scan, from the
 * lowest of their first pids). Null when the helper does not run
 * (the caller sweeps itself); rejects when the helper exits meanwhile.
 */
export function sweepThroughHelper(markers: readonly string[], firstPid = 0): Promise<MarkedProcess[][]> | null {
  const running = process.env['A3S_NO_SPAWN_HELPER'] === '1' || !helperReady ? null : helper;
  if (running === null) return null;
  const id = nextId;
  nextId += 1;
  return new Promise((resolve, reject) => {
    pendingSweeps.set(id, { resolve, reject });
    refHelper();
    running.send({ type: 'sweep', id, markers, firstPid }, undefined, undefined, (error) => {
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
