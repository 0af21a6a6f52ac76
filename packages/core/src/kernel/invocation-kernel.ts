import { ArtifactStore } from '../artifacts/artifact-store.js';
import type { BudgetGuard } from '../budget/budget-guard.js';
import type { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { CodeError } from '../errors/code-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import { validatePermissionPolicy } from '../permission/permission-policy.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';
import type { SecurityProvider } from '../security/security-provider.js';
import type { KernelTelemetry, ToolTrace } from '../telemetry/tool-trace.js';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';
import type { ToolServices } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import { DeadlineTimer } from './deadline-timer.js';
import { ExecutionQueue } from './execution-queue.js';
import { InvocationCall } from './invocation-call.js';
import type { StageStop } from './invocation-call.js';
import type { InvocationState } from './invocation-lifecycle.js';
import type { InvocationOrigin } from './invocation-origin.js';
import type { NestedInvokeOptions } from './invocation-runtime.js';
import { validateKernelOptions } from './kernel-options.js';
import type { KernelDeps } from './kernel-deps.js';
import { KernelToolContext } from './kernel-tool-context.js';
import type { NestedInvoker } from './kernel-tool-context.js';
import { checkActiveSkill } from './stages/active-skill.js';
import { boundOutput } from './stages/bound-output.js';
import { chargeBudget } from './stages/budget-check.js';
import { confirmCall } from './stages/confirmation.js';
import { consultJournal, isReconciliationError, journalOf, recordOutcome } from './stages/journal.js';
import type { RunJournal } from '../journal/run-journal.js';
import { applyEscalation } from './stages/escalation.js';
import { executeWithDeadline, MAX_TIMER_MS } from './stages/execute.js';
import { abortedOutput } from './stages/map-tool-error.js';
import { requiresAuthorization } from './stages/origin-authority.js';
import { decidePermission, denyCall } from './stages/permission.js';
import { capabilitiesByName, capabilitiesOf } from './stages/permission-target.js';
import { runPostHooks } from './stages/post-hooks.js';
import { runPreHooks } from './stages/pre-hooks.js';
import { checkRecursion } from './stages/recursion-guard.js';
import { resolveTool } from './stages/resolve-tool.js';
import { sanitizeOutput } from './stages/sanitize-output.js';
import { emitExecutionStart, emitToolEnd, emitToolStart } from './stages/tool-events.js';
import { argumentValidatorReady, validateArguments } from './stages/validate-arguments.js';

/** One tool call asked of the kernel. */
export interface InvocationRequest {
  readonly toolName: string;
  /** Validated by the kernel (ajv) before anything else. */
  readonly args: unknown;
  readonly origin: InvocationOrigin;
  /** Default: generated. Must not collide with a call that is still active. */
  readonly toolId?: string;
  /** Aborting it cancels the call (at any stage). */
  readonly abortSignal?: AbortSignal;
  /** Set for nested calls; nested tool events carry it as `payload.parent_tool_id` and `metadata.parent_tool_id`. */
  readonly parentToolId?: string;
  /** Names of the enclosing tool invocations, outermost first (recursion guard input). */
  readonly ancestry?: readonly string[];
  /**
   * Set when the caller has already decided the call must not run (arguments that were not
   * JSON, the duplicate-call guard): the call still passes through the kernel's lifecycle and
   * events (`tool_start` / `tool_end` with origin), and ends at the validation stage with an
   * `invalid_argument` error carrying this text, before hooks or any side effect.
   */
  readonly refusal?: string;
}

/** Everything a kernel is built from. */
export interface InvocationKernelOptions {
  readonly registry: ToolRegistry;
  readonly workspace: WorkspaceBackend;
  readonly sessionId: string;
  /** Receives tool_*, confirmation_*, permission_denied events. A listener that throws is ignored. */
  readonly emit: (event: AgentEvent) => void;
  /** Absent = allow everything (tool-owned escalation may still ask). Validated. */
  readonly permissionPolicy?: PermissionPolicy | undefined;
  /**
   * Policies of the ancestors of a child session (subagents), outermost first: a call's decision
   * is the strictest of the session's own and every ancestor's, so a child never exceeds its
   * parent. Default none. Validated.
   */
  readonly inheritedPolicies?: readonly PermissionPolicy[] | undefined;
  /** Absent / null = an `ask` is denied (fail closed). */
  readonly confirmation?: ConfirmationManager | null | undefined;
  /** Default: an empty registry using `security`. */
  readonly hooks?: HookRegistry | undefined;
  /** Default: no budget. */
  readonly budget?: BudgetGuard | null | undefined;
  /** Default: `new DefaultSecurityProvider()`. */
  readonly security?: SecurityProvider | undefined;
  /** Default: `new ArtifactStore()`. */
  readonly artifacts?: ArtifactStore | undefined;
  /** Deadline of a call unless the tool asks for its own (`tool.timeoutMs(args)`). Default 600000. */
  readonly toolTimeoutMs?: number | undefined;
  /** Inline output bound in UTF-8 bytes (min 256); larger output becomes an artifact. Default 102400. */
  readonly maxInlineOutputBytes?: number | undefined;
  /** Session services handed to tools. Default `{}`. */
  readonly services?: ToolServices | undefined;
  /** Tools the active skill allows; `null` = no restriction. Default: no restriction. */
  readonly activeSkillTools?: (() => readonly string[] | null) | undefined;
  /**
   * Tools whose calls journal their own steps in a durable run (a subagent task's child run records
   * every step under the call's id): a started call of one of these without an outcome is entered
   * again and replays those steps instead of stopping the run for reconciliation. Default none.
   */
  readonly selfJournalingTools?: ReadonlySet<string> | undefined;
  /** Top-level calls executing at once (nested calls run within their parent's slot). Default 16. */
  readonly maxConcurrentTools?: number | undefined;
  /** Deepest nesting allowed (`ancestry.length`). Default 8. */
  readonly maxNestingDepth?: number | undefined;
  /** How long an aborted tool may take to settle before the kernel stops waiting. Default 1000. */
  readonly abortGraceMs?: number | undefined;
  /** OpenTelemetry `execute_tool` spans and the tool-duration metric (the session's telemetry). Default none. */
  readonly telemetry?: KernelTelemetry | null | undefined;
}

/** A call the kernel is working on, as listed by {@link InvocationKernel.activeInvocations}. */
export interface ActiveInvocation {
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: InvocationOrigin;
  readonly parentToolId?: string;
  readonly startedAtMs: number;
  readonly state: InvocationState;
}

const NO_ANCESTRY: readonly string[] = Object.freeze([]);

function isStop(value: object): value is StageStop {
  return 'outcome' in value;
}

function refusedStop(message: string): StageStop {
  return { output: { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message } }, outcome: 'failed' };
}

