import { CodeError } from '../../errors/code-error.js';
import type { ToolOutput } from '../../tools/tool-result.js';
import type { AbortableScope, InvocationCall } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import type { KernelToolContext } from '../kernel-tool-context.js';
import { isReconciliationError } from './journal.js';
import { abortedOutput, mapToolError } from './map-tool-error.js';

/** setTimeout's largest delay; a longer deadline would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

function checkOutput(value: unknown, call: InvocationCall): ToolOutput {
  if (typeof value === 'object' && value !== null && typeof (value as ToolOutput).output === 'string') return value as ToolOutput;
  return { output: `Tool '${call.toolName}' returned an invalid result (expected an object with a string 'output')`, exitCode: 1 };
}

/**
 * The execution scope of one running call: settles exactly once, with the tool's result, its
 * mapped error, or — when the call was aborted and the tool did not settle within the grace —
 * the abort result. A class rather than a nest of closures because it is on the hot path.
 */
class ExecutionScope implements AbortableScope {
  #done = false;
  #grace: ReturnType<typeof setTimeout> | undefined;
  #resolve: ((output: ToolOutput) => void) | null = null;
  #reject: ((error: unknown) => void) | null = null;
  readonly #deps: KernelDeps;
  readonly #call: InvocationCall;
  readonly #timeoutMs: number;

  constructor(deps: KernelDeps, call: InvocationCall, timeoutMs: number) {
    this.#deps = deps;
    this.#call = call;
    this.#timeoutMs = timeoutMs;
  }

  run(context: KernelToolContext): Promise<ToolOutput> {
    const call = this.#call;
    const result = new Promise<ToolOutput>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    call.scope = this;
    call.timeoutMs = this.#timeoutMs;
    if (this.#timeoutMs < MAX_TIMER_MS) {
      call.deadlineAtMs = Date.now() + this.#timeoutMs;
      this.#deps.deadlines.add(call);
    }
    let pending: Promise<ToolOutput>;
    try {
      pending = call.tool!.execute(call.args, context);
    } catch (error) {
      this.error(error);
      return result;
    }
    if (typeof (pending as Partial<Promise<ToolOutput>> | null)?.then !== 'function') this.value(pending);
    else {
      pending.then(
        (value) => this.value(value),
        (error: unknown) => this.error(error),
      );
    }
    return result;
  }

  /** The call was aborted: give the tool `abortGraceMs` to settle, then stop waiting. */
  aborted(): void {
    if (this.#done || this.#grace !== undefined) return;
    this.#grace = setTimeout(() => this.#finish(abortedOutput(this.#call, this.#timeoutMs, this.#deps.abortGraceMs, true)), this.#deps.abortGraceMs);
  }

  value(value: unknown): void {
    const call = this.#call;
    const output = checkOutput(value, call);
    this.#finish(call.aborted ? abortedOutput(call, this.#timeoutMs, this.#deps.abortGraceMs, false, output) : output);
  }

  error(error: unknown): void {
    // Session-level stops raised inside a tool (a program's or batch's nested call ran out of
    // budget, the session closed, a subagent's journaled call needs reconciliation) end the run
    // like the kernel's own checks do, not as a tool failure.
    if (CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || CodeError.hasCode(error, 'SESSION_CLOSED') || isReconciliationError(error)) {
      if (this.#settle()) this.#reject!(error);
      return;
    }
    this.#finish(mapToolError(error, this.#call, this.#timeoutMs, this.#deps.abortGraceMs));
  }

  #finish(output: ToolOutput): void {
    if (this.#settle()) this.#resolve!(output);
  }

  /** Marks the scope settled; false when it already was. */
  #settle(): boolean {
    if (this.#done) return false;
    this.#done = true;
    this.#deps.deadlines.delete(this.#call);
    if (this.#grace !== undefined) clearTimeout(this.#grace);
    this.#call.scope = null;
    return true;
  }
}

/**
 * Stages 10 (deadline + cancellation) and 11 (execute). Runs the tool under the call's deadline.
 * When the call is aborted (deadline, caller's signal, session close) the tool's signal aborts
 * and the kernel waits at most `abortGraceMs` for it to settle; a tool that ignores its signal
 * still yields a `timeout` / `cancelled` result once the grace ends. Rejects only with a
 * BUDGET_EXHAUSTED, SESSION_CLOSED or reconciliation error the tool let through.
 */
export function executeWithDeadline(deps: KernelDeps, call: InvocationCall, context: KernelToolContext, timeoutMs: number): Promise<ToolOutput> {
  return new ExecutionScope(deps, call, timeoutMs).run(context);
}
