import { CodeError } from '@a3s-lab/code-core';
import type { ToolResult } from '@a3s-lab/code-core';
import { jsonSafeStringify } from './json-safe.js';
import { reachedTools } from './nested-calls.js';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import type { ProgramRunLimits } from './program-limits.js';
import { MAX_PROGRAM_WORKERS, ProgramPoolBusyError, programWorkerPool } from './program-worker-pool.js';
import type { ProgramWorker } from './program-worker-pool.js';
import { utf8ByteLength } from '@a3s-lab/code-core/util';
import { MAX_LOG_BYTES, NEVER_CALLABLE_FROM_PROGRAM } from './vm-bounds.js';
import type { ProgramLogEntry, WorkerMessage, WorkerToolResult } from './worker-protocol.js';

export { NEVER_CALLABLE_FROM_PROGRAM } from './vm-bounds.js';
export type { ProgramLogEntry } from './worker-protocol.js';

/**
 * Backstop of the wait for in-flight nested calls after their abort. A run returns only once
 * every nested call it started has settled, so no tool of a finished program is still running;
 * the kernel already bounds an aborted call by its `abortGraceMs` (at most 60 s), so this only
 * matters for a runtime that never settles a call.
 */
const NESTED_SETTLE_BACKSTOP_MS = 60_000;
/**
 * How long a worker asked to stop may take to end its run cleanly (and stay in the pool)
 * before it is terminated. A parked run or a bytecode loop ends in well under this; a long
 * built-in does not, and is cut off here.
 */
const STOP_GRACE_MS = 100;

/** One `ctx` call as reported in `metadata.program.tool_calls`. */
export interface ProgramToolCall {
  readonly tool_name: string;
  readonly success: boolean;
  readonly exit_code: number;
  /** UTF-8 bytes of the tool's output. */
  readonly output_bytes: number;
  readonly duration_ms: number;
}

/** What {@link runProgram} needs. */
export interface ProgramRunRequest {
  /** ES module source text (never bytecode). */
  readonly source: string;
  /** JSON value passed as the script's second argument. */
  readonly inputs: unknown;
  readonly limits: ProgramRunLimits;
  /** Tools the script may call (already without {@link NEVER_CALLABLE_FROM_PROGRAM}). */
  readonly allowedTools: ReadonlySet<string>;
  /** The governed nested call (`context.runtime.invoke`); always runs on the calling thread. */
  readonly invoke: (tool: string, args: unknown, abortSignal: AbortSignal) => Promise<ToolResult>;
  /** Aborts the run (PROGRAM_CANCELLED). */
  readonly abortSignal?: AbortSignal;
  /** Who the run is for (the session id): the worker pool shares its workers fairly between owners. Default `''`. */
  readonly owner?: string;
}

/** The outcome of one run. */
export interface ProgramRunOutcome {
  /** `s<text>` for a string result, `j<json>` otherwise; absent on failure. */
  readonly encodedResult?: string;
  readonly error?: ProgramError;
  /** A host failure that must end the enclosing call too (BUDGET_EXHAUSTED, SESSION_CLOSED). */
  readonly hostError?: unknown;
  readonly toolCalls: readonly ProgramToolCall[];
  readonly logs: readonly ProgramLogEntry[];
  readonly logsTruncated: boolean;
  readonly durationMs: number;
  /** Generation of the VM worker (and so of the QuickJS module) the run used; 0 if none. */
  readonly moduleGeneration: number;
  /** False when the VM was not disposed by itself (a leaked handle, or the worker was terminated). */
  readonly disposedCleanly: boolean;
}

type DoneMessage = Extract<WorkerMessage, { type: 'done' }>;

let runIds = 0;

/**
 * Runs one program in a fresh QuickJS runtime and context inside a VM worker thread. The
 * deadline is kept here: when it passes (or the caller aborts) a worker that does not end its
 * run at once is terminated and replaced, so a long built-in cannot hold the run, and the
 * calling thread's event loop is never blocked by the script.
 */
export async function runProgram(request: ProgramRunRequest): Promise<ProgramRunOutcome> {
  return new ProgramRun(request).run();
}

class ProgramRun {
  readonly #request: ProgramRunRequest;
  readonly #runId = ++runIds;
  readonly #started = performance.now();
  readonly #controller = new AbortController();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #toolCalls: ProgramToolCall[] = [];
  readonly #logs: ProgramLogEntry[] = [];
  #logBytes = 0;
  #logsTruncated = false;
  #callCount = 0;
  #terminal: ProgramError | null = null;
  #hostError: unknown = undefined;
  #finished = false;
  #worker: ProgramWorker | null = null;
  #done: DoneMessage | null = null;
  #exited = false;
  #settle: (() => void) | null = null;
  /** When the deadline passes (`performance.now()` clock); set once a worker took the run. */
  #deadlineAt = Number.POSITIVE_INFINITY;

