import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HostMessage, ProgramWorkerData, WorkerMessage } from './worker-protocol.js';

/** Idle VM workers kept warm for the next runs; more released workers are terminated. */
export const MAX_IDLE_PROGRAM_WORKERS = 2;
/** VM workers alive at once (busy, idle and starting); a run beyond that waits for a free one. */
export const MAX_PROGRAM_WORKERS = 8;
/**
 * Hard bound of the pool: past {@link MAX_PROGRAM_WORKERS}, a run of a session (owner) that holds
 * no worker yet starts one of its own, up to this many in all, so the programs of some sessions
 * can never keep another session's first program from running.
 */
export const MAX_PROGRAM_WORKERS_BURST = 16;

/** What a busy worker reports to the run using it. */
export interface ProgramWorkerListener {
  readonly onMessage: (message: WorkerMessage) => void;
  /** The thread ended (crash, out-of-memory of the isolate, or our own terminate). */
  readonly onExit: (error: unknown) => void;
}

/**
 * One VM worker thread with its QuickJS module loaded. The host talks to it with
 * {@link HostMessage}s; {@link ProgramWorker.requestStop} also raises a shared flag the VM's
 * interrupt handler reads, because a worker busy in bytecode reads no messages.
 */
export class ProgramWorker {
  /** Increases with every worker the process starts; a run reports the one it used. */
  readonly generation: number;
  readonly #thread: Worker;
  readonly #stop: Int32Array;
  #listener: ProgramWorkerListener | null = null;
  #exited = false;
  #exitError: unknown = undefined;

