import type { RunJournal } from '../journal/run-journal.js';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';
import type { PermissionTarget } from '../tools/tool.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolTrace } from '../telemetry/tool-trace.js';
import type { ToolOutput } from '../tools/tool-result.js';
import type { DeadlineEntry } from './deadline-timer.js';
import type { InvocationOutcome } from './invocation-lifecycle.js';
import { InvocationLifecycle } from './invocation-lifecycle.js';
import type { InvocationOrigin } from './invocation-origin.js';

/** What the call tells its running execution scope when it is aborted. */
export interface AbortableScope {
  aborted(): void;
}

/** Why an invocation's execution scope was aborted. */
export type AbortKind = 'timeout' | 'cancelled';

/** A stage's verdict that ends the pipeline early with `output` and a terminal `outcome`. */
export interface StageStop {
  readonly output: ToolOutput;
  readonly outcome: InvocationOutcome;
}

/** The permission target of a call with its paths resolved through the workspace. */
export interface ResolvedTarget {
  readonly target: PermissionTarget;
  /** Paths that failed resolution (confinement), with the reason. */
  readonly unresolved: readonly { readonly path: string; readonly reason: string }[];
}

/**
 * The mutable state of one invocation while it moves through the pipeline. Allocation is kept
 * lazy: the AbortController exists only once someone reads {@link signal} or aborts the call.
 */
export class InvocationCall implements DeadlineEntry {
  readonly lifecycle: InvocationLifecycle;
  /** Absolute deadline while executing (see {@link DeadlineTimer}). */
  deadlineAtMs = Infinity;
  /** The deadline length that applies to this call, for messages and error kinds. */
  timeoutMs = 0;
  /** @internal {@link DeadlineTimer} list links. */
  deadlinePrev: DeadlineEntry | null = null;
  /** @internal */
  deadlineNext: DeadlineEntry | null = null;
  /** @internal */
  deadlineListed = false;
  /** @internal the kernel's active-call list links (oldest first). */
  activePrev: InvocationCall | null = null;
  /** @internal */
  activeNext: InvocationCall | null = null;
  /** The tool, once resolved. */
  tool: AnyTool | null = null;
  /** The caller's refusal (see `InvocationRequest.refusal`): the call ends at validation. */
  refusal: string | undefined = undefined;
  /** Current arguments (a pre-hook may replace them, after re-validation). */
  args: unknown;
  /** Cached permission target for the current args; reset when args change. */
  target: ResolvedTarget | null = null;
  /** Set when the call was aborted, with why. */
  abortKind: AbortKind | null = null;
  /** Human-readable abort reason (cancelAll's reason, timeout text). */
  abortReason = '';
  /** Called once when the call is aborted; the phase currently waiting installs it. */
  onAbort: (() => void) | null = null;
  /** The running execution scope, told when the call is aborted. */
  scope: AbortableScope | null = null;
  /** The call's `execute_tool` span and metric, when telemetry records. */
  trace: ToolTrace | null = null;
  /** The run journal this call is a step of (durable runs, stage 10a), or `null`. */
  journal: RunJournal | null = null;
  #controller: AbortController | null = null;
  #capabilities: ToolCapabilities | null = null;

  constructor(
    readonly toolId: string,
    readonly toolName: string,
    readonly origin: InvocationOrigin,
    readonly parentToolId: string | undefined,
    readonly ancestry: readonly string[],
    args: unknown,
    readonly startedAtMs: number,
  ) {
    this.lifecycle = new InvocationLifecycle(toolId);
    this.args = args;
  }

  /** The call's execution-scope signal, aborted on timeout, cancellation or session close. */
  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.abortKind !== null) this.#controller.abort(this.#abortError());
    }
    return this.#controller.signal;
  }

  /** Deadline reached: abort with `timeout`. */
  expire(): void {
    this.abort('timeout', `tool call exceeded its ${this.timeoutMs} ms deadline`);
  }

  /** True once the call has been aborted. */
  get aborted(): boolean {
    return this.abortKind !== null;
  }

  /** Aborts the call (first reason wins). Idempotent. */
  abort(kind: AbortKind, reason: string): void {
    if (this.abortKind !== null || this.lifecycle.terminal) return;
    this.abortKind = kind;
    this.abortReason = reason;
    this.#controller?.abort(this.#abortError());
    const listener = this.onAbort;
    this.onAbort = null;
    listener?.();
    this.scope?.aborted();
  }

  /** Capabilities of the current args (cached; conservative default when the tool throws). */
  capabilities(resolve: () => ToolCapabilities): ToolCapabilities {
    this.#capabilities ??= resolve();
    return this.#capabilities;
  }

  /** Forgets everything derived from the arguments (after a hook replaced them). */
  argsChanged(args: unknown): void {
    this.args = args;
    this.target = null;
    this.#capabilities = null;
  }

  #abortError(): Error {
    const error = new Error(this.abortReason || (this.abortKind === 'timeout' ? 'tool call timed out' : 'tool call cancelled'));
    error.name = this.abortKind === 'timeout' ? 'TimeoutError' : 'AbortError';
    return error;
  }
}
