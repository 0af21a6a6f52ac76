import { Scope } from 'quickjs-emscripten-core';
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { isHostHelper, planHelperCall } from './ctx-helpers.js';
import type { HelperReply } from './ctx-helpers.js';
import { GUEST_PRELUDE_SOURCE, RUN_CAPTURE_EXPORT, RUN_CAPTURE_TRAILER } from './guest-prelude.js';
import { classifyGuestError, describeGuestError } from './guest-error.js';
import { programError } from './program-error-code.js';
import type { ProgramError } from './program-error-code.js';
import type { QuickJsHost } from './quickjs-host.js';
import { utf8ByteLength } from '@a3s-lab/code-core/util';
import { jsonSafeStringify } from './json-safe.js';
import { reachedTools } from './nested-calls.js';
import { MAX_LOG_BYTES, MAX_RESULT_ARTIFACT_BYTES, NEVER_CALLABLE_FROM_PROGRAM, VM_MAX_STACK_SIZE, VM_MEMORY_LIMIT_BYTES } from './vm-bounds.js';
import type { ProgramLogEntry, ProgramRunSpec, WorkerToolResult } from './worker-protocol.js';

/** What the host answered for one call: the tool's result, or a host-side failure message. */
export type HostCallAnswer = { readonly result: WorkerToolResult } | { readonly thrown: string };

/** What {@link VmRun} needs. It runs inside a VM worker; the host owns tools and the wall clock. */
export interface VmRunRequest extends ProgramRunSpec {
  readonly allowedTools: ReadonlySet<string>;
  /** True once the host asked the run to stop (checked by the interrupt handler). */
  readonly stopRequested: () => boolean;
  /** Sends one allowed, counted call to the host. Never rejects. */
  readonly callHost: (tool: string, args: Record<string, unknown>) => Promise<HostCallAnswer>;
  /** Receives each kept `console.*` line (the bound is applied here). */
  readonly log: (entry: ProgramLogEntry) => void;
}

/** The worker-side outcome of one run. */
export interface VmRunOutcome {
  readonly encodedResult?: string;
  readonly error?: ProgramError;
  readonly logsTruncated: boolean;
  readonly disposedCleanly: boolean;
}

/**
 * One program in a fresh QuickJS runtime and context of the worker's module, disposed before
 * {@link VmRun.run} resolves. Only `ctx` planning, the allow-list and the call count live here;
 * each counted call goes to the host, which runs it through the governed kernel path.
 */
export class VmRun {
  readonly #host: QuickJsHost;
  readonly #request: VmRunRequest;
  readonly #scope = new Scope();
  readonly #pending = new Set<QuickJSDeferredPromise>();
  #logBytes = 0;
  #logsTruncated = false;
  #callCount = 0;
  #terminal: ProgramError | null = null;
  #vmBroken = false;
  #finished = false;
  #wake: (() => void) | null = null;
  #wakePending = false;
  #rt!: QuickJSRuntime;
  #vm!: QuickJSContext;

  constructor(host: QuickJsHost, request: VmRunRequest) {
    this.#host = host;
    this.#request = request;
  }