  constructor(thread: Worker, stop: Int32Array, generation: number, onExit: (worker: ProgramWorker) => void) {
    this.#thread = thread;
    this.#stop = stop;
    this.generation = generation;
    thread.on('message', (message: WorkerMessage) => this.#listener?.onMessage(message));
    thread.on('error', (error) => {
      this.#exitError = error;
    });
    thread.on('exit', (code) => {
      this.#exited = true;
      const listener = this.#listener;
      this.#listener = null;
      listener?.onExit(this.#exitError ?? new Error(`program worker exited with code ${code}`));
      onExit(this);
    });
  }

  /** True once the thread is gone (it is never reused then). */
  get exited(): boolean {
    return this.#exited;
  }

  /** Hands the worker one run: clears the stop flag, keeps the process alive while it runs. */
  begin(message: Extract<HostMessage, { type: 'run' }>, listener: ProgramWorkerListener): void {
    Atomics.store(this.#stop, 0, 0);
    this.#listener = listener;
    this.#thread.ref();
    this.#thread.postMessage(message);
  }

  /** Sends one message of the current run. */
  post(message: HostMessage): void {
    if (!this.#exited) this.#thread.postMessage(message);
  }

  /** Asks the current run to end: the flag reaches running bytecode, the message a parked run. */
  requestStop(runId: number): void {
    Atomics.store(this.#stop, 0, 1);
    this.post({ type: 'stop', runId });
  }

  /** Detaches the run; an idle worker does not keep the process alive. */
  end(): void {
    this.#listener = null;
    if (!this.#exited) this.#thread.unref();
  }

  /** Stops the thread wherever it is, even inside a long built-in. */
  terminate(): void {
    this.#listener = null;
    void this.#thread.terminate();
  }
}

/**
 * The process's VM workers: one QuickJS module per worker thread, loaded once and reused run
 * after run. An idle spare is started on first use so a run rarely waits for a module load, and
 * a worker the host had to terminate is replaced by it.
 */
export class ProgramWorkerPool {
  readonly #idle: ProgramWorker[] = [];
  readonly #waiters: { readonly owner: string; readonly resolve: (worker: ProgramWorker) => void }[] = [];
  /** Workers held by each owner (session) right now, and the owner of each busy worker. */
  readonly #held = new Map<string, number>();
  readonly #ownerOf = new Map<ProgramWorker, string>();
  #live = 0;
  #started = 0;
  #spareStarting = false;

  /** True when a run of `owner` asking now would wait for a busy worker to free up. */
  saturated(owner = ''): boolean {
    return this.#idle.length === 0 && this.#live >= MAX_PROGRAM_WORKERS && !this.#mayBurst(owner);
  }

  /**
   * A ready worker for one run of `owner` (a session id; `''` for runs without one); waits while
   * {@link MAX_PROGRAM_WORKERS} are busy, at most `maxWaitMs` (then rejects with
   * {@link ProgramPoolBusyError}). Starting a worker is not waiting. Fair share: an owner holding
   * no worker starts one past the base limit (up to {@link MAX_PROGRAM_WORKERS_BURST}), and a
   * freed worker goes to the waiting owner holding the fewest.
   */
  acquire(signal?: AbortSignal, maxWaitMs?: number, owner = ''): Promise<ProgramWorker> {
    const idle = this.#idle.pop();
    const queued = idle === undefined && this.#live >= MAX_PROGRAM_WORKERS && !this.#mayBurst(owner);
    const found = idle !== undefined ? Promise.resolve(idle) : !queued ? this.#start(true) : this.#wait(owner);
    const pending = found.then((worker) => {
      this.#assign(worker, owner);
      return worker;
    });
    void pending.then(() => this.#topUpSpare(), () => {});
    if (queued && maxWaitMs !== undefined) {
      const busy = new ProgramPoolBusyError(maxWaitMs);
      const waitSignal = AbortSignal.any([...(signal === undefined ? [] : [signal]), timeoutSignal(maxWaitMs, busy)]);
      return this.#bind(pending, waitSignal);
    }
    if (signal === undefined) return pending;
    return this.#bind(pending, signal);
  }

  #bind(pending: Promise<ProgramWorker>, signal: AbortSignal): Promise<ProgramWorker> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        reject(signal.reason);
        // Whatever arrives later goes back to the pool.
        void pending.then((worker) => this.release(worker), () => {});
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (worker) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) return;
          resolve(worker);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  /** Returns a healthy worker after its run. */
  release(worker: ProgramWorker): void {
    this.#unassign(worker);
    worker.end();
    if (worker.exited) return;
    const waiter = this.#nextWaiter();
    if (waiter !== undefined) return waiter.resolve(worker);
    if (this.#idle.length < MAX_IDLE_PROGRAM_WORKERS && this.#live <= MAX_PROGRAM_WORKERS) this.#idle.push(worker);
    else worker.terminate();
  }

  /** Terminates a worker that overstayed, crashed or failed its module. */
  discard(worker: ProgramWorker): void {
    this.#unassign(worker);
    worker.terminate();
  }

  /** Counts for tests and diagnostics. */
  stats(): { readonly started: number; readonly live: number; readonly idle: number; readonly owners: number } {
    return { started: this.#started, live: this.#live, idle: this.#idle.length, owners: this.#held.size };
  }

  /** An owner holding no worker may grow the pool past its base limit, within the hard bound. */
  #mayBurst(owner: string): boolean {
    return (this.#held.get(owner) ?? 0) === 0 && this.#live < MAX_PROGRAM_WORKERS_BURST;
  }

  #assign(worker: ProgramWorker, owner: string): void {
    this.#ownerOf.set(worker, owner);
    this.#held.set(owner, (this.#held.get(owner) ?? 0) + 1);
  }

  #unassign(worker: ProgramWorker): void {
    const owner = this.#ownerOf.get(worker);
    if (owner === undefined) return;
    this.#ownerOf.delete(worker);
    const left = (this.#held.get(owner) ?? 1) - 1;
    if (left <= 0) this.#held.delete(owner);
    else this.#held.set(owner, left);
  }

  /** The waiter whose owner holds the fewest workers (first come first among equals). */
  #nextWaiter(): { readonly owner: string; readonly resolve: (worker: ProgramWorker) => void } | undefined {
    let best = -1;
    for (const [index, waiter] of this.#waiters.entries()) {
      if (best === -1 || (this.#held.get(waiter.owner) ?? 0) < (this.#held.get((this.#waiters[best] as { owner: string }).owner) ?? 0)) best = index;
    }
    return best === -1 ? undefined : this.#waiters.splice(best, 1)[0];
  }

  #wait(owner: string): Promise<ProgramWorker> {
    return new Promise((resolve) => this.#waiters.push({ owner, resolve }));
  }

  #start(keepAlive: boolean): Promise<ProgramWorker> {
    this.#live += 1;
    this.#started += 1;
    return startWorker(this.#started, keepAlive, (worker) => this.#onExit(worker)).catch((error: unknown) => {
      this.#live -= 1;
      throw error;
    });
  }

  #onExit(worker: ProgramWorker): void {
    this.#live -= 1;
    const index = this.#idle.indexOf(worker);
    if (index >= 0) this.#idle.splice(index, 1);
    if (this.#waiters.length > 0 && this.#live < MAX_PROGRAM_WORKERS) {
      this.#start(true).then(
        (next) => this.release(next),
        () => {},
      );
    }
  }

  #topUpSpare(): void {
    if (this.#idle.length > 0 || this.#spareStarting || this.#live >= MAX_PROGRAM_WORKERS) return;
    this.#spareStarting = true;
    this.#start(false).then(
      (worker) => {
        this.#spareStarting = false;
        this.release(worker);
      },
      () => {
        this.#spareStarting = false;
      },
    );
  }
}

/** A run waited its whole `timeoutMs` for a worker while every worker stayed busy. */
export class ProgramPoolBusyError extends Error {
  constructor(readonly waitedMs: number) {
    super(`no program worker became free within ${waitedMs} ms (all ${MAX_PROGRAM_WORKERS} busy)`);
    this.name = 'ProgramPoolBusyError';
  }
}

/** A signal that aborts with `reason` after `ms` (unref'd: it never keeps the process alive). */
function timeoutSignal(ms: number, reason: Error): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason), ms);
  timer.unref?.();
  return controller.signal;
}

