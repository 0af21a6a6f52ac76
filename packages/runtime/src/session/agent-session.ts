import type { ActiveTool, AgentEvent, AnyTool, Artifact, HookConfig, HookEventName, HookHandler, HookMatcher, LlmMessage, PendingConfirmation, RunEventPage, RunRecord, SandboxStatus, SendRequest, SendResult, SessionSnapshotV1, SessionStateV1, SessionStore, ToolDefinition, ToolResult, WorkspaceBackend } from '@a3s-lab/code-core';
import type { BudgetGuard } from '@a3s-lab/code-core/kernel';
import { CodeError, EventStream, parseSessionSnapshot, SESSION_STATE_VERSION } from '@a3s-lab/code-core';
import type { AgentSessionInit } from './agent-session-init.js';
import { normalizeSendRequest } from './normalize-send-request.js';
import type { ResolvedSessionOptions } from './resolve-session-options.js';
import { composeSession } from './session-parts.js';
import type { SessionFeatures, SessionParts } from './session-parts.js';

export type { AgentSessionInit } from './agent-session-init.js';

/**
 * The session runtime: one conversation bound to one workspace. Its parts (conversation, runs,
 * event bus, kernel, executor, persistence) and its {@link SessionFeatures} are composed by
 * `composeSession`; this class admits operations, runs them and closes it all.
 */
export class AgentSession {
  readonly id: string;
  readonly workspace: WorkspaceBackend;
  readonly options: ResolvedSessionOptions;
  /** The sandbox of the session's subprocesses (`{ active: false, kind: 'none' }` when none was set up). */
  readonly sandboxStatus: SandboxStatus;
  /** What the session does beyond turns: subagents, skills, planning, verification, commands... */
  readonly features: SessionFeatures;
  /** True when the session closes its workspace backend (it created it). */
  readonly ownsWorkspace: boolean;
  readonly #parts: SessionParts;
  readonly #resumed: boolean;
  #starting: Promise<void> | null = null;
  #closing: Promise<void> | null = null;

  constructor(init: AgentSessionInit) {
    this.id = init.sessionId;
    this.workspace = init.workspace;
    this.options = init.options;
    this.ownsWorkspace = init.ownsWorkspace ?? false;
    this.#resumed = init.snapshot !== undefined;
    this.#parts = composeSession(init);
    this.sandboxStatus = this.#parts.sandboxStatus;
    this.features = this.#parts.features;
  }