  async run(): Promise<VmRunOutcome> {
    const offPoison = this.#host.onPoison(() => {
      this.#vmBroken = true;
      this.#end(programError('PROGRAM_VM_CRASH', 'the program VM failed and was replaced'));
    });
    let encodedResult: string | undefined;
    try {
      encodedResult = await this.#execute();
    } finally {
      offPoison();
      this.#finished = true;
    }
    const disposedCleanly = this.#dispose();
    const error = this.#terminal;
    return {
      ...(error === null && encodedResult !== undefined ? { encodedResult } : {}),
      ...(error === null ? {} : { error }),
      logsTruncated: this.#logsTruncated,
      disposedCleanly,
    };
  }

  /** True once a `console.*` line was dropped for the {@link MAX_LOG_BYTES} bound. */
  get logsTruncated(): boolean {
    return this.#logsTruncated;
  }

  /** Ends the run on the host's request (deadline, cancel, a host failure); the host knows why. */
  stop(): void {
    this.#end(programError('PROGRAM_CANCELLED', 'program stopped by the host'));
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
    // The interrupt handler only runs while bytecode runs, and only every ~10000 ticks; the
    // host's timer (which terminates the worker) covers parked awaits and long built-ins. It
    // keeps answering true once the run is over, so a script catching the interrupt in a loop
    // is interrupted again at once.
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
    if (Date.now() >= this.#request.deadline) {
      const limit = this.#request.timeoutMs;
      this.#end(programError('PROGRAM_TIMEOUT', `program exceeded its ${limit} ms timeout`, { limit }));
      return true;
    }
    if (this.#request.stopRequested()) {
      this.stop();
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
    const inputsJson = this.#scope.manage(vm.newString(this.#request.inputsJson));
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
      // Still pending with no ctx call in flight and the job queue drained (nor a wake-up due):
      // nothing can ever settle it. End now rather than hold the worker to the deadline.
      if (this.#pending.size === 0 && !this.#wakePending && !this.#rt.hasPendingJob()) {
        this.#end(programError('PROGRAM_DEADLOCK', 'program awaits a promise nothing can settle (no ctx call pending, no job queued); it was ended at once'));
        return undefined;
      }
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
      // Refuse to copy an absurdly long result out of the VM before measuring it.
      const length = vm.getNumber(this.#scope.manage(vm.getProp(handle, 'length')));
      if (length > MAX_RESULT_ARTIFACT_BYTES) {
        const limit = this.#request.maxOutputBytes;
        this.#end(programError('PROGRAM_OUTPUT_LIMIT', `program result is larger than ${limit} bytes`, { limit, chars: length }));
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
    // A call planned after the deadline is never sent (the interrupt handler may not have run yet).
    if (this.#shouldInterrupt()) return deferred.handle;
    const reached = reachedTools(plan.tool, plan.args);
    const refusal = reached === null ? `ctx.tool('${plan.tool}'): every batch invocation needs a string tool name` : this.#refusal([plan.tool, ...reached]);
    if (refusal !== undefined) {
      this.#reply(deferred, { ok: false, error: { message: refusal, tool: plan.tool } });
      return deferred.handle;
    }
    // A batch costs one call per tool it runs.
    this.#callCount += (reached as readonly string[]).length;
    if (this.#callCount > this.#request.maxToolCalls) {
      const limit = this.#request.maxToolCalls;
      this.#end(programError('PROGRAM_TOOL_CALL_LIMIT', `program tried more than ${limit} tool calls`, { limit }));
      return deferred.handle;
    }
    void this.#request.callHost(plan.tool, plan.args).then((answer) => {
      if ('result' in answer) this.#reply(deferred, plan.project(answer.result as Parameters<typeof plan.project>[0]));
      else this.#reply(deferred, { ok: false, error: { message: answer.thrown, tool: plan.tool, exitCode: 1 } });
    });
    return deferred.handle;
  }

  /** Why a call reaching `tools` (the tool, and a batch's children) is refused; undefined if it is not. */
  #refusal(tools: readonly string[]): string | undefined {
    for (const tool of tools) {
      if (NEVER_CALLABLE_FROM_PROGRAM.includes(tool)) return `tool '${tool}' can never be called from inside a program`;
      if (!this.#request.allowedTools.has(tool)) {
        return `tool '${tool}' is not allowed in this program (allowed: ${[...this.#request.allowedTools].join(', ') || 'none'})`;
      }
    }
    return undefined;
  }

  /** Settles a guest promise with a JSON reply; the driver pumps the jobs it queued. */
  #reply(deferred: QuickJSDeferredPromise, reply: HelperReply): void {
    if (this.#finished || this.#vmBroken || !deferred.alive) return;
    this.#enter(() => {
      // The reply carries a tool's metadata, which may hold what JSON refuses (a BigInt, a cycle).
      const text = this.#vm.newString(jsonSafeStringify(reply));
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
    const bytes = utf8ByteLength(message);
    if (this.#logBytes + bytes > MAX_LOG_BYTES) {
      this.#logsTruncated = true;
      return;
    }
    this.#logBytes += bytes;
    this.#request.log({ level, message });
  }

  /** Runs `fn` against the VM; a host-level failure inside WebAssembly poisons the module. */
  #enter<T>(fn: () => T): T | undefined {
    if (this.#vmBroken) return undefined;
    try {
      return fn();
    } catch (error) {
      // A refused heap growth can surface as a failed copy into WebAssembly memory (a huge
      // input string): that is the memory limit, though the module is retired all the same.
      if (this.#host.takeMemoryRefusal()) this.#end(memoryError());
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
      // A handle left alive makes JS_FreeRuntime abort the module: the worker is retired.
      this.#host.poison();
      return false;
    }
  }
}

function memoryError(): ProgramError {
  return programError('PROGRAM_MEMORY_LIMIT', `program exceeded the VM memory limit of ${VM_MEMORY_LIMIT_BYTES} bytes`, { limit: VM_MEMORY_LIMIT_BYTES });
}
