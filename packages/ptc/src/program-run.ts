import { CodeError } from '@a3s-lab/code-core';
import type { ToolResult } from '@a3s-lab/code-core';
import { Scope } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import { isHostHelper, planHelperCall } from './ctx-helpers.js';
import type { HelperReply } from './ctx-helpers.js';
import { GUEST_PRELUDE_SOURCE, RUN_CAPTURE_EXPORT, RUN_CAPTURE_TRAILER } from './guest-prelude.js';
import { classifyGuestError, describeGuestError } from './guest-error.js';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import { MAX_RESULT_ARTIFACT_BYTES, ProgramLimits, VM_MAX_STACK_SIZE, VM_MEMORY_LIMIT_BYTES } from './program-limits.js';
import type { ProgramRunLimits } from './program-limits.js';
import { acquireQuickJsHost } from './quickjs-host.js';
import type { QuickJsHost } from './quickjs-host.js';
import { utf8Length } from './utf8.js';

/** Tools a program can never call, whatever its allow-list says. */
export const NEVER_CALLABLE_FROM_PROGRAM: readonly string[] = Object.freeze(['program', 'dynamic_workflow', 'parallel_task']);

/** How long in-flight nested calls get to settle after their abort, before the run returns. */
const NESTED_SETTLE_GRACE_MS = 250;

/** One `ctx` call as reported in `metadata.program.tool_calls`. */
export interface ProgramToolCall {
  readonly tool: string;
  readonly success: boolean;
  readonly exit_code: number;
  /** UTF-8 bytes of the tool's output. */
  readonly bytes: number;
  readonly duration_ms: number;
}

/** One `console.*` line of the script. */
export interface ProgramLogEntry {
  readonly level: string;
  readonly message: string;
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
  /** The governed nested call (`context.runtime.invoke`). */
  readonly invoke: (tool: string, args: unknown, abortSignal: AbortSignal) => Promise<ToolResult>;
  /** Aborts the run (PROGRAM_CANCELLED). */
  readonly abortSignal?: AbortSignal;
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
  /** Generation of the QuickJS module the run used. */
  readonly moduleGeneration: number;
  /** False when disposing the VM failed (a leaked handle); the module was then replaced. */
  readonly disposedCleanly: boolean;
}

/** Runs one program in a fresh QuickJS runtime and context, disposed before this resolves. */
export async function runProgram(request: ProgramRunRequest): Promise<ProgramRunOutcome> {
  const host = await acquireQuickJsHost();
  return new ProgramRun(host, request).run();
}

class ProgramRun {
  readonly #host: QuickJsHost;
  readonly #request: ProgramRunRequest;
  readonly #started = performance.now();
  readonly #deadline: number;
  readonly #controller = new AbortController();
  readonly #scope = new Scope();
  readonly #pending = new Set<QuickJSDeferredPromise>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #toolCalls: ProgramToolCall[] = [];
  readonly #logs: ProgramLogEntry[] = [];
  #logBytes = 0;
  #logsTruncated = false;
  #callCount = 0;
  #terminal: ProgramError | null = null;
  #hostError: unknown = undefined;
  #vmBroken = false;
  #finished = false;
  #wake: (() => void) | null = null;
  #wakePending = false;
  #rt!: QuickJSRuntime;
  #vm!: QuickJSContext;

  constructor(host: QuickJsHost, request: ProgramRunRequest) {
    this.#host = host;
    this.#request = request;
    this.#deadline = Date.now() + request.limits.timeoutMs;
  }