  constructor(request: ProgramRunRequest) {
    this.#request = request;
  }

  async run(): Promise<ProgramRunOutcome> {
    const signal = this.#request.abortSignal;
    if (signal?.aborted === true) return this.#outcome(undefined, this.#cancelledError());
    let inputsJson: string;
    try {
      inputsJson = JSON.stringify(this.#request.inputs ?? {}) ?? '{}';
    } catch (error) {
      return this.#outcome(undefined, programError('PROGRAM_INVALID_ARGUMENT', `program inputs must be JSON-serialisable: ${error instanceof Error ? error.message : String(error)}`));
    }
    let worker: ProgramWorker;
    const { limits: requested } = this.#request;
    // Loading a module is not the script's time, but waiting for a busy pool is: programs that
    // never end must not starve others past their own deadline.
    const owner = this.#request.owner ?? '';
    const queuedSince = programWorkerPool.saturated(owner) ? performance.now() : null;
    try {
      worker = await programWorkerPool.acquire(signal, requested.timeoutMs, owner);
    } catch (error) {
      if (signal !== undefined && error === signal.reason) return this.#outcome(undefined, this.#cancelledError());
      if (error instanceof ProgramPoolBusyError) {
        return this.#outcome(undefined, programError('PROGRAM_BUSY', `${error.message}; the program did not run`, { limit: requested.timeoutMs, workers: MAX_PROGRAM_WORKERS }));
      }
      return this.#outcome(undefined, programError('PROGRAM_VM_CRASH', `the program VM could not start: ${error instanceof Error ? error.message : String(error)}`));
    }
    this.#worker = worker;
    const { limits } = this.#request;
    const ended = new Promise<void>((resolve) => {
      this.#settle = resolve;
    });
    const remainingMs = Math.max(1, limits.timeoutMs - (queuedSince === null ? 0 : performance.now() - queuedSince));
    this.#deadlineAt = performance.now() + remainingMs;
    const timer = setTimeout(() => this.#end(this.#timeoutError()), remainingMs);
    const onAbort = (): void => this.#end(this.#cancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.begin(
      {
        type: 'run',
        runId: this.#runId,
        source: this.#request.source,
        inputsJson,
        deadline: Date.now() + remainingMs,
        timeoutMs: remainingMs,
        maxToolCalls: limits.maxToolCalls,
        maxOutputBytes: limits.maxOutputBytes,
        allowedTools: [...this.#request.allowedTools],
      },
      { onMessage: (message) => this.#onMessage(message), onExit: () => this.#onExit() },
    );
    try {
      await ended;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.#finished = true;
      this.#controller.abort();
    }
    await Promise.all([this.#retireWorker(worker), this.#settleInFlight()]);
    const done = this.#done;
    const error = this.#terminal ?? done?.error ?? null;
    if (done !== null && error === null) return this.#outcome(done.encodedResult, null, worker.generation, done.disposedCleanly);
    return this.#outcome(undefined, error ?? programError('PROGRAM_VM_CRASH', 'the program VM ended without a result'), worker.generation, done?.disposedCleanly ?? false);
  }

  #outcome(encodedResult: string | undefined, error: ProgramError | null, moduleGeneration = 0, disposedCleanly = true): ProgramRunOutcome {
    return {
      ...(error === null && encodedResult !== undefined ? { encodedResult } : {}),
      ...(error === null ? {} : { error }),
      ...(this.#hostError === undefined ? {} : { hostError: this.#hostError }),
      toolCalls: this.#toolCalls,
      logs: this.#logs,
      logsTruncated: this.#logsTruncated,
      durationMs: Math.round(performance.now() - this.#started),
      moduleGeneration,
      disposedCleanly,
    };
  }

  #onMessage(message: WorkerMessage): void {
    if (message.type === 'ready' || message.runId !== this.#runId) return;
    switch (message.type) {
      case 'call':
        this.#onCall(message.callId, message.tool, message.args);
        return;
      case 'logs':
        this.#onLogs(message.entries, message.truncated);
        return;
      case 'done':
        this.#done = message;
        this.#settle?.();
        return;
    }
  }

  #onExit(): void {
    this.#exited = true;
    if (this.#done === null) this.#end(programError('PROGRAM_VM_CRASH', 'the program VM failed and was replaced'));
  }

  #onCall(callId: number, tool: string, args: Record<string, unknown>): void {
    if (this.#terminal !== null || this.#finished) return;
    // The timer may not have fired yet (a busy host thread runs it late): a call that arrives
    // after the deadline ends the run instead of running its tool late.
    if (performance.now() >= this.#deadlineAt) {
      this.#end(this.#timeoutError());
      return;
    }
    // The worker already applied the allow-list and the count; checking again here keeps a
    // broken worker from reaching a tool the caller did not allow (a batch's children included).
    const reached = reachedTools(tool, args);
    this.#callCount += reached === null ? 1 : reached.length;
    const refused = reached === null || [tool, ...reached].some((name) => !this.#request.allowedTools.has(name) || NEVER_CALLABLE_FROM_PROGRAM.includes(name));
    if (refused || this.#callCount > this.#request.limits.maxToolCalls) {
      this.#end(programError('PROGRAM_VM_CRASH', `the program VM asked for a call it may not make ('${tool}')`));
      return;
    }
    const worker = this.#worker;
    const started = performance.now();
    let invoked: Promise<ToolResult>;
    try {
      invoked = this.#request.invoke(tool, args, this.#controller.signal);
    } catch (error) {
      // Runs inside the worker's message listener: a throw here would be an uncaught exception
      // of the host process. It fails this call like a rejection does.
      invoked = Promise.reject(error);
    }
    const call = invoked.then(
      (result) => {
        this.#record(tool, result.exitCode, utf8ByteLength(result.output), started);
        if (!this.#finished && worker !== null) postResult(worker, this.#runId, callId, result);
      },
      (error: unknown) => {
        if (CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || CodeError.hasCode(error, 'SESSION_CLOSED')) {
          this.#hostError = error;
          this.#end(programError('PROGRAM_CANCELLED', `program ended: ${(error as CodeError).message}`, { cause: (error as CodeError).code }));
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        this.#record(tool, 1, utf8ByteLength(message), started);
        if (!this.#finished) worker?.post({ type: 'result', runId: this.#runId, callId, thrown: message });
      },
    );
    this.#inFlight.add(call);
    void call.finally(() => this.#inFlight.delete(call));
  }

  #onLogs(entries: readonly ProgramLogEntry[], truncated: boolean): void {
    if (truncated) this.#logsTruncated = true;
    for (const entry of entries) {
      // The worker bounds its lines already; the host keeps its own bound all the same.
      const bytes = utf8ByteLength(entry.message);
      if (this.#logBytes + bytes > MAX_LOG_BYTES) {
        this.#logsTruncated = true;
        return;
      }
      this.#logBytes += bytes;
      this.#logs.push({ level: String(entry.level), message: String(entry.message) });
    }
  }

  #record(tool: string, exitCode: number, bytes: number, started: number): void {
    if (this.#finished) return;
    this.#toolCalls.push({ tool_name: tool, success: exitCode === 0, exit_code: exitCode, output_bytes: bytes, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 });
  }

  /** Sets the run's terminal error (first one wins), asks the worker to stop, ends the wait. */
  #end(error: ProgramError): void {
    if (this.#terminal === null) this.#terminal = error;
    if (this.#done === null && !this.#exited) this.#worker?.requestStop(this.#runId);
    this.#settle?.();
  }

  /**
   * Puts the worker back in the pool once its run reported done; a worker still busy after
   * {@link STOP_GRACE_MS} (a long built-in) is terminated, as is one whose module failed.
   */
  async #retireWorker(worker: ProgramWorker): Promise<void> {
    if (this.#done === null && !this.#exited) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#settle = resolve;
        timer = setTimeout(resolve, STOP_GRACE_MS);
      });
      clearTimeout(timer);
    }
    this.#settle = null;
    const done = this.#done;
    if (done === null || done.poisoned || this.#exited) programWorkerPool.discard(worker);
    else programWorkerPool.release(worker);
  }

  #timeoutError(): ProgramError {
    const limit = this.#request.limits.timeoutMs;
    return programError('PROGRAM_TIMEOUT', `program exceeded its ${limit} ms timeout`, { limit });
  }

  #cancelledError(): ProgramError {
    return programError('PROGRAM_CANCELLED', 'program cancelled by its caller');
  }

  async #settleInFlight(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, NESTED_SETTLE_BACKSTOP_MS);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
    clearTimeout(timer);
  }
}

/** Sends a call's result to the worker: the fields the guest's projection reads. */
function postResult(worker: ProgramWorker, runId: number, callId: number, result: ToolResult): void {
  const base: WorkerToolResult = { name: result.name, output: result.output, exitCode: result.exitCode, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }) };
  try {
    worker.post({ type: 'result', runId, callId, result: result.metadata === undefined ? base : { ...base, metadata: result.metadata } });
  } catch {
    // Metadata holding something structured clone refuses (a function): the guest gets its JSON view.
    const metadata = JSON.parse(jsonSafeStringify(result.metadata ?? {})) as Record<string, unknown>;
    worker.post({ type: 'result', runId, callId, result: { ...base, metadata } });
  }
}
