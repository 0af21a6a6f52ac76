import type { LlmMessage, ActiveTool, Attachment, AgentEvent, Artifact, EventStream, HookConfig, HookEventName, HookHandler, HookMatcher, PendingConfirmation, RunEventPage, RunRecord, SendRequest, SendResult, SessionSnapshotV1, SessionStateV1, SessionStore, ToolDefinition, AnyTool } from '@a3s-lab/code-core';
import type { AgentSession } from '@a3s-lab/code-runtime';
import { CodeError } from '@a3s-lab/code-core';
import type { McpServerConfig, McpServerStatus, McpToolChanges } from './mcp-types.js';
import { toProgramArgs } from '@a3s-lab/code-ptc';
import type { ProgramOptions } from '@a3s-lab/code-ptc';
import { SessionExtensions } from './session-extensions.js';
import { sessionToolSurface } from './session-tool-surface.js';
import { toSdkToolResult } from './tool-result-view.js';
import type { FromJsonSchema } from '@a3s-lab/code-core';
import type { SandboxStatus } from '@a3s-lab/code-core';
import type { ToolResult } from './tool-result-view.js';
import { SessionFeatureCalls } from './session-feature-calls.js';
import type { GenerateObjectOptions, GitOptions, GlobOptions, GrepOptions, ReadFileOptions } from './session-helper-options.js';
import { bashText, generateObjectValue, globPaths, grepText, readFileText } from './session-direct-helpers.js';

/**
 * A session of the `@a3s-lab/code` SDK: one conversation bound to one workspace. Conversation
 * calls (`send`, `stream`) are single-flight; direct helpers (`readFile`, `bash`, `tool`...) are
 * host control-plane calls that skip permission and confirmation but keep hooks, budget,
 * timeouts, cancellation and redaction, and never touch the transcript.
 */
export class Session extends SessionFeatureCalls {
  readonly #core: AgentSession;
  readonly #onClosed: ((session: Session) => void) | undefined;
  readonly #extensions: SessionExtensions;

  /** @internal created by `Agent`. */
  constructor(core: AgentSession, onClosed?: (session: Session) => void, extensions?: SessionExtensions) {
    super(core.features);
    this.#core = core;
    this.#onClosed = onClosed;
    this.#extensions = extensions ?? new SessionExtensions(sessionToolSurface(core));
    runtimes.set(this, core);
  }

  /** Session id. */
  override get id(): string {
    return this.#core.id;
  }

  /** Display form of the workspace root. */
  get workspace(): string {
    return this.#core.workspace.root;
  }

  /**
   * The OS sandbox of the session's subprocesses (`bash`, `verifyCommands`, `git`):
   * `{ active, kind: 'bubblewrap' | 'seatbelt' | 'none', network, reason? }`. Also in the
   * `session_start` hook payload (`sandbox`).
   */
  sandboxStatus(): SandboxStatus {
    return this.#core.sandboxStatus;
  }

  // ---- conversation -------------------------------------------------------------------------

  /**
   * Runs a prompt to completion: `{ text, toolCallsCount, promptTokens, completionTokens,
   * totalTokens, ... }`. `send(prompt, attachments)` is the positional form of
   * `send({ prompt, attachments })`.
   */
  override send(request: string | SendRequest, attachments?: readonly Attachment[]): Promise<SendResult> {
    return this.#core.send(withAttachments(request, attachments));
  }

  /** Streams a prompt's v1 events; `await stream.next()` -> `{ value, done }`. */
  override stream(request: string | SendRequest, attachments?: readonly Attachment[]): Promise<EventStream<SendResult>> {
    return this.#core.stream(withAttachments(request, attachments));
  }

  /** A copy of the conversation: every message the model has seen, oldest first. */
  history(): LlmMessage[] {
    return this.#core.history();
  }

  /** The system prompt sent with every model request: the base prompt, then the delegation, skills and plan sections. */
  systemPrompt(): string {
    return this.#core.systemPrompt();
  }