/** `execute` inside the call's span context (its own function: the closure is allocated only with a span). */
function executeTraced(trace: ToolTrace, deps: KernelDeps, call: InvocationCall, context: KernelToolContext, timeoutMs: number): ReturnType<typeof executeWithDeadline> {
  return trace.within(() => executeWithDeadline(deps, call, context, timeoutMs));
}

function abortReasonText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message || 'aborted by caller';
  return typeof reason === 'string' && reason.length > 0 ? reason : 'aborted by caller';
}

/**
 * The ONE governed path of every tool call — model (`agent`), extension code (`nested`) and
 * host (`host-direct`) alike: resolve, validate, active skill, pre-hooks, origin authority,
 * permission, tool escalation, confirmation, budget, execution scope (queue, deadline,
 * cancellation, recursion guard), execute, post-hooks, redaction, output bounds, events.
 *
 * Failures come back as failed {@link ToolResult}s (exit code != 0 with an `errorKind`); `invoke`
 * rejects only with BUDGET_EXHAUSTED, SESSION_CLOSED and (durable runs) the SESSION_ERROR with
 * `details.needs_reconciliation` of a non-idempotent call whose recorded start has no outcome.
 */
export class InvocationKernel {
  /** Where large outputs are kept. */
  readonly artifacts: ArtifactStore;
  /** The session's hooks. */
  readonly hooks: HookRegistry;
  readonly #deps: KernelDeps;
  readonly #queue: ExecutionQueue;
  // Intrusive doubly linked list of active calls, oldest first: adding and removing a call
  // allocates nothing (a Map churning between 0 and 1 entries re-hashes on every call).
  #activeHead: InvocationCall | null = null;
  #activeTail: InvocationCall | null = null;
  readonly #idPrefix = `call_${Math.floor(Math.random() * 0x100000000).toString(36)}_`;
  #counter = 0;
  #closed = false;
  readonly #invokeNested: NestedInvoker;