  async run(): Promise<ProgramRunOutcome> {
    const timer = setTimeout(() => this.#end(this.#timeoutError()), this.#request.limits.timeoutMs);
    const onAbort = (): void => this.#end(programError('PROGRAM_CANCELLED', 'program cancelled by its caller'));
    this.#request.abortSignal?.addEventListener('abort', onAbort, { once: true });
    const offPoison = this.#host.onPoison(() => {
      this.#vmBroken = true;
      this.#end(programError('PROGRAM_VM_CRASH', 'the program VM failed and was replaced'));
    });
    let encodedResult: string | undefined;
    try {
      if (this.#request.abortSignal?.aborted === true) onAbort();
      else encodedResult = await this.#execute();
    } finally {
      clearTimeout(timer);
      this.#request.abortSignal?.removeEventListener('abort', onAbort);
      offPoison();
      this.#finished = true;
      this.#controller.abort();
    }
    const disposedCleanly = this.#dispose();
    await this.#settleInFlight();
    const error = this.#terminal;
    return {
      ...(error === null && encodedResult !== undefined ? { encodedResult } : {}),
      ...(error === null ? {} : { error }),
      ...(this.#hostError === undefined ? {} : { hostError: this.#hostError }),
      toolCalls: this.#toolCalls,
      logs: this.#logs,
      logsTruncated: this.#logsTruncated,
      durationMs: Math.round(performance.now() - this.#started),
      moduleGeneration: this.#host.generation,
      disposedCleanly,
    };
  }

  /** Evaluates the module, calls `run(ctx, inputs)`, drives its promise; the encoded result. */
  async #execute(): Promise<string | undefined> {
    if (!this.#enter(() => this.#createVm())) return undefined;
    const vm = this.#vm;
    const bootstrap = this.#enter(() => this.#bootstrap());
    if (bootstrap === undefined) return undefined;
    const namespace = await this.#evaluateModule();
    if (namespace === undefined) return undefined;
    const entry = this.#enter(() => this.#findEntry(namespace));
    if (entry === undefined) return undefined;
    const ctx = this.#enter(() => this.#scope.manage(vm.getProp(bootstrap, 'ctx')));
    const inputs = this.#enter(() => this.#scope.manage(vm.getProp(bootstrap, 'inputs')));
    if (ctx === undefined || inputs === undefined) return undefined;
    const called = this.#enter(() => vm.callFunction(entry, vm.undefined, ctx, inputs));
    if (called === undefined) return undefined;
    if (called.error !== undefined) {
      this.#failWith(this.#scope.manage(called.error), 'run');
      return undefined;
    }
    const settled = await this.#settle(this.#scope.manage(called.value));
    if (settled === undefined) return undefined;
    if ('error' in settled) {
      this.#failWith(settled.error, 'run');
      return undefined;
    }
    return this.#encodeResult(bootstrap, settled.value);
  }

  #createVm(): true {
    const rt = this.#host.module.newRuntime();
    this.#rt = rt;
    rt.setMemoryLimit(VM_MEMORY_LIMIT_BYTES);
    rt.setMaxStackSize(VM_MAX_STACK_SIZE);
    // The interrupt handler only runs while bytecode runs; the host timer covers parked awaits.
    // It keeps answering true once the run is over, so a script catching the interrupt in a
    // loop is interrupted again at once.
    rt.setInterruptHandler(() => this.#shouldInterrupt());
    rt.setModuleLoader((moduleName) => ({ error: new Error(`imports are not available in programs (tried '${moduleName}'); use ctx`) }));
    this.#vm = rt.newContext();
    return true;
  }

  #shouldInterrupt(): boolean {
    if (this.#terminal !== null) return true;
    if (this.#host.takeMemoryRefusal()) {
      this.#end(memoryError());
      return true;
    }
    if (Date.now() >= this.#deadline) {
      this.#end(this.#timeoutError());
      return true;
    }
    return false;
  }

  #bootstrap(): QuickJSHandle | undefined {
    const vm = this.#vm;
    const prelude = vm.evalCode(GUEST_PRELUDE_SOURCE, 'a3s-prelude.js', { type: 'global', strict: true });
    if (prelude.error !== undefined) {
      this.#failWith(this.#scope.manage(prelude.error), 'module');
      return undefined;
    }
    const factory = this.#scope.manage(prelude.value);
    const hostCall = this.#scope.manage(vm.newFunction('hostCall', (helper, payload) => this.#onHostCall(helper, payload)));
    const hostLog = this.#scope.manage(vm.newFunction('hostLog', (level, message) => this.#onHostLog(level, message)));
    const inputsJson = this.#scope.manage(vm.newString(JSON.stringify(this.#request.inputs ?? {})));
    const made = vm.callFunction(factory, vm.undefined, hostCall, hostLog, inputsJson);
    if (made.error !== undefined) {
      this.#failWith(this.#scope.manage(made.error), 'module');
      return undefined;
    }
    return this.#scope.manage(made.value);
  }

  async #evaluateModule(): Promise<QuickJSHandle | undefined> {
    const evaluated = this.#enter(() => this.#vm.evalCode(this.#request.source + RUN_CAPTURE_TRAILER, 'program.mjs', { type: 'module', strict: true }));
    if (evaluated === undefined) return undefined;
    if (evaluated.error !== undefined) {
      this.#failWith(this.#scope.manage(evaluated.error), 'module');
      return undefined;
    }
    const value = this.#scope.manage(evaluated.value);
    // A module with top-level await evaluates to a promise of its namespace.
    const settled = await this.#settle(value);
    if (settled === undefined) return undefined;
    if ('error' in settled) {
      this.#failWith(settled.error, 'module');
      return undefined;
    }
    return settled.value;
  }