/** The process-wide pool every program run uses. */
export const programWorkerPool = new ProgramWorkerPool();

/** Starts one worker thread and resolves once its QuickJS module is loaded. */
function startWorker(generation: number, keepAlive: boolean, onExit: (worker: ProgramWorker) => void): Promise<ProgramWorker> {
  const stopBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const thread = createThread({ stopBuffer });
  if (!keepAlive) thread.unref();
  return new Promise((resolve, reject) => {
    let failure: unknown;
    const onMessage = (message: WorkerMessage): void => {
      if (message.type !== 'ready') return;
      cleanup();
      resolve(new ProgramWorker(thread, new Int32Array(stopBuffer), generation, onExit));
    };
    const onError = (error: unknown): void => {
      failure = error;
    };
    const onThreadExit = (code: number): void => {
      cleanup();
      reject(failure ?? new Error(`program worker exited with code ${code} while starting`));
    };
    const cleanup = (): void => {
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onThreadExit);
    };
    thread.on('message', onMessage);
    thread.on('error', onError);
    thread.on('exit', onThreadExit);
  });
}

/**
 * The worker entry sits next to this module: `program-worker.js` in dist, `program-worker.ts`
 * when this runs from TypeScript sources (vitest, tsx), where the thread registers tsx's
 * loader itself because Node 20 workers do not inherit `--import` hooks.
 */
function createThread(workerData: ProgramWorkerData): Worker {
  const here = import.meta.url;
  // No execArgv of the host (inspector ports, loaders, conditions): the worker needs none.
  const options = { workerData, execArgv: [] as string[] };
  if (!here.endsWith('.ts')) return new Worker(new URL('./program-worker.js', here), options);
  const entry = new URL('./program-worker.ts', here).href;
  const code = `import(${JSON.stringify(tsxRegisterUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}

let tsxRegister: string | undefined;

function tsxRegisterUrl(): string {
  if (tsxRegister !== undefined) return tsxRegister;
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } } | string> };
  const api = manifest.exports?.['./esm/api'];
  const target = typeof api === 'object' ? api.import?.default : undefined;
  if (target === undefined) throw new Error('running the program VM from TypeScript sources needs tsx with its esm/api export');
  tsxRegister = pathToFileURL(join(dirname(manifestPath), target)).href;
  return tsxRegister;
}