  /** Observes every event of the session; returns an unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void {
    return this.#core.subscribe(listener);
  }

  // ---- direct helpers -----------------------------------------------------------------------

  /** Calls any tool of the surface directly (host-direct policy). */
  async tool(name: string, args: object = {}): Promise<ToolResult> {
    return toSdkToolResult(await this.#core.tool(name, args));
  }

  /** A file's text (whole, or `limit` lines from `offset`). Rejects with TOOL_ERROR when it cannot be read. */
  async readFile(path: string, options: ReadFileOptions = {}): Promise<string> {
    return readFileText(this.#core, path, options);
  }

  /** Writes a file (parents created). */
  async writeFile(path: string, content: string): Promise<ToolResult> {
    return this.tool('write', { file_path: path, content });
  }

  /** Exact-string edit; see the `edit` tool for the options. */
  async editFile(
    path: string,
    oldString: string,
    newString: string,
    options: { readonly replaceAll?: boolean; readonly dryRun?: boolean; readonly expectedReplacements?: number; readonly maxReplacements?: number } = {},
  ): Promise<ToolResult> {
    return this.tool('edit', {
      file_path: path,
      old_string: oldString,
      new_string: newString,
      ...(options.replaceAll === undefined ? {} : { replace_all: options.replaceAll }),
      ...(options.dryRun === undefined ? {} : { dry_run: options.dryRun }),
      ...(options.expectedReplacements === undefined ? {} : { expected_replacements: options.expectedReplacements }),
      ...(options.maxReplacements === undefined ? {} : { max_replacements: options.maxReplacements }),
    });
  }

  /** Applies a strict unified diff to one file. */
  async patchFile(path: string, diff: string): Promise<ToolResult> {
    return this.tool('patch', { file_path: path, diff });
  }

  /** Lists a directory (default the root). */
  async ls(path?: string, options: { readonly limit?: number; readonly cursor?: string } = {}): Promise<ToolResult> {
    return this.tool('ls', { ...(path === undefined ? {} : { path }), ...options });
  }

  /**
   * Every path matching a glob pattern (pages through the tool's cursor internally; with
   * `limit` or `cursor` given, only that page).
   */
  async glob(pattern: string, options: GlobOptions = {}): Promise<string[]> {
    return globPaths(this.#core, pattern, options);
  }

  /** Regex search; returns the tool's text output (`path:line:text` lines in content mode). */
  async grep(pattern: string, options: GrepOptions = {}): Promise<string> {
    return grepText(this.#core, pattern, options);
  }

  /**
   * Runs a shell command in the workspace and returns its output (stdout, then stderr). A
   * non-zero exit still returns the output; a timeout, cancellation or refusal rejects.
   */
  async bash(command: string, options: { readonly timeout?: number } = {}): Promise<string> {
    return bashText(this.#core, command, options);
  }

  /** git: `git({ command: 'status' })`, `git('log', { limit: 5 })`. */
  override async git(command: GitOptions | GitOptions['command'], options: Record<string, unknown> = {}): Promise<ToolResult> {
    const args = typeof command === 'string' ? { command, ...options } : { ...command };
    return this.tool('git', args);
  }

  /** Runs a sandboxed JavaScript program (PTC) whose tool calls are governed by the kernel. */
  async program(options: ProgramOptions): Promise<ToolResult> {
    return this.tool('program', toProgramArgs(options));
  }

  toolNames(): string[] {
    return this.#core.toolNames();
  }

  toolDefinitions(): ToolDefinition[] {
    return this.#core.toolDefinitions();
  }

  /** Adds a custom tool to this session's surface. */
  registerTool(tool: AnyTool, options: { readonly replace?: boolean } = {}): void {
    this.#core.registerTool(tool, options);
  }

  /** Removes a tool added at run time (custom, MCP, `dynamic_workflow`). SESSION_CLOSED after close. */
  unregisterDynamicTool(name: string): boolean {
    if (this.closed) throw new CodeError('SESSION_CLOSED', `session is closed; unregisterDynamicTool('${name}') rejected`);
    return this.#core.unregisterTool(name);
  }


  // ---- MCP ----------------------------------------------------------------------------------

  /**
   * Connects an MCP server for this session (stdio or Streamable HTTP), registers its tools as
   * `mcp__<server>__<tool>` and resolves with how many were registered. Calls of those tools go
   * through the kernel like every other call. A global server of the same name (from the
   * config) is shadowed in this session only. Loads `@a3s-lab/code-mcp` on first use.
   *
   * @throws CodeError CONFIG_ERROR (invalid config), MCP_ERROR (cannot connect or list tools, a
   *   session server of that name exists, the package is missing), SESSION_CLOSED.
   */
  override async addMcp(config: McpServerConfig): Promise<number> {
    return this.#extensions.addMcp(config);
  }

  /**
   * Disconnects a server added to this session and removes its tools; a global server it
   * shadowed comes back. False when this session added no server of that name (global servers
   * are read-only here).
   */
  async removeMcp(name: string): Promise<boolean> {
    return this.#extensions.removeMcp(name, this.closed);
  }

  /**
   * Every MCP server this session sees: `[{ name, connected, toolCount, error?, source }]`, plus,
   * when there are any, `leftOut` (tools not offered and why: unusable schema, name clash,
   * pending change), `pendingToolChanges` and `sanitizedTools` (descriptions that had invisible
   * characters removed).
   */
  async mcps(): Promise<McpServerStatus[]> {
    return this.#extensions.mcps();
  }

  /**
   * Accepts the current tool definitions of MCP server `name`. A server's tools are pinned when
   * first listed; when it later adds a tool or changes one's description, input schema or
   * annotations (`notifications/tools/list_changed`, a reconnect), the session emits
   * `mcp_tools_changed` and keeps those tools away from the model and from calls until this is
   * called (or the server was added with `acceptToolChanges: 'auto'`). Resolves with what was
   * accepted, or null when nothing was pending. Accepting for an inherited global server accepts
   * it for every session of the agent.
   *
   * @throws CodeError MCP_ERROR (`details.reason` `unknown_server`) when the session sees no server
   *   of that name; SESSION_CLOSED after close.
   */
  async acceptMcpToolChanges(name: string): Promise<McpToolChanges | null> {
    return this.#extensions.acceptMcpToolChanges(name, this.closed);
  }

  // ---- runs ---------------------------------------------------------------------------------

  async runs(): Promise<RunRecord[]> {
    return this.#core.runs();
  }

  /** Every retained event of a run (same envelopes as live, with replay metadata). */
  async runEvents(runId: string): Promise<AgentEvent[]> {
    return this.#core.runEvents(runId) ?? [];
  }

  /** A page of a run's events after `afterSequence` (exclusive); `null` for an unknown run. */
  async runEventPage(runId: string, afterSequence?: number, limit?: number): Promise<RunEventPage | null> {
    return this.#core.runEventPage(runId, afterSequence, limit);
  }

  async currentRun(): Promise<RunRecord | null> {
    return this.#core.currentRun();
  }

  /** Cancels that run only; a stale id cancels nothing and resolves `false`. */
  async cancelRun(runId: string): Promise<boolean> {
    return this.#core.cancelRun(runId);
  }

  async activeTools(): Promise<ActiveTool[]> {
    return this.#core.activeTools();
  }

  // ---- governance ---------------------------------------------------------------------------

  async pendingConfirmations(): Promise<PendingConfirmation[]> {
    return this.#core.pendingConfirmations();
  }

  /** Answers a pending confirmation; `false` when refused (unknown, late, already answered). */
  async confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<boolean> {
    return this.#core.confirmToolUse(toolId, approved, reason);
  }

  registerHook(id: string, event: HookEventName, matcher: HookMatcher | null, config: HookConfig | null, handler: HookHandler): void {
    this.#core.registerHook(id, event, matcher, config, handler);
  }

  unregisterHook(id: string): boolean {
    return this.#core.unregisterHook(id);
  }

  /** A retained artifact (`a3s://tool-output/<tool>/<id>`) or `null`. */
  getArtifact(uri: string): Artifact | null {
    return this.#core.getArtifact(uri);
  }

  /** All of the session's state as plain data (legacy shape; see {@link snapshot}). */
  state(): SessionStateV1 {
    return this.#core.state();
  }

  /**
   * Generates a JSON object matching `schema` with the session's model (the `generate_object`
   * tool, called directly): validated, repaired up to `maxRepairAttempts` times, returned parsed.
   * Rejects with TOOL_ERROR carrying the last validation errors when no valid object came.
   * The result is typed from a schema declared `as const` (see {@link FromJsonSchema}), or give
   * the type yourself: `generateObject<Invoice>(schema, prompt)`.
   */
  generateObject<const S extends object>(schema: S, prompt: string, options?: GenerateObjectOptions): Promise<FromJsonSchema<S>>;
  generateObject<T>(schema: object, prompt: string, options?: GenerateObjectOptions): Promise<T>;
  async generateObject(schema: object, prompt: string, options: GenerateObjectOptions = {}): Promise<unknown> {
    return generateObjectValue(this.#core, schema, prompt, options);
  }


  // ---- persistence --------------------------------------------------------------------------

  /**
   * Publishes one `SessionSnapshotV1` generation (conversation, runs and their events,
   * artifacts, traces, verification reports, subagent tasks, labels) to the session's store,
   * atomically. Resolves with the published snapshot.
   */
  save(): Promise<SessionSnapshotV1> {
    return this.#core.save();
  }

  /**
   * Resolves when every state captured so far is published (autoSave writes in the background
   * after each operation; `closeAsync()` waits for them too).
   */
  flushSaves(): Promise<void> {
    return this.#core.flushSaves();
  }

  /** The whole session as a snapshot, without publishing it. */
  snapshot(): SessionSnapshotV1 {
    return this.#core.snapshot();
  }

  /** The store `save()` and `autoSave` publish to. */
  get sessionStore(): SessionStore | null {
    return this.#core.store;
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Cancels the running operation and waits until it stopped. */
  cancelAsync(): Promise<void> {
    return this.#core.cancel();
  }

  /** Closes the session (cancels in-flight work, releases the workspace). Idempotent. */
  override async closeAsync(): Promise<void> {
    await this.#core.close();
    // After the core: in-flight MCP calls are cancelled and settled before their clients close.
    await this.#extensions.close();
    this.#onClosed?.(this);
  }

  protected override cancelRunning(): boolean {
    const running = this.#core.currentRun();
    return running !== null && this.#core.cancelRun(running.id);
  }

  override get closed(): boolean {
    return this.#core.closed;
  }
}

/** The runtime behind each session, for the SDK's own recipes (`Agent`); never exposed to hosts. */
const runtimes = new WeakMap<Session, AgentSession>();

/** @internal The runtime of `session` (the SDK's `Agent` replaces and resumes through it). */
export function sessionRuntime(session: Session): AgentSession {
  const core = runtimes.get(session);
  if (core === undefined) throw new CodeError('SESSION_ERROR', 'not a session of this SDK');
  return core;
}

function withAttachments(request: string | SendRequest, attachments: readonly Attachment[] | undefined): string | SendRequest {
  if (attachments === undefined) return request;
  if (typeof request === 'string') return { prompt: request, attachments };
  throw new CodeError('SESSION_CONFIGURATION_ERROR', 'pass attachments inside the request object, not as a second argument, when the request is an object', { details: { field: 'attachments' } });
}