  #findEntry(namespace: QuickJSHandle): QuickJSHandle | undefined {
    const vm = this.#vm;
    for (const key of ['default', 'run', RUN_CAPTURE_EXPORT]) {
      const candidate = this.#scope.manage(vm.getProp(namespace, key));
      if (vm.typeof(candidate) === 'function') return candidate;
      if (key === 'default' && vm.typeof(candidate) !== 'undefined') break;
    }
    this.#end(programError('PROGRAM_INVALID_EXPORT', 'program must define `export default async function run(ctx, inputs)` (or `async function run(ctx, inputs)`)'));
    return undefined;
  }

  /** Drives `promise` to a settled state, pumping jobs after every host settle. */
  async #settle(promise: QuickJSHandle): Promise<{ value: QuickJSHandle } | { error: QuickJSHandle } | undefined> {
    for (;;) {
      if (this.#terminal !== null) return undefined;
      const state = this.#enter(() => {
        this.#pumpJobs();
        return this.#terminal === null ? this.#vm.getPromiseState(promise) : undefined;
      });
      if (state === undefined || this.#terminal !== null) {
        if (state?.type === 'fulfilled' && state.notAPromise !== true) state.value.dispose();
        if (state?.type === 'rejected') state.error.dispose();
        return undefined;
      }
      if (state.type === 'fulfilled') return { value: state.notAPromise === true ? promise : this.#scope.manage(state.value) };
      if (state.type === 'rejected') return { error: this.#scope.manage(state.error) };
      await this.#nextWake();
    }
  }

  #pumpJobs(): void {
    const result = this.#rt.executePendingJobs();
    if (result.error !== undefined) {
      // Only an uncatchable exception (our interrupt) escapes a job; rejections stay in promises.
      if (this.#terminal === null) this.#failWith(result.error, 'run');
      result.error.dispose();
    }
  }

  #encodeResult(bootstrap: QuickJSHandle, value: QuickJSHandle): string | undefined {
    const vm = this.#vm;
    return this.#enter(() => {
      const encode = this.#scope.manage(vm.getProp(bootstrap, 'encodeResult'));
      const encoded = vm.callFunction(encode, vm.undefined, value);
      if (encoded.error !== undefined) {
        const info = describeGuestError(vm, encoded.error);
        encoded.error.dispose();
        const classified = classifyGuestError(info, 'run');
        this.#end(classified.code === 'PROGRAM_RUNTIME_ERROR' ? programError('PROGRAM_INVALID_RESULT', `program result is not JSON-serialisable: ${info.message}`, { ...info }) : classified);
        return undefined;
      }
      const handle = this.#scope.manage(encoded.value);
      // Refuse to copy an absurdly long result into the host before measuring it.
      const length = vm.getNumber(this.#scope.manage(vm.getProp(handle, 'length')));
      if (length > MAX_RESULT_ARTIFACT_BYTES) {
        this.#end(programError('PROGRAM_OUTPUT_LIMIT', `program result is larger than ${this.#request.limits.maxOutputBytes} bytes`, { limit: this.#request.limits.maxOutputBytes, chars: length }));
        return undefined;
      }
      return vm.getString(handle);
    });
  }

  #onHostCall(helperHandle: QuickJSHandle, payloadHandle: QuickJSHandle): QuickJSHandle {
    const vm = this.#vm;
    const deferred = vm.newPromise();
    this.#pending.add(deferred);
    if (this.#terminal !== null) return deferred.handle;
    const helper = vm.typeof(helperHandle) === 'string' ? vm.getString(helperHandle) : '';
    const payload = vm.typeof(payloadHandle) === 'string' ? vm.getString(payloadHandle) : 'null';
    let params: unknown;
    try {
      params = JSON.parse(payload);
    } catch {
      params = null;
    }
    const plan = isHostHelper(helper) ? planHelperCall(helper, Array.isArray(params) ? params : []) : `ctx.${helper} is not a ctx method`;
    if (typeof plan === 'string') {
      this.#reply(deferred, { ok: false, error: { message: plan } });
      return deferred.handle;
    }
    const refusal = this.#refusal(plan.tool);
    if (refusal !== undefined) {
      this.#reply(deferred, { ok: false, error: { message: refusal, tool: plan.tool } });
      return deferred.handle;
    }
    this.#callCount += 1;
    if (this.#callCount > this.#request.limits.maxToolCalls) {
      const limit = this.#request.limits.maxToolCalls;
      this.#end(programError('PROGRAM_TOOL_CALL_LIMIT', `program tried more than ${limit} tool calls`, { limit }));
      return deferred.handle;
    }
    const started = performance.now();
    const call = this.#request.invoke(plan.tool, plan.args, this.#controller.signal).then(
      (result) => {
        this.#record(plan.tool, result.exitCode, utf8Length(result.output), started);
        this.#reply(deferred, plan.project(result));
      },
      (error: unknown) => {
        if (CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || CodeError.hasCode(error, 'SESSION_CLOSED')) {
          this.#hostError = error;
          this.#end(programError('PROGRAM_CANCELLED', `program ended: ${(error as CodeError).message}`, { cause: (error as CodeError).code }));
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        this.#record(plan.tool, 1, utf8Length(message), started);
        this.#reply(deferred, { ok: false, error: { message, tool: plan.tool, exitCode: 1 } });
      },
    );
    this.#inFlight.add(call);
    void call.finally(() => this.#inFlight.delete(call));
    return deferred.handle;
  }

  #refusal(tool: string): string | undefined {
    if (NEVER_CALLABLE_FROM_PROGRAM.includes(tool)) return `tool '${tool}' can never be called from inside a program`;
    if (!this.#request.allowedTools.has(tool)) {
      return `tool '${tool}' is not allowed in this program (allowed: ${[...this.#request.allowedTools].join(', ') || 'none'})`;
    }
    return undefined;
  }

  #record(tool: string, exitCode: number, bytes: number, started: number): void {
    if (this.#finished) return;
    this.#toolCalls.push({ tool, success: exitCode === 0, exit_code: exitCode, bytes, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 });
  }

  /** Settles a guest promise with a JSON reply; the driver pumps the jobs it queued. */
  #reply(deferred: QuickJSDeferredPromise, reply: HelperReply): void {
    if (this.#finished || this.#vmBroken || !deferred.alive) return;
    this.#enter(() => {
      const text = this.#vm.newString(JSON.stringify(reply));
      deferred.resolve(text);
      text.dispose();
    });
    this.#pending.delete(deferred);
    this.#signalWake();
  }

  #onHostLog(levelHandle: QuickJSHandle, messageHandle: QuickJSHandle): void {
    if (this.#logsTruncated) return;
    const vm = this.#vm;
    const level = vm.typeof(levelHandle) === 'string' ? vm.getString(levelHandle) : 'log';
    const message = vm.typeof(messageHandle) === 'string' ? vm.getString(messageHandle) : '';
    const bytes = utf8Length(message);
    if (this.#logBytes + bytes > ProgramLimits.maxLogBytes) {
      this.#logsTruncated = true;
      return;
    }
    this.#logBytes += bytes;
    this.#logs.push({ level, message });
  }

  /** Runs `fn` against the VM; a host-level failure inside WebAssembly poisons the module. */
  #enter<T>(fn: () => T): T | undefined {
    if (this.#vmBroken) return undefined;
    try {
      return fn();
    } catch (error) {
      this.#crash(error);
      return undefined;
    } finally {
      if (this.#host.takeMemoryRefusal()) this.#end(memoryError());
    }
  }

  #crash(error: unknown): void {
    const overflow = error instanceof RangeError && /call stack/i.test(error.message);
    this.#end(
      overflow
        ? programError('PROGRAM_STACK_OVERFLOW', `program exhausted the host stack (VM stack limit ${VM_MAX_STACK_SIZE} bytes)`, { limit: VM_MAX_STACK_SIZE })
        : programError('PROGRAM_VM_CRASH', `the program VM failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.#vmBroken = true;
    this.#host.poison();
  }

  #failWith(errorHandle: QuickJSHandle, phase: 'module' | 'run'): void {
    if (this.#terminal !== null) return;
    const info = this.#enter(() => describeGuestError(this.#vm, errorHandle));
    if (info !== undefined && this.#terminal === null) this.#end(classifyGuestError(info, phase));
  }

  /** Sets the run's terminal error (first one wins) and wakes the driver. */
  #end(error: ProgramError): void {
    if (this.#terminal === null) this.#terminal = error;
    this.#signalWake();
  }

  #timeoutError(): ProgramError {
    const limit = this.#request.limits.timeoutMs;
    return programError('PROGRAM_TIMEOUT', `program exceeded its ${limit} ms timeout`, { limit });
  }

  #signalWake(): void {
    const wake = this.#wake;
    if (wake === null) {
      this.#wakePending = true;
      return;
    }
    this.#wake = null;
    wake();
  }

  #nextWake(): Promise<void> {
    if (this.#wakePending) {
      this.#wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /** Disposes every handle, the context and the runtime. False when QuickJS reported a leak. */
  #dispose(): boolean {
    if (this.#vmBroken) return false;
    try {
      for (const deferred of this.#pending) deferred.dispose();
      this.#pending.clear();
      this.#scope.dispose();
      this.#vm?.dispose();
      this.#rt?.dispose();
      return true;
    } catch {
      // A handle left alive makes JS_FreeRuntime abort the module: replace it.
      this.#host.poison();
      return false;
    }
  }

  async #settleInFlight(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, NESTED_SETTLE_GRACE_MS);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
    clearTimeout(timer);
  }
}

function memoryError(): ProgramError {
  return programError('PROGRAM_MEMORY_LIMIT', `program exceeded the VM memory limit of ${VM_MEMORY_LIMIT_BYTES} bytes`, { limit: VM_MEMORY_LIMIT_BYTES });
}
