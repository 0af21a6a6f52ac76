import { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Artifact } from '../artifacts/artifact-store.js';
import { BudgetGuard } from '../budget/budget-guard.js';
import { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import type { PendingConfirmation } from '../confirmation/confirmation-manager.js';
import { CodeError } from '../errors/code-error.js';
import { toCodeError } from '../errors/to-code-error.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import type { HookConfig, HookEventName, HookHandler, HookMatcher } from '../hooks/hook-registry.js';
import { InvocationKernel } from '../kernel/invocation-kernel.js';
import type { LlmClient, LlmMessage, LlmUsage } from '../llm/llm-client.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';
import type { SecurityProvider } from '../security/security-provider.js';
import type { ToolDefinition, ToolServices } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import { AdmissionGate } from './admission-gate.js';
import { ContextCompactor } from './context-compactor.js';
import type { TurnLoopCompaction } from './context-compactor.js';
import type { AdmissionLease } from './admission-gate.js';
import { EventStream } from './event-stream.js';
import { repairHistory } from './history-repair.js';
import { RunStore } from './run-store.js';
import type { RunEventPage, RunHandle, RunRecord } from './run-store.js';
import { normalizeSendRequest, toUserMessage } from './send-request.js';
import type { SendRequest, SendResult } from './send-request.js';
import type { ResolvedSessionOptions } from './session-options.js';
import type { SessionStateV1 } from './session-state.js';
import { SESSION_STATE_VERSION } from './session-state.js';
import { buildSystemPrompt } from './system-prompt.js';
import { usagePayload } from './usage-payload.js';
import { ToolCallRunner } from './tool-call-runner.js';
import { runTurnLoop } from './turn-loop.js';

/** Everything an {@link AgentSession} is built from. The SDK facade fills it. */
export interface AgentSessionInit {
  readonly sessionId: string;
  readonly llm: LlmClient;
  readonly workspace: WorkspaceBackend;
  /** The session's tool surface (already filtered by workspace capabilities). */
  readonly tools: readonly AnyTool[];
  readonly options: ResolvedSessionOptions;
  /** Redaction; default {@link DefaultSecurityProvider}. */
  readonly security?: SecurityProvider;
  readonly services?: ToolServices;
  /** Closes the workspace backend with the session (true when the session created it). */
  readonly ownsWorkspace?: boolean;
}

/** A tool call currently running. */
export interface ActiveTool {
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: string;
  readonly parentToolId?: string;
  readonly startedAtMs: number;
  readonly elapsedMs: number;
}

interface ActiveRun {
  readonly run: RunHandle;
  readonly controller: AbortController;
  readonly stream: EventStream<SendResult> | null;
  readonly done: Promise<unknown>;
}

/**
 * The session runtime: one conversation bound to one workspace, running the agent loop with
 * single-flight admission, recording runs and their events, and exposing the governed kernel to
 * host-direct calls.
 */
export class AgentSession {
  readonly id: string;
  readonly workspace: WorkspaceBackend;
  readonly options: ResolvedSessionOptions;
  readonly #llm: LlmClient;
  readonly #registry: ToolRegistry;
  readonly #kernel: InvocationKernel;
  readonly #hooks: HookRegistry;
  readonly #confirmation: ConfirmationManager;
  readonly #budget: BudgetGuard | null;
  /** Rolling auto-compaction (`autoCompact`); keeps its token calibration across runs. */
  readonly #compactor: ContextCompactor | null;
  readonly #security: SecurityProvider;
  readonly #artifacts: ArtifactStore;
  readonly #runs: RunStore;
  readonly #gate = new AdmissionGate();
  readonly #closeScope = new AbortController();
  readonly #listeners = new Set<(event: AgentEvent) => void>();
  readonly #ownsWorkspace: boolean;
  readonly #hostCalls = new Set<Promise<unknown>>();
  readonly #hostToolIds = new Set<string>();
  readonly #hostIdPrefix = `host_${Math.floor(Math.random() * 0x100000000).toString(36)}_`;
  #hostCounter = 0;
  #history: LlmMessage[] = [];
  #system: string;
  #active: ActiveRun | null = null;
  #closing: Promise<void> | null = null;

  constructor(init: AgentSessionInit) {
    this.id = init.sessionId;
    this.workspace = init.workspace;
    this.options = init.options;
    this.#llm = init.llm;
    this.#ownsWorkspace = init.ownsWorkspace ?? false;
    this.#security = init.security ?? new DefaultSecurityProvider();
    this.#registry = new ToolRegistry(init.tools);
    this.#hooks = new HookRegistry({ security: this.#security });
    this.#artifacts = new ArtifactStore(init.options.artifactStoreLimits ?? {});
    this.#runs = new RunStore(this.id, init.options.retentionLimits ?? {});
    const emit = (event: AgentEvent): void => this.#dispatch(event);
    const policy = init.options.confirmationPolicy;
    // A disabled policy still gets a manager: it denies every 'ask' (fail closed) with a reason.
    this.#confirmation = new ConfirmationManager(policy ?? {});
    this.#budget = init.options.budget === undefined ? null : new BudgetGuard(init.options.budget, { emit });
    this.#compactor = init.options.autoCompact
      ? new ContextCompactor({
          llm: init.llm,
          maxContextTokens: init.options.maxContextTokens,
          threshold: init.options.autoCompactThreshold,
          ...(init.options.llmApiTimeoutMs === undefined ? {} : { llmApiTimeoutMs: init.options.llmApiTimeoutMs }),
        })
      : null;
    this.#kernel = new InvocationKernel({
      registry: this.#registry,
      workspace: this.workspace,
      sessionId: this.id,
      emit,
      ...(init.options.permissionPolicy === undefined ? {} : { permissionPolicy: init.options.permissionPolicy }),
      confirmation: this.#confirmation,
      hooks: this.#hooks,
      ...(this.#budget === null ? {} : { budget: this.#budget }),
      security: this.#security,
      artifacts: this.#artifacts,
      toolTimeoutMs: init.options.toolTimeoutMs,
      ...(init.services === undefined ? {} : { services: init.services }),
    });
    this.#system =
      init.options.systemPrompt ??
      buildSystemPrompt({
        workspace: this.workspace.root,
        toolNames: this.#registry.names(),
        ...(init.options.instructions === undefined ? {} : { instructions: init.options.instructions }),
      });
  }

  // ---- conversation -------------------------------------------------------------------------

  /** Runs one prompt to completion. Rejects with SESSION_BUSY on overlap, SESSION_CLOSED after close. */
  async send(request: string | SendRequest): Promise<SendResult> {
    const normalized = normalizeSendRequest(request);
    const lease = this.#gate.acquire('send');
    return this.#execute('send', normalized, lease, null);
  }

  /**
   * Runs one prompt and streams its v1 events. The returned stream holds admission until its
   * producer stops; consuming it to the end is a lifecycle barrier.
   */
  async stream(request: string | SendRequest): Promise<EventStream<SendResult>> {
    const normalized = normalizeSendRequest(request);
    const lease = this.#gate.acquire('stream');
    let cancel: () => void = () => undefined;
    const stream = new EventStream<SendResult>(() => cancel());
    const running = this.#execute('stream', normalized, lease, stream);
    running.catch(() => undefined);
    cancel = () => this.#active?.stream === stream && this.#active.controller.abort(new Error('stream consumer stopped'));
    return stream;
  }

  async #execute(kind: string, request: SendRequest, lease: AdmissionLease, stream: EventStream<SendResult> | null): Promise<SendResult> {
    const run = this.#runs.start(kind, request.prompt);
    const controller = new AbortController();
    const onClose = (): void => controller.abort(new Error('session closed'));
    this.#closeScope.signal.addEventListener('abort', onClose, { once: true });
    let settle!: () => void;
    this.#active = { run, controller, stream, done: new Promise<void>((r) => (settle = r)) };
    // The conversation to go back to when the run leaves no trace (see the catch below).
    const replacedHistory = request.history === undefined ? null : this.#history;
    if (request.history !== undefined) this.#history = [...request.history];
    const historyLength = this.#history.length;
    let userMessage: LlmMessage | undefined;
    let compaction: TurnLoopCompaction | undefined;
    let outcome: { ok: true; value: SendResult } | { ok: false; error: CodeError };
    try {
      this.#dispatch(createAgentEvent('agent_start', { run_id: run.id, session_id: this.id, prompt: request.prompt, kind }));
      let prompt = request.prompt;
      if (this.#hooks.has('pre_prompt')) {
        const decision = await this.#hooks.run('pre_prompt', { prompt, session_id: this.id, run_id: run.id });
        if (decision.action === 'block' || decision.action === 'retry') {
          throw new CodeError('SESSION_ERROR', `prompt blocked by hook${decision.hookId === undefined ? '' : ` '${decision.hookId}'`}: ${decision.reason ?? 'no reason given'}`, {
            details: { hook: decision.hookId ?? null, blocked: true },
          });
        }
        const modified = decision.modified?.['prompt'];
        if (typeof modified === 'string') prompt = modified;
      }
      const recordUsage = (usage: LlmUsage): void => {
        run.addUsage(usage);
        this.#budget?.recordTokens(usage.inputTokens + usage.outputTokens);
      };
      userMessage = toUserMessage({ ...request, prompt });
      compaction = this.#compactor?.forRun({
        system: this.#system,
        tools: () => this.#registry.definitions(),
        history: this.#history,
        emit: (event) => this.#dispatch(event),
        signal: controller.signal,
        onUsage: recordUsage,
      });
      const loop = await runTurnLoop(
        {
          llm: this.#llm,
          system: this.#system,
          tools: () => this.#registry.definitions(),
          history: this.#history,
          emit: (event) => this.#dispatch(event),
          signal: controller.signal,
          limits: {
            maxToolRounds: this.options.maxToolRounds,
            circuitBreakerThreshold: this.options.circuitBreakerThreshold,
            duplicateToolCallThreshold: this.options.duplicateToolCallThreshold,
            llmApiTimeoutMs: this.options.llmApiTimeoutMs,
            maxOutputTokens: this.options.maxOutputTokens,
          },
          toolCalls: new ToolCallRunner(this.#kernel, (event) => this.#dispatch(event), (text) => this.#security.redact(text)),
          onUsage: (usage) => {
            recordUsage(usage);
            this.#compactor?.observeUsage(usage);
          },
          onToolCalls: (count) => run.addToolCalls(count),
          onTurn: (turn) => {
            run.setTurns(turn);
            this.#checkModelBudget();
          },
          ...(compaction === undefined ? {} : { compaction }),
        },
        userMessage,
      );
      if (this.#hooks.has('post_response')) await this.#hooks.run('post_response', { text: loop.text, session_id: this.id, run_id: run.id });
      const record = run.record();
      outcome = {
        ok: true,
        value: {
          text: loop.text,
          runId: run.id,
          toolCallsCount: loop.toolCallsCount,
          turns: loop.turns,
          promptTokens: record.usage.promptTokens,
          completionTokens: record.usage.completionTokens,
          totalTokens: record.usage.totalTokens,
          cacheReadTokens: record.usage.cacheReadTokens,
          cacheWriteTokens: record.usage.cacheWriteTokens,
        },
      };
    } catch (thrown) {
      const error = controller.signal.aborted && !CodeError.hasCode(thrown, 'BUDGET_EXHAUSTED') ? cancelledRunError(controller.signal, thrown) : toCodeError(thrown);
      outcome = { ok: false, error };
      // Nothing the model said survived (blocked prompt, failed first model call): the run leaves
      // no trace in the conversation, including a `history` the request would have installed.
      // A compaction in this run moved the prompt: measure from where it is now (-1 when it was
      // summarised, which only happens after the model answered at least once).
      const promptAt = compaction !== undefined && compaction.compactions > 0 && userMessage !== undefined ? this.#history.lastIndexOf(userMessage) : historyLength;
      if (promptAt !== -1 && this.#history.length <= promptAt + 1) {
        if (replacedHistory === null) this.#history.splice(promptAt);
        else this.#history = replacedHistory;
      } else repairHistory(this.#history, error.message);
      if (this.#hooks.has('on_error')) await this.#hooks.run('on_error', { code: error.code, message: error.message, run_id: run.id }).catch(() => undefined);
    } finally {
      this.#closeScope.signal.removeEventListener('abort', onClose);
    }
    // Cleanup BEFORE the terminal event: a consumer that saw it can send again immediately.
    const record = outcome.ok
      ? run.finish('completed', { text: outcome.value.text })
      : run.finish(outcome.error.details['cancelled'] === true ? 'cancelled' : 'failed', { error: { code: outcome.error.code, message: outcome.error.message } });
    this.#active = null;
    lease.release();
    settle();
    const terminal = outcome.ok
      ? createAgentEvent('agent_end', {
          run_id: run.id,
          text: outcome.value.text,
          usage: usagePayload({ inputTokens: record.usage.promptTokens, outputTokens: record.usage.completionTokens, cacheReadTokens: record.usage.cacheReadTokens, cacheWriteTokens: record.usage.cacheWriteTokens }),
          tool_calls: record.toolCallsCount,
          verification_summary: null,
        })
      : createAgentEvent('error', { run_id: run.id, code: outcome.error.code, message: this.#security.redact(outcome.error.message), details: this.#security.redactValue(outcome.error.details) as Record<string, unknown> });
    const recorded = run.append(terminal);
    this.#notify(recorded);
    if (stream !== null) {
      stream.push(recorded);
      stream.end(outcome.ok ? outcome : { ok: false, error: outcome.error });
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /**
   * Budget gate before a model call: tokens and wall time. `BudgetGuard.check()` also asks
   * whether one more TOOL call fits; that must not stop a model turn, or a run that used exactly
   * `maxToolCalls` could never give its final answer (and every later send would fail at once).
   */
  #checkModelBudget(): void {
    const budget = this.#budget;
    if (budget === null) return;
    try {
      budget.check();
    } catch (error) {
      if (!CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || error.details['kind'] !== 'tool_calls') throw error;
      const limits = budget.limits();
      const usage = budget.usage();
      if (usage.tokens >= limits.tokens) throw budgetExhausted('tokens', limits.tokens, usage.tokens);
      if (usage.wallTimeMs >= limits.wall_time_ms) throw budgetExhausted('wall_time_ms', limits.wall_time_ms, usage.wallTimeMs);
    }
  }

  #dispatch(event: AgentEvent): void {
    const active = this.#active;
    // Host-direct calls are not part of the conversation: subscribers see them, but they are
    // neither recorded in the running run nor pushed into its stream.
    if (active === null || this.#isHostDirectEvent(event)) {
      this.#notify(event);
      return;
    }
    const recorded = active.run.append(event);
    active.stream?.push(recorded);
    this.#notify(recorded);
  }

  /** True for events of a host-direct call or of a call nested in one (ids tracked as they appear). */
  #isHostDirectEvent(event: AgentEvent): boolean {
    if (this.#hostToolIds.size === 0) return false;
    const id = event.payload['tool_id'];
    if (typeof id !== 'string') return false;
    const parent = event.payload['parent_tool_id'];
    const host = this.#hostToolIds.has(id) || (typeof parent === 'string' && this.#hostToolIds.has(parent));
    if (!host) return false;
    if (event.type === 'tool_end') this.#hostToolIds.delete(id);
    else this.#hostToolIds.add(id);
    return true;
  }

  #notify(event: AgentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A throwing host listener must neither fail the run nor, on the terminal event, leave
        // the stream un-ended (its consumer would wait forever).
      }
    }
  }

  /**
   * Observes every event of this session (runs and host-direct calls). Returns an unsubscribe
   * function. Listeners must not throw.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A copy of the conversation. */
  history(): LlmMessage[] {
    return [...this.#history];
  }

  /** The system prompt sent with every model request. */
  systemPrompt(): string {
    return this.#system;
  }

  // ---- runs ---------------------------------------------------------------------------------

  runs(): RunRecord[] {
    return this.#runs.runs();
  }

  runEvents(runId: string): AgentEvent[] | null {
    return this.#runs.events(runId);
  }

  runEventPage(runId: string, afterSequence?: number, limit?: number): RunEventPage | null {
    return this.#runs.page(runId, afterSequence, limit);
  }

  currentRun(): RunRecord | null {
    return this.#runs.current();
  }

  /** Cancels the run `runId` if it is the running one; a stale id cancels nothing. */
  cancelRun(runId: string): boolean {
    const active = this.#active;
    if (active === null || active.run.id !== runId) return false;
    active.controller.abort(new Error(`run ${runId} cancelled`));
    return true;
  }

  /** Cancels the running run (if any) and waits until it has stopped. */
  async cancel(): Promise<void> {
    const active = this.#active;
    if (active === null) return;
    active.controller.abort(new Error('cancelled by host'));
    await active.done;
  }

  /** Tool calls running right now (model, nested and host-direct). */
  activeTools(): ActiveTool[] {
    const now = Date.now();
    return this.#kernel.activeInvocations().map((a) => ({
      toolId: a.toolId,
      toolName: a.toolName,
      origin: a.origin,
      ...(a.parentToolId === undefined ? {} : { parentToolId: a.parentToolId }),
      startedAtMs: a.startedAtMs,
      elapsedMs: now - a.startedAtMs,
    }));
  }

  // ---- governance ---------------------------------------------------------------------------

  pendingConfirmations(): PendingConfirmation[] {
    return [...this.#confirmation.pending()];
  }

  /** Answers a pending confirmation. `false` when refused (unknown, already answered, timed out). */
  confirmToolUse(toolId: string, approved: boolean, reason?: string): boolean {
    return this.#confirmation.confirm(toolId, approved, reason);
  }

  registerHook(id: string, event: HookEventName, matcher: HookMatcher | null, config: HookConfig | null, handler: HookHandler): void {
    this.#hooks.register(id, event, matcher, config, handler);
  }

  unregisterHook(id: string): boolean {
    return this.#hooks.unregister(id);
  }

  /**
   * The session's budget guard (`options.budget`), or `null` without one. The budget is
   * session-wide: it is not reset per run. After BUDGET_EXHAUSTED the session stays open; the
   * host may `raise()` the limits or `reset()` the usage before the next send.
   */
  get budget(): BudgetGuard | null {
    return this.#budget;
  }

  // ---- tools --------------------------------------------------------------------------------

  /**
   * Host-direct tool call: skips permission and confirmation by policy; hooks, budget,
   * timeouts, cancellation (session close), recursion guard and redaction apply. Needs no
   * admission and leaves the conversation unchanged.
   */
  async tool(name: string, args: unknown, options: { readonly abortSignal?: AbortSignal } = {}): Promise<ToolResult> {
    if (this.#gate.closed) throw new CodeError('SESSION_CLOSED', `session is closed; tool '${name}' rejected`, { details: { tool: name } });
    const signal = options.abortSignal === undefined ? this.#closeScope.signal : AbortSignal.any([this.#closeScope.signal, options.abortSignal]);
    const toolId = this.#hostIdPrefix + (this.#hostCounter += 1).toString(36);
    this.#hostToolIds.add(toolId);
    const call = this.#kernel.invoke({ toolName: name, args, origin: 'host-direct', abortSignal: signal, toolId });
    // close() waits for these: the workspace must not be closed under a running tool.
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.#hostCalls.add(settled);
    void settled.then(() => {
      this.#hostCalls.delete(settled);
      this.#hostToolIds.delete(toolId);
    });
    return call;
  }

  toolNames(): string[] {
    return this.#registry.names();
  }

  toolDefinitions(): ToolDefinition[] {
    return this.#registry.definitions();
  }

  /** Adds a tool to the session surface (custom tools, MCP tools, `dynamic_workflow`). */
  registerTool(tool: AnyTool, options: { readonly replace?: boolean } = {}): void {
    this.#registry.register(tool, options);
  }

  unregisterTool(name: string): boolean {
    return this.#registry.unregister(name);
  }

  /** A retained artifact by URI, or `null`. */
  getArtifact(uri: string): Artifact | null {
    return this.#artifacts.get(uri);
  }

  // ---- state & lifecycle --------------------------------------------------------------------

  /** The whole session state as plain data (the basis of `SessionSnapshotV1`). */
  state(): SessionStateV1 {
    return {
      version: SESSION_STATE_VERSION,
      sessionId: this.id,
      history: structuredClone(this.#history),
      runs: this.#runs.snapshot(),
      artifacts: this.#artifacts.snapshot(),
      pendingConfirmations: this.pendingConfirmations(),
      options: serializableOptions(this.options),
      systemPrompt: this.#system,
    };
  }

  /** Restores conversation, runs and artifacts from a {@link SessionStateV1} (idle sessions only). */
  restoreState(state: SessionStateV1): void {
    if (this.#active !== null) throw new CodeError('SESSION_BUSY', 'cannot restore state while a run is active');
    if (typeof state !== 'object' || state === null || state.version !== SESSION_STATE_VERSION) {
      throw new CodeError('SERIALIZATION_ERROR', `unsupported session state version ${String(state?.version)}`, { details: { version: state?.version ?? null } });
    }
    // Checked before anything changes: a malformed state is refused whole, never half-loaded.
    if (!Array.isArray(state.history) || !Array.isArray(state.runs) || typeof state.artifacts !== 'object' || state.artifacts === null || typeof state.systemPrompt !== 'string') {
      throw new CodeError('SERIALIZATION_ERROR', 'malformed session state: expected history[], runs[], artifacts and systemPrompt', { details: { version: state.version } });
    }
    this.#history = structuredClone([...state.history]);
    this.#runs.restore(state.runs);
    this.#artifacts.restore(state.artifacts);
    this.#system = state.systemPrompt;
  }

  get closed(): boolean {
    return this.#gate.closed;
  }

  /**
   * Closes the session: cancels the running run and host-direct tools and waits for them to
   * settle before `session_end` hooks run and an owned workspace is closed. Idempotent.
   */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    this.#gate.close();
    this.#closeScope.abort(new Error('session closed'));
    this.#kernel.close('session closed');
    const active = this.#active;
    this.#closing = (async () => {
      if (active !== null) await active.done;
      await Promise.all([...this.#hostCalls]);
      if (this.#hooks.has('session_end')) await this.#hooks.run('session_end', { session_id: this.id }).catch(() => undefined);
      if (this.#ownsWorkspace) await this.workspace.close?.();
    })();
    return this.#closing;
  }
}

function budgetExhausted(kind: string, limit: number, used: number): CodeError {
  return new CodeError('BUDGET_EXHAUSTED', `${kind} budget exhausted: used ${used} of ${limit}`, { details: { kind, limit, used } });
}

function cancelledRunError(signal: AbortSignal, thrown: unknown): CodeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled';
  return new CodeError('SESSION_ERROR', `run cancelled: ${reason}`, { details: { cancelled: true }, cause: thrown });
}

function serializableOptions(options: ResolvedSessionOptions): Record<string, unknown> {
  const { workspaceBackend: _w, sessionStore: _s, ...rest } = options;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}