  /** Runs the `session_start` hooks once, before the session's first operation (`resumed` after a resume). */
  #started(): Promise<void> {
    const hooks = this.#parts.hooks;
    this.#starting ??= hooks.has('session_start') ? hooks.run('session_start', { session_id: this.id, resumed: this.#resumed, workspace: this.workspace.root, sandbox: this.sandboxStatus }).then(() => undefined, () => undefined) : Promise.resolve();
    return this.#starting;
  }

  // ---- conversation -------------------------------------------------------------------------

  /** Runs one prompt to completion. Rejects with SESSION_BUSY on overlap, SESSION_CLOSED after close. */
  async send(request: string | SendRequest): Promise<SendResult> {
    const normalized = normalizeSendRequest(request);
    await this.#started();
    const lease = this.#parts.gate.acquire('send');
    const command = this.features.commands.commandOf(normalized);
    return this.#parts.executor.execute(command === undefined ? 'send' : 'command', normalized, lease, null, () => this.#afterOperation('send'), command);
  }

  /**
   * Runs one prompt and streams its v1 events. The returned stream holds admission until its
   * producer stops; consuming it to the end is a lifecycle barrier.
   */
  async stream(request: string | SendRequest): Promise<EventStream<SendResult>> {
    const normalized = normalizeSendRequest(request);
    await this.#started();
    const { gate, executor } = this.#parts;
    const lease = gate.acquire('stream');
    let cancel: () => void = () => undefined;
    const stream = new EventStream<SendResult>(() => cancel());
    const command = this.features.commands.commandOf(normalized);
    executor.execute(command === undefined ? 'stream' : 'command', normalized, lease, stream, () => this.#afterOperation('stream'), command).catch(() => undefined);
    cancel = () => {
      if (executor.owns(stream)) executor.abort('stream consumer stopped');
    };
    return stream;
  }

  /** Observes every event of this session (runs and host-direct calls); returns an unsubscribe function. Listeners must not throw. */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.#parts.bus.subscribe(listener);
  }

  /**
   * Emits an event from outside the run loop (a tool source's, e.g. `mcp_tools_changed`): into
   * the running run (its record and stream) when one runs, else to subscribers and the trace.
   */
  emitEvent(event: AgentEvent): void {
    if (!this.#parts.gate.closed) this.#parts.bus.emit(event);
  }

  /** A copy of the conversation. */
  history(): LlmMessage[] {
    return [...this.#parts.conversation.messages()];
  }

  /** The system prompt sent with every model request (the base prompt and the features' sections). */
  systemPrompt(): string {
    return this.#parts.system();
  }

  // ---- runs and governance ------------------------------------------------------------------

  runs(): RunRecord[] {
    return this.#parts.runs.runs();
  }

  runEvents(runId: string): AgentEvent[] | null {
    return this.#parts.runs.events(runId);
  }

  runEventPage(runId: string, afterSequence?: number, limit?: number): RunEventPage | null {
    return this.#parts.runs.page(runId, afterSequence, limit);
  }

  currentRun(): RunRecord | null {
    return this.#parts.runs.current();
  }

  /** Cancels the run `runId` if it is the running one; a stale id cancels nothing. */
  cancelRun(runId: string): boolean {
    return this.#parts.executor.abort(`run ${runId} cancelled`, runId);
  }

  /** Cancels the running run (if any) and waits until it has stopped. */
  async cancel(): Promise<void> {
    if (this.#parts.executor.abort('cancelled by host')) await this.#parts.executor.settled();
  }

  /** Tool calls running right now (model, nested and host-direct). */
  activeTools(): ActiveTool[] {
    const now = Date.now();
    return this.#parts.kernel.activeInvocations().map((a) => ({ toolId: a.toolId, toolName: a.toolName, origin: a.origin, ...(a.parentToolId === undefined ? {} : { parentToolId: a.parentToolId }), startedAtMs: a.startedAtMs, elapsedMs: now - a.startedAtMs }));
  }

  /** Events outside runs (host-direct calls, verification commands, persistence failures), oldest first. */
  traceEvents(): AgentEvent[] {
    return this.#parts.bus.trace();
  }

  pendingConfirmations(): PendingConfirmation[] {
    return [...this.#parts.confirmation.pending()];
  }

  /** Answers a pending confirmation. `false` when refused (unknown, already answered, timed out). */
  confirmToolUse(toolId: string, approved: boolean, reason?: string): boolean {
    const accepted = this.#parts.confirmation.confirm(toolId, approved, reason);
    if (accepted) this.#afterOperation('confirmation');
    return accepted;
  }

  registerHook(id: string, event: HookEventName, matcher: HookMatcher | null, config: HookConfig | null, handler: HookHandler): void {
    this.#parts.hooks.register(id, event, matcher, config, handler);
  }

  unregisterHook(id: string): boolean {
    return this.#parts.hooks.unregister(id);
  }

  /**
   * The session's budget guard (`options.budget`), or `null` without one. The budget is
   * session-wide: it is not reset per run. After BUDGET_EXHAUSTED the session stays open; the
   * host may `raise()` the limits or `reset()` the usage before the next send.
   */
  get budget(): BudgetGuard | null {
    return this.#parts.budget;
  }

  // ---- tools --------------------------------------------------------------------------------

  /**
   * Host-direct tool call: skips permission and confirmation by policy; hooks, budget,
   * timeouts, cancellation (session close), recursion guard and redaction apply. Needs no
   * admission and leaves the conversation unchanged.
   */
  async tool(name: string, args: unknown, options: { readonly abortSignal?: AbortSignal } = {}): Promise<ToolResult> {
    if (this.#parts.gate.closed) throw new CodeError('SESSION_CLOSED', `session is closed; tool '${name}' rejected`, { details: { tool: name } });
    await this.#started();
    const result = await this.#parts.hostCalls.call({ toolName: name, args, origin: 'host-direct', ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) });
    this.#afterOperation('tool');
    return result;
  }

  toolNames(): string[] {
    return this.#parts.registry.names();
  }

  toolDefinitions(): ToolDefinition[] {
    return this.#parts.registry.definitions();
  }

  /** Adds a tool to the session surface (custom tools, MCP tools, `dynamic_workflow`). */
  registerTool(tool: AnyTool, options: { readonly replace?: boolean } = {}): void {
    this.#parts.registry.register(tool, options);
  }

  unregisterTool(name: string): boolean {
    return this.#parts.registry.unregister(name);
  }

  /** A retained artifact by URI, or `null`. */
  getArtifact(uri: string): Artifact | null {
    return this.#parts.artifacts.get(uri);
  }

  // ---- state & persistence ------------------------------------------------------------------

  /** The store `save()` publishes to, or `null`. */
  get store(): SessionStore | null {
    return this.#parts.persistence?.store ?? null;
  }

  /** Generation of the last captured snapshot (0 before the first save of a new session). */
  get generation(): number {
    return this.#parts.persistence?.generation ?? 0;
  }

  /**
   * Publishes one {@link SessionSnapshotV1} generation to the session's store and resolves with
   * it. SESSION_ERROR without a store; the store's error when the write fails.
   */
  async save(): Promise<SessionSnapshotV1> {
    const persistence = this.#parts.persistence;
    if (persistence === null) throw new CodeError('SESSION_ERROR', `session '${this.id}' has no sessionStore to save to`, { details: { sessionId: this.id } });
    return persistence.save();
  }

  /** The whole session as one snapshot (not published; generation = the last saved one). */
  snapshot(): SessionSnapshotV1 {
    return { ...this.#parts.capture(), generation: this.generation, savedAtMs: Date.now() };
  }

  /** Legacy plain-data state (`SessionStateV1`); prefer {@link snapshot}. */
  state(): SessionStateV1 {
    const draft = this.#parts.capture();
    const { runs, artifacts, pendingConfirmations, options, systemPrompt } = draft;
    return { version: SESSION_STATE_VERSION, sessionId: this.id, history: structuredClone(draft.conversation), runs, artifacts, pendingConfirmations, options, systemPrompt };
  }

  /**
   * Restores conversation, runs and artifacts from a {@link SessionStateV1} or a
   * {@link SessionSnapshotV1} (idle sessions only). The document is validated whole first: a
   * malformed one is refused with SERIALIZATION_ERROR and nothing changes.
   */
  restoreState(state: SessionStateV1 | SessionSnapshotV1): void {
    if (this.#parts.executor.busy) throw new CodeError('SESSION_BUSY', 'cannot restore state while a run is active');
    const version = typeof state === 'object' && state !== null ? (state as { version?: unknown }).version : undefined;
    if (version !== SESSION_STATE_VERSION) {
      throw new CodeError('SERIALIZATION_ERROR', `unsupported session state version ${String(version)}`, { details: { version: version ?? null } });
    }
    this.#parts.restore(parseSessionSnapshot(state, { store: 'restoreState', sessionId: this.id }));
  }

  /** autoSave after a completed operation: captured now, written in the background; never throws. */
  #afterOperation(operation: string): void {
    this.#parts.persistence?.afterOperation(operation);
  }

  /** Resolves when every state captured so far (explicit saves and autoSave) is published or has failed. `close()` waits for it too. */
  flushSaves(): Promise<void> {
    return this.#parts.persistence?.flush() ?? Promise.resolve();
  }

  /**
   * Publishes a session that was never saved as generation 0 of its store, so it can be resumed
   * before its first operation (the next save is generation 1). Rejects with the store's error,
   * also reported as `persistence_failed` (`operation: 'open'`); does nothing without a store,
   * for a resumed session or once anything was saved.
   */
  publishInitial(): Promise<void> {
    if (this.#resumed) return Promise.resolve();
    return this.#parts.persistence?.publishInitial() ?? Promise.resolve();
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  get closed(): boolean {
    return this.#parts.gate.closed;
  }

  /**
   * Closes the session: cancels the running run and host-direct tools and waits for them to
   * settle (and for started saves to land) before `session_end` hooks run and an owned
   * workspace is closed. Idempotent.
   */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    const { gate, closeScope, kernel, executor, hostCalls, persistence, hooks } = this.#parts;
    gate.close();
    closeScope.abort(new Error('session closed'));
    kernel.close('session closed');
    this.#closing = (async () => {
      await executor.settled();
      await hostCalls.settled();
      await persistence?.flush();
      if (hooks.has('session_end')) await hooks.run('session_end', { session_id: this.id }).catch(() => undefined);
      if (this.ownsWorkspace) await this.workspace.close?.();
    })();
    return this.#closing;
  }
}