  constructor(options: InvocationKernelOptions) {
    const settings = validateKernelOptions(options);
    const security = options.security ?? new DefaultSecurityProvider();
    this.artifacts = options.artifacts ?? new ArtifactStore();
    this.hooks = options.hooks ?? new HookRegistry({ security });
    const listener = options.emit;
    this.#deps = {
      registry: options.registry,
      workspace: options.workspace,
      sessionId: options.sessionId,
      emit: (event) => {
        try {
          listener(event);
        } catch {
          // A host listener that throws must not corrupt the invocation lifecycle.
        }
      },
      policy: options.permissionPolicy === undefined ? null : validatePermissionPolicy(options.permissionPolicy),
      inheritedPolicies: (options.inheritedPolicies ?? []).map((policy) => validatePermissionPolicy(policy)),
      confirmation: options.confirmation ?? null,
      hooks: this.hooks,
      budget: options.budget ?? null,
      security,
      artifacts: this.artifacts,
      toolTimeoutMs: settings.toolTimeoutMs,
      maxInlineOutputBytes: settings.maxInlineOutputBytes,
      services: options.services ?? {},
      activeSkillTools: options.activeSkillTools ?? null,
      selfJournalingTools: options.selfJournalingTools ?? new Set(),
      abortGraceMs: settings.abortGraceMs,
      maxNestingDepth: settings.maxNestingDepth,
      deadlines: new DeadlineTimer(),
      noneTargetDecisions: new Map(),
      telemetry: options.telemetry ?? null,
      journal: { current: null },
    };
    this.#queue = new ExecutionQueue(settings.maxConcurrentTools);
    this.#invokeNested = (parent, toolName, args, nestedOptions) => this.#nested(parent, toolName, args, nestedOptions);
  }

  /**
   * Runs one tool call through the whole pipeline. Resolves with the (redacted, bounded)
   * result; rejects only with BUDGET_EXHAUSTED (the session stays usable) or SESSION_CLOSED.
   */
  invoke(request: InvocationRequest): Promise<ToolResult> {
    return this.#invoke(request, null);
  }

  async #invoke(request: InvocationRequest, parent: InvocationCall | null): Promise<ToolResult> {
    if (this.#closed) {
      throw new CodeError('SESSION_CLOSED', `session is closed; tool '${request.toolName}' rejected`, { details: { tool: request.toolName } });
    }
    const deps = this.#deps;
    const toolId = request.toolId ?? this.#idPrefix + (this.#counter += 1).toString(36);
    if (request.toolId !== undefined && this.#findActive(toolId) !== null) {
      const message = `tool call id '${toolId}' is already in use by an active call`;
      return { name: request.toolName, output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message } };
    }
    const call = new InvocationCall(toolId, request.toolName, request.origin, request.parentToolId, request.ancestry ?? NO_ANCESTRY, request.args, Date.now());
    if (request.refusal !== undefined) call.refusal = request.refusal;
    this.#link(call);
    if (deps.telemetry !== null) call.trace = deps.telemetry.startCall(call, parent === null ? null : parent.trace);
    const signal = request.abortSignal;
    let onCallerAbort: (() => void) | null = null;
    if (signal !== undefined) {
      if (signal.aborted) call.abort('cancelled', abortReasonText(signal));
      else {
        onCallerAbort = () => call.abort('cancelled', abortReasonText(signal));
        signal.addEventListener('abort', onCallerAbort, { once: true });
      }
    }
    try {
      emitToolStart(deps, call);
      let stop: StageStop;
      try {
        stop = await this.#run(call);
      } catch (error) {
        if (CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || CodeError.hasCode(error, 'SESSION_CLOSED') || isReconciliationError(error)) {
          call.lifecycle.transition('failed');
          const message = deps.security.redact(error.message);
          emitToolEnd(deps, call, { name: call.toolName, output: message, exitCode: 1 }, { error_code: error.code });
          call.trace?.end({ name: call.toolName, output: message, exitCode: 1 }, 'failed', call.args, error.code);
          throw error;
        }
        const message = error instanceof Error ? error.message : String(error);
        stop = { output: { output: `Error: ${message}`, exitCode: 1 }, outcome: 'failed' };
      }
      return this.#finish(call, stop);
    } finally {
      this.#unlink(call);
      if (onCallerAbort !== null) signal!.removeEventListener('abort', onCallerAbort);
    }
  }

  /**
   * Durable runs: the journal the running run's model calls consult and record in (stage 10a,
   * after governance, before execution); `null` detaches it. The run executor sets it per run.
   */
  attachJournal(journal: RunJournal | null): void {
    this.#deps.journal.current = journal;
  }

  /**
   * The run journal the active call `toolId` is a step of (a top-level model call of a durable
   * run, past stage 10a), or `null`. What a call runs inside itself journals there under the
   * call's id: a subagent task's child run (see `childRunJournal` in the runtime).
   */
  journalOfCall(toolId: string): RunJournal | null {
    return this.#findActive(toolId)?.journal ?? null;
  }

  /** Capabilities of a call with these arguments (conservative default for an unknown tool). */
  capabilities(toolName: string, args: unknown): ToolCapabilities {
    return capabilitiesByName(this.#deps.registry, toolName, args);
  }

  /** Calls in progress (any origin), oldest first. */
  activeInvocations(): readonly ActiveInvocation[] {
    const calls: InvocationCall[] = [];
    for (let call = this.#activeHead; call !== null; call = call.activeNext) calls.push(call);
    return calls.map((call) => ({
      toolId: call.toolId,
      toolName: call.toolName,
      origin: call.origin,
      ...(call.parentToolId === undefined ? {} : { parentToolId: call.parentToolId }),
      startedAtMs: call.startedAtMs,
      state: call.lifecycle.state,
    }));
  }

  /** Aborts every call in progress (pending confirmations and queued calls included). */
  cancelAll(reason = 'cancelled'): void {
    const calls: InvocationCall[] = [];
    for (let call = this.#activeHead; call !== null; call = call.activeNext) calls.push(call);
    for (const call of calls) call.abort('cancelled', reason);
  }

  /** Cancels everything and makes later `invoke` calls reject with SESSION_CLOSED. Idempotent. */
  close(reason = 'session closed'): void {
    this.#closed = true;
    this.cancelAll(reason);
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#closed;
  }

  #findActive(toolId: string): InvocationCall | null {
    for (let call = this.#activeHead; call !== null; call = call.activeNext) if (call.toolId === toolId) return call;
    return null;
  }

  #link(call: InvocationCall): void {
    call.activePrev = this.#activeTail;
    if (this.#activeTail !== null) this.#activeTail.activeNext = call;
    else this.#activeHead = call;
    this.#activeTail = call;
  }

  #unlink(call: InvocationCall): void {
    if (call.activePrev !== null) call.activePrev.activeNext = call.activeNext;
    else this.#activeHead = call.activeNext;
    if (call.activeNext !== null) call.activeNext.activePrev = call.activePrev;
    else this.#activeTail = call.activePrev;
    call.activePrev = null;
    call.activeNext = null;
  }

  async #run(call: InvocationCall): Promise<StageStop> {
    const deps = this.#deps;
    if (call.aborted) return this.#abortStop(call);
    // 1-2: refusal by the caller, resolve, validate — before anything else can observe the call.
    if (call.refusal !== undefined) return refusedStop(call.refusal);
    const tool = resolveTool(deps.registry, call.toolName);
    if (isStop(tool)) return tool;
    call.tool = tool;
    const validatorLoading = argumentValidatorReady(tool);
    if (validatorLoading !== undefined) await validatorLoading;
    if (call.aborted) return this.#abortStop(call);
    let stop = validateArguments(tool, call.args);
    if (stop !== undefined) return stop;
    call.lifecycle.transition('admitted');
    // 3: active skill.
    if (deps.activeSkillTools !== null) {
      stop = checkActiveSkill(deps.activeSkillTools(), call.toolName);
      if (stop !== undefined) return stop;
    }
    // 4: pre-hooks, every origin.
    if (deps.hooks.has('pre_tool_use')) {
      stop = await runPreHooks(deps, call);
      if (stop !== undefined) return stop;
      if (call.aborted) return this.#abortStop(call);
    }
    // 5-8: origin authority, permission, escalation, confirmation.
    if (requiresAuthorization(call.origin)) {
      let decision = decidePermission(deps, call);
      if (decision instanceof Promise) decision = await decision;
      decision = applyEscalation(tool, call.args, decision);
      call.trace?.permission(decision.decision, decision.rule);
      if (decision.decision === 'deny') return denyCall(deps, call, decision.reason, decision.rule);
      if (decision.decision === 'ask') {
        stop = await confirmCall(deps, call, decision);
        if (stop !== undefined) return stop;
      }
      if (call.aborted) return this.#abortStop(call);
    }
    // 9: budget, before any side effect (throws BUDGET_EXHAUSTED).
    if (deps.budget !== null) {
      chargeBudget(deps.budget);
      call.trace?.budget('allowed');
    }
    // 10: recursion guard, queue, then deadline + cancellation around 11: execute.
    stop = checkRecursion(deps.registry, call, deps.maxNestingDepth);
    if (stop !== undefined) return stop;
    // 10a: the run journal (durable runs): a recorded outcome instead of executing again.
    const journal = deps.journal.current === null ? null : journalOf(deps, call);
    if (journal !== null) {
      call.journal = journal;
      stop = await consultJournal(journal, call, deps.selfJournalingTools.has(call.toolName));
      if (stop !== undefined) return stop;
      if (call.aborted) return this.#abortStop(call);
    }
    // Nested calls run inside their parent's slot: queueing them could deadlock a full queue.
    const queued = call.parentToolId === undefined;
    if (queued && !this.#queue.tryAcquire() && !(await this.#waitForSlot(call))) return this.#abortStop(call);
    let output;
    try {
      if (call.aborted) return this.#abortStop(call);
      call.lifecycle.transition('running');
      emitExecutionStart(deps, call);
      const timeoutMs = this.#timeoutFor(call);
      const context = new KernelToolContext(deps, call, this.#invokeNested);
      const trace = call.trace;
      // With a span, the tool runs in its context: what it starts (a subagent run) is its child.
      output = await (trace === null ? executeWithDeadline(deps, call, context, timeoutMs) : executeTraced(trace, deps, call, context, timeoutMs));
    } finally {
      if (queued) this.#queue.release();
    }
    // 12: post-hooks.
    if (deps.hooks.has('post_tool_use')) output = await runPostHooks(deps, call, output);
    const outcome = call.abortKind === 'timeout' ? 'timed_out' : call.abortKind === 'cancelled' ? 'cancelled' : (output.exitCode ?? 0) === 0 ? 'completed' : 'failed';
    // A cancelled call's run ends cancelled: only outcomes the run goes on with are recorded.
    if (journal !== null && outcome !== 'cancelled') await recordOutcome(deps, journal, call, output);
    return { output, outcome };
  }

  /** 13-15: redact, bound, settle the lifecycle, emit `tool_end`. */
  #finish(call: InvocationCall, stop: StageStop): ToolResult {
    const deps = this.#deps;
    const sanitized = sanitizeOutput(deps.security, stop.output);
    const output = boundOutput(deps.artifacts, call, sanitized, deps.maxInlineOutputBytes);
    const exitCode = output.exitCode ?? 0;
    // Plain outputs (the common case) skip the spread.
    const plain = output.metadata === undefined && output.errorKind === undefined && output.attachments === undefined && output.artifacts === undefined;
    const result: ToolResult = plain ? { name: call.toolName, output: output.output, exitCode } : { ...output, name: call.toolName, exitCode };
    call.lifecycle.transition(stop.outcome);
    emitToolEnd(deps, call, result);
    call.trace?.end(result, stop.outcome, call.args);
    // The host reads its own workspace: a host-direct READ (a read-only call) gets the real text
    // back, so a host editing what it read never writes markers into files. Events, artifacts and
    // everything persisted stay redacted; only an output that fits inline unchanged is returned.
    if (call.origin === 'host-direct' && sanitized !== stop.output && output.output === sanitized.output && output.artifacts === undefined && this.#readOnly(call)) {
      return { ...result, output: stop.output.output, ...(stop.output.metadata === undefined ? {} : { metadata: stop.output.metadata }) };
    }
    return result;
  }

  #readOnly(call: InvocationCall): boolean {
    const tool = call.tool;
    return tool !== null && call.capabilities(() => capabilitiesOf(tool, call.args)).readOnly;
  }

  #abortStop(call: InvocationCall): StageStop {
    return { output: abortedOutput(call, this.#timeoutFor(call), this.#deps.abortGraceMs, false), outcome: call.abortKind === 'timeout' ? 'timed_out' : 'cancelled' };
  }

  /** The call's deadline: the session's `toolTimeoutMs`, or the tool's own when that is smaller (bash `timeout`). */
  #timeoutFor(call: InvocationCall): number {
    const asked = call.tool?.timeoutMs?.(call.args);
    if (typeof asked === 'number' && asked > 0) return Math.min(asked, this.#deps.toolTimeoutMs, MAX_TIMER_MS);
    return this.#deps.toolTimeoutMs;
  }

  #waitForSlot(call: InvocationCall): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (call.aborted) {
        resolve(false);
        return;
      }
      const withdraw = this.#queue.enqueue(() => {
        call.onAbort = null;
        resolve(true);
      });
      call.onAbort = () => {
        if (withdraw()) resolve(false);
      };
    });
  }

  #nested(parent: InvocationCall, toolName: string, args: unknown, options: NestedInvokeOptions): Promise<ToolResult> {
    if (parent.lifecycle.terminal) {
      return Promise.reject(
        new CodeError('SECURITY_ERROR', `nested call to '${toolName}' refused: its parent call '${parent.toolId}' has already ended`, { details: { tool: toolName, parentToolId: parent.toolId } }),
      );
    }
    const parentSignal = parent.signal;
    const signal = options.abortSignal === undefined ? parentSignal : AbortSignal.any([parentSignal, options.abortSignal]);
    return this.#invoke({
      toolName,
      args,
      origin: 'nested',
      parentToolId: parent.toolId,
      ancestry: [...parent.ancestry, parent.toolName],
      abortSignal: signal,
      ...(options.id === undefined ? {} : { toolId: `${parent.toolId}.${options.id}` }),
    }, parent);
  }
}
