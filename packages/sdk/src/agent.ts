import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgentDirectory, loadAgentDocument, mergeAclDocuments, toAgentConfig } from '@a3s-lab/code-config';
import type { AgentDirectory, LoadedAclDocument } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { AgentSession, builtinSubagents, preloadOpenTelemetry, resolveSessionOptions, SESSION_OPTION_NAMES, workerDefinition } from '@a3s-lab/code-runtime';
import { mergePermissionPolicies, validatePermissionPolicy } from '@a3s-lab/code-core/kernel';
import { CodeError, DefaultSecurityProvider } from '@a3s-lab/code-core';
import type { AnyTool, PermissionPolicy, SecurityProvider, SessionOptions, SessionSnapshotV1, SessionStore, SubagentDefinition, ToolServices, TelemetryOptions, ToolSource, ToolSourceBinding, WorkerAgentSpec } from '@a3s-lab/code-core';
import type { McpServerConfig } from './mcp-types.js';
import type { ChildSessionRequest } from '@a3s-lab/code-runtime';
import { resolveModel } from '@a3s-lab/code-config';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';
import { sandboxedLocalBackend, sandboxMcpTransport, sandboxWarning, sessionSandboxStatus, strictestSandbox } from './session-sandbox.js';
import type { SandboxUnavailableWarning } from './session-sandbox.js';
import { createLlmClient } from './create-llm-client.js';
import type { LlmClientFactory } from './create-llm-client.js';
import { loadMcp } from './load-mcp.js';
import type { McpToolSourceHandle } from './mcp-tool-source-handle.js';
import { configuredSessionStore, s3ConfigCredentials, s3WorkspaceFromConfig } from './s3-from-config.js';
import { postgresConfigCredentials } from './postgres-from-config.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { S3SessionStore } from './s3-session-store.js';
import { s3CredentialValues } from './s3-workspace-backend.js';
import { buildSessionRuntime, toolsFor } from './session-recipe.js';
import type { RecipeAgent } from './session-recipe.js';
import { findProjectInstructions, projectInstructionsSection } from './project-instructions.js';
import { directorySkills, loadSkillDirs } from './load-skills.js';
import type { SkippedSkill } from './load-skills.js';
import { secretEnvironmentValues } from './secret-environment.js';
import { Session, sessionRuntime } from './session.js';
import { SessionExtensions } from './session-extensions.js';
import { sessionToolSurface } from './session-tool-surface.js';
import { AgentDirHandle, systemClock } from './agent-dir-server.js';
import type { ScheduleClock, ScheduleFire } from './agent-dir-server.js';
import { equipFromDirectory, equipFromDirectorySync } from './equip-from-directory.js';
import { checkFleetDirectory, checkLocalDirectory, serveDirectoryOnFleet } from './agent-dir-fleet.js';
import type { PostgresFleet } from './postgres-fleet-types.js';

/** Options of {@link Agent.serveAgentDir}. */
export interface ServeAgentDirOptions {
  /** Where each schedule's session is kept across restarts (default: the agent's store, or the merged config's). */
  readonly sessionStore?: SessionStore;
  /** Time source (default the wall clock); tests inject a fake one. */
  readonly clock?: ScheduleClock;
  /** Observes every fire (completed, failed or skipped). */
  readonly onFire?: (fire: ScheduleFire) => void;
  /** Extra options of the schedule sessions (permissionPolicy, model...). */
  readonly sessionOptions?: SessionOptions;
  /**
   * Serve the schedules across hosts: each occurrence fires once across every host serving the
   * same directory (by name), as a run of `fleet` (`createFleet`) of the schedule's session, kept
   * in `fleet.sessionStore`; `missed` of a schedule (skip, once, all) applies. The host runs
   * `fleet.work()` itself (or other processes do). `clock` is this host's clock, handed to pg-boss.
   */
  readonly fleet?: PostgresFleet;
}
import { createSearchEngines, createWebServices } from './web-services.js';
import type { SearchEngineSet } from './web-services.js';
import { innerBackend, overlaidBackend } from './workspace-overlay.js';
import { checkAgentTelemetry, mergeTelemetryOptions } from './session-telemetry-options.js';

/** Options of {@link Agent.create}. */
export interface AgentCreateOptions {
  /** Environment for `env("NAME")` in the config and for secret redaction. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base directory for relative paths in the config. Default: the config file's directory or `process.cwd()`. */
  readonly cwd?: string;
  /** Builds model clients; default: Anthropic / OpenAI-compatible clients from the config. */
  readonly llmClientFactory?: LlmClientFactory;
  /**
   * Extra tool sources attached to every session besides the built-in tools (and the MCP servers
   * of the config), e.g. a host's own tool catalogue. Each gets the session's narrow
   * `ToolSurface`; its binding is closed with the session. Default none.
   */
  readonly toolSources?: readonly ToolSource[];
  /**
   * Receives what was left out while opening a session: today a skill file of a skill directory
   * whose real path leaves that directory (a symlink out) or that is not a regular file
   * (`kind: 'skill_skipped'`); a session whose `sandbox` (`mode: 'auto'`) could not start, so its
   * processes run unsandboxed (`kind: 'sandbox_unavailable'`, with the reason). Default:
   * `process.emitWarning` (stderr).
   */
  readonly onWarning?: (warning: AgentWarning) => void;
  /**
   * OpenTelemetry for every session of this agent (a session's own `telemetry` overrides it field
   * by field; the ACL block `telemetry { ... }` is below both). Default: the global providers.
   */
  readonly telemetry?: TelemetryOptions;
}

/** What {@link AgentCreateOptions.onWarning} receives. */
export type AgentWarning = SkippedSkill | SandboxUnavailableWarning;

/**
 * An agent: a loaded configuration that opens sessions. Create one with
 * `await Agent.create('agent.acl')` (a path or inline ACL text).
 */
export class Agent {
  /** The typed configuration. */
  readonly config: AgentConfig;
  readonly #factory: LlmClientFactory;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #sessions = new Set<Session>();
  /** The store of the config's `storage_backend` (memory by default, `file` under `sessions_dir`). */
  readonly sessionStore: SessionStore;
  readonly #toolSources: readonly ToolSource[];
  /** The config's `mcp_servers`, connected at create; `null` when there are none. */
  readonly #mcp: McpToolSourceHandle | null;
  /** False for the agents derived for agent directories, which share their parent's servers. */
  readonly #ownsMcp: boolean;
  readonly #searchEngines: SearchEngineSet;
  #closed = false;

  readonly #options: AgentCreateOptions;
  readonly #document: LoadedAclDocument;
  /** The S3 or Postgres store this agent built from its config (its client or pool is released by `close()`). */
  readonly #ownedStore: S3SessionStore | PostgresSessionStore | null;
  /**
   * Policies every session of this agent also obeys (strictest wins): for an agent derived for an
   * agent directory, the permission policy of the host's configuration, which the directory's
   * `agent.acl` must not widen.
   */
  #ceilingPolicies: readonly PermissionPolicy[] = [];

  private constructor(config: AgentConfig, document: LoadedAclDocument, options: AgentCreateOptions, sessionStore?: SessionStore, mcp: { readonly source: McpToolSourceHandle | null; readonly owned: boolean } = { source: null, owned: false }) {
    this.config = config;
    this.#options = options;
    this.#document = document;
    this.#searchEngines = createSearchEngines(config.webSearch);
    this.#factory = options.llmClientFactory ?? createLlmClient;
    this.#env = options.env ?? process.env;
    this.sessionStore = sessionStore ?? configuredSessionStore(config);
    this.#ownedStore = sessionStore === undefined && (this.sessionStore instanceof S3SessionStore || this.sessionStore instanceof PostgresSessionStore) ? this.sessionStore : null;
    this.#toolSources = [...(options.toolSources ?? [])];
    this.#mcp = mcp.source;
    this.#ownsMcp = mcp.owned;
  }

  /**
   * Loads `config` (a path to an `.acl` file, or inline ACL text). CONFIG_ERROR names the problem.
   * When the config declares `mcp_servers`, `@a3s-lab/code-mcp` is loaded and every server is
   * connected (in parallel); a server that cannot be reached does not fail this — it is listed
   * by `session.mcps()` with `connected: false` and its error.
   */
  static async create(config: string, options: AgentCreateOptions = {}): Promise<Agent> {
    checkAgentTelemetry(options.telemetry);
    const document = loadAgentDocument(config, {
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const loaded = toAgentConfig(document.document, { baseDir: document.baseDir, ...(document.configFile === undefined ? {} : { configFile: document.configFile }) });
    // `@opentelemetry/api` is loaded only when something can record (providers given, or registered by the host).
    await preloadOpenTelemetry(mergeTelemetryOptions(loaded.telemetry, options.telemetry));
    // A stdio server whose transport asks for `sandbox` starts inside bubblewrap.
    const mcp = loaded.mcpServers.length === 0 ? null : await (await loadMcp()).McpToolSource.create(await Promise.all((loaded.mcpServers as readonly McpServerConfig[]).map(sandboxMcpTransport)));
    return new Agent(loaded, document, options, undefined, { source: mcp, owned: true });
  }

  /**
   * Serves an agent directory (`instructions.md`, optional `agent.acl` merged over this agent's
   * configuration, `skills/`, `schedules/*.md`, `tools/*.md`) on `workspace`: one durable session
   * per enabled schedule (id `schedule:<name>`, resumed from the store on every boot), each fire
   * a full governed `send`. Keep the handle and `await handle.stop()`.
   */
  async serveAgentDir(dir: string, workspace: string, options: ServeAgentDirOptions = {}): Promise<AgentDirHandle> {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    const directory = loadAgentDirectory(dir);
    const fleet = options.fleet;
    if (fleet === undefined) checkLocalDirectory(directory);
    else checkFleetDirectory(directory, options, fleet);
    const agent = this.#forDirectory(directory, fleet === undefined ? options.sessionStore : fleet.sessionStore);
    const sessions = new Map<string, Session>();
    try {
      for (const schedule of directory.schedules.filter((s) => s.enabled)) {
        const sessionId = `schedule:${schedule.name}`;
        const extra = options.sessionOptions ?? {};
        const skills = { inlineSkills: [...(extra.inlineSkills ?? []), ...directorySkills(directory)] };
        const base: SessionOptions = { sessionId, sessionStore: agent.sessionStore, autoSave: true, instructions: directory.instructions, ...extra, ...skills };
        const saved = await agent.sessionStore.load(sessionId);
        const session = saved === null ? await agent.sessionAsync(workspace, base) : await agent.resumeSessionAsync(sessionId, { sessionStore: agent.sessionStore, ...extra, ...skills });
        await equipFromDirectory(session, directory);
        sessions.set(schedule.name, session);
      }
    } catch (error) {
      await Promise.all([...sessions.values()].map((s) => s.closeAsync()));
      throw error;
    }
    if (fleet === undefined) return new AgentDirHandle(directory, sessions, options.clock ?? systemClock, options.onFire);
    // The sessions exist in the fleet's store now; the fleet's workers open them per run.
    await Promise.all([...sessions.values()].map((s) => s.closeAsync()));
    const handle = new AgentDirHandle(directory, new Map(), options.clock ?? systemClock, options.onFire, true);
    await serveDirectoryOnFleet(directory, fleet, handle, options.clock);
    return handle;
  }

  /** This agent, or one whose configuration has the directory's `agent.acl` merged over it. */
  #forDirectory(directory: AgentDirectory, store: SessionStore | undefined): Agent {
    const mcp = { source: this.#mcp, owned: false };
    if (directory.aclFile === undefined) return store === undefined ? this : new Agent(this.config, this.#document, this.#options, store, mcp);
    const overlay = loadAgentDocument(directory.aclFile, this.#options.env === undefined ? {} : { env: this.#options.env });
    const merged = mergeAclDocuments(this.#document.document, overlay.document);
    const loaded = toAgentConfig(merged, { baseDir: this.#document.baseDir, ...(this.#document.configFile === undefined ? {} : { configFile: this.#document.configFile }) });
    // Loading never widens authority: the directory's permission block merges strictest-wins over
    // the host's (deny and ask lists union, the stricter default), and the host's policy stays a
    // ceiling every session of the directory is also evaluated against.
    const host = this.config.permissionPolicy;
    const permissionPolicy = mergePermissionPolicies(host, loaded.permissionPolicy);
    // Nor can it loosen the OS sandbox: its `sandbox` block merges strictest-wins too.
    const sandbox = strictestSandbox(this.config.sandbox, loaded.sandbox);
    const config: AgentConfig = { ...loaded, ...(permissionPolicy === undefined ? {} : { permissionPolicy }), ...(sandbox === undefined ? {} : { sandbox }) };
    const agent = new Agent(config, { ...this.#document, document: merged }, this.#options, store ?? this.sessionStore, mcp);
    agent.#ceilingPolicies = host === undefined || host.enabled === false ? this.#ceilingPolicies : [...this.#ceilingPolicies, validatePermissionPolicy(withoutEnabled(host))];
    return agent;
  }

  /**
   * Opens a session bound to `workspace` (a directory, or any id when `workspaceBackend` is given).
   * With a store set (`sessionStore`, `autoSave`, or a durable ACL `storage_backend`) the new
   * session is published as generation 0 before this resolves, so it can be resumed before its
   * first operation (a store that refuses the write does not fail the open: `persistence_failed`).
   */
  async sessionAsync(workspace: string, options: SessionOptions = {}): Promise<Session> {
    await this.#preloadTelemetry(options);
    return opened(this.session(workspace, options));
  }

  /** Synchronous {@link sessionAsync}, kept for compatibility. */
  session(workspace: string, options: SessionOptions = {}): Session {
    return this.#open(workspace, options, undefined);
  }

  /**
   * Opens a top-level session acting as a built-in agent (`explore`, `plan`, `general`,
   * `verification`, `review`): that agent's tool set, prompt and step limit.
   */
  async sessionForAgentAsync(workspace: string, agent: string, options: SessionOptions = {}): Promise<Session> {
    await this.#preloadTelemetry(options);
    const directory = builtinSubagents().some((a) => a.name === agent) ? undefined : this.#agentDirectory(agent);
    if (directory === undefined) return opened(this.sessionForAgent(workspace, agent, options));
    // An agent directory may declare MCP servers (kind: mcp), which connect asynchronously.
    const loaded = loadAgentDirectory(directory);
    const session = this.#openDirectoryAgent(workspace, loaded, options);
    try {
      await equipFromDirectory(session, loaded);
    } catch (error) {
      await session.closeAsync();
      throw error;
    }
    return opened(session);
  }


  /** Synchronous {@link sessionForAgentAsync}, kept for compatibility. */
  sessionForAgent(workspace: string, agent: string, options: SessionOptions = {}): Session {
    const definition = builtinSubagents().find((a) => a.name === agent);
    if (definition !== undefined) return this.#openAs(workspace, definition, options);
    const directory = this.#agentDirectory(agent);
    if (directory === undefined) {
      const dirs = this.#agentDirectoryNames();
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown agent '${agent}'; built-in agents: ${builtinSubagents().map((a) => a.name).join(', ')}${dirs.length === 0 ? '' : `; agent directories: ${dirs.join(', ')}`}`, { details: { field: 'agent', agent } });
    }
    const loaded = loadAgentDirectory(directory);
    const session = this.#openDirectoryAgent(workspace, loaded, options);
    try {
      equipFromDirectorySync(session, loaded);
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  /** A session of a directory agent: its instructions first, its agent.acl merged over the config. */
  #openDirectoryAgent(workspace: string, loaded: AgentDirectory, options: SessionOptions): Session {
    return this.#forDirectory(loaded, undefined).#open(
      workspace,
      { ...options, instructions: options.instructions === undefined ? loaded.instructions : `${loaded.instructions}\n\n${options.instructions}`, inlineSkills: [...(options.inlineSkills ?? []), ...directorySkills(loaded)] },
      undefined,
    );
  }

  /** The directory of agent `name` under the config's `agent_dirs`, if any. */
  #agentDirectory(name: string): string | undefined {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..') return undefined;
    for (const root of this.config.agentDirs) {
      const candidate = join(root, name);
      if (existsSync(join(candidate, 'instructions.md'))) return candidate;
    }
    return undefined;
  }

  #agentDirectoryNames(): string[] {
    return this.config.agentDirs.flatMap((root) => {
      try {
        return readdirSync(root).filter((n) => existsSync(join(root, n, 'instructions.md')));
      } catch {
        return [];
      }
    });
  }

  /** Opens a top-level session acting as a worker spec (its kind's tools, its prompt, model and limits). */
  async sessionForWorkerAsync(workspace: string, spec: WorkerAgentSpec, options: SessionOptions = {}): Promise<Session> {
    await this.#preloadTelemetry(options);
    return opened(this.sessionForWorker(workspace, spec, options));
  }

  /** Synchronous {@link sessionForWorkerAsync}, kept for compatibility. */
  sessionForWorker(workspace: string, spec: WorkerAgentSpec, options: SessionOptions = {}): Session {
    const [checked] = resolveSessionOptions({ workerAgents: [spec] }).workerAgents ?? [];
    const definition = workerDefinition(checked as WorkerAgentSpec);
    if (definition.model !== undefined) this.#checkModel(definition.model, definition.name);
    return this.#openAs(workspace, definition, options);
  }

  #openAs(workspace: string, agent: SubagentDefinition, options: SessionOptions): Session {
    const policy = options.permissionPolicy ?? agent.permissions;
    return this.#open(
      workspace,
      {
        maxToolRounds: agent.maxSteps,
        ...(agent.model === undefined ? {} : { model: agent.model }),
        ...options,
        instructions: options.instructions === undefined ? agent.prompt : `${agent.prompt}\n\n${options.instructions}`,
        ...(policy === undefined ? {} : { permissionPolicy: policy }),
      },
      undefined,
      agent,
    );
  }

  /**
   * The config to build `model`'s client from. A model its provider does not declare is usable
   * when the session says how large its window is (`maxContextTokens`, as the spec's Resilience
   * section describes): the config is extended with it. Without that it is a
   * SESSION_CONFIGURATION_ERROR that says both ways out.
   */
  #configFor(model: string, windowGiven: boolean): AgentConfig {
    try {
      resolveModel(this.config, model);
      return this.config;
    } catch (error) {
      const undeclared = resolveModel(this.config, model, { allowUndeclared: true });
      if (!windowGiven) {
        throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown model '${undeclared.model}' for provider '${undeclared.provider}': declare it under providers "${undeclared.provider}", or set maxContextTokens to use it undeclared`, {
          details: { field: 'model', model },
          cause: error,
        });
      }
      return { ...this.config, providers: this.config.providers.map((p) => (p.name === undeclared.provider ? { ...p, models: [...p.models, { id: undeclared.model }] } : p)) };
    }
  }

  #checkModel(model: string, worker: string): void {
    try {
      resolveModel(this.config, model);
    } catch (error) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `worker '${worker}' uses model '${model}', which the configuration does not declare: ${error instanceof Error ? error.message : String(error)}`, {
        details: { field: 'workerAgents.model', worker, model },
      });
    }
  }

  /**
   * Builds a subagent's session: its agent's tools within the parent's (built-ins, and the parent's
   * MCP tools in `parentTools`), its model, on the parent's workspace.
   */
  #childSession(request: ChildSessionRequest, security: SecurityProvider, services: ToolServices, parentMcpTools: readonly AnyTool[] = []): AgentSession {
    const allowed = new Set(request.parentTools);
    return buildSessionRuntime(this.#recipeAgent(), {
      options: {
        ...(request.model === undefined ? {} : { model: request.model }),
        maxToolRounds: request.maxSteps,
        instructions: request.instructions,
        ...(request.permissionPolicy === undefined ? {} : { permissionPolicy: request.permissionPolicy }),
        ...(request.telemetry === undefined ? {} : { telemetry: request.telemetry.options }),
      },
      // The config's execution defaults apply to children as to every session.
      defaults: this.#childConfigDefaults(),
      sessionId: request.sessionId,
      // The parent's web client: the same allow-list and caps (delegation never widens reach).
      services: () => services,
      // The parent's backend, hence the parent's sandbox.
      workspace: () => ({ backend: request.workspace, workspace: request.workspace, owns: false, sandboxStatus: sessionSandboxStatus(request.workspace, undefined, false) }),
      // Its agent's tools within the parent's (built-ins, and the parent's MCP tools).
      tools: (available) => toolsFor(request.agent, [...available, ...parentMcpTools]).filter((t) => allowed.has(t.name)),
      security: () => security,
      init: () => ({
        inheritedPolicies: request.inheritedPolicies,
        confirmation: request.confirmation,
        budget: request.budget,
        ...(request.activeSkillTools === undefined ? {} : { activeSkillTools: request.activeSkillTools }),
        agentName: request.agent.name,
        ...(request.telemetry?.parent === undefined ? {} : { telemetryParent: request.telemetry.parent }),
      }),
    });
  }

  /** What the session recipe needs from this agent. */
  #recipeAgent(): RecipeAgent {
    return { config: this.config, llm: (model, windowGiven) => this.#factory(this.#configFor(model, windowGiven), model, this.#env), checkModel: (model, worker) => this.#checkModel(model, worker) };
  }

  /**
   * Resumes a saved session from `options.sessionStore` (default: the agent's store) in this or
   * another process: conversation, runs and their event cursors, artifacts, verification
   * reports and labels come back; confirmations that were pending are reported as expired.
   * The saved options apply unless `options` overrides them. The saved system prompt is kept
   * unless `options` sets `systemPrompt`, `instructions` or `projectInstructions` differently:
   * then the prompt is rebuilt from them and the next model request carries it. A missing or
   * incompatible snapshot is SESSION_INITIALIZATION_ERROR.
   */
  async resumeSessionAsync(sessionId: string, options: SessionOptions = {}): Promise<Session> {
    await this.#preloadTelemetry(options);
    const store = this.#storeFor(options);
    // A session of this agent closed without waiting (`close()`) may still be publishing.
    await Promise.all([...this.#sessions].filter((s) => s.id === sessionId).map((s) => (s.closed ? sessionRuntime(s).close() : s.flushSaves()).catch(() => undefined)));
    const snapshot = await this.#loadSnapshot(store, sessionId, () => store.load(sessionId));
    return this.#resume(store, snapshot, options);
  }

  /** Synchronous {@link resumeSessionAsync}; needs a store with synchronous loading (memory, file). */
  resumeSession(sessionId: string, options: SessionOptions = {}): Session {
    const store = this.#storeFor(options);
    const loadSync = store.loadSync?.bind(store);
    if (loadSync === undefined || !store.capabilities.synchronousLoad) {
      throw new CodeError('SESSION_INITIALIZATION_ERROR', `store '${store.name}' cannot load synchronously: use resumeSessionAsync()`, { details: { store: store.name, sessionId } });
    }
    const snapshot = this.#loadSnapshotSync(store, sessionId, () => loadSync(sessionId));
    return this.#resume(store, snapshot, options);
  }

  /**
   * Atomically reconfigures an idle persisted session: saves it, builds the replacement from that
   * generation with `options` over the saved ones (same id, same store), then closes the
   * previous object. New prompt options (`systemPrompt`, `instructions`, `projectInstructions`)
   * rebuild the system prompt the replacement sends. A failed replacement leaves `session` live
   * and unchanged; a busy session is refused with SESSION_BUSY.
   */
  async replaceSessionAsync(session: Session, options: SessionOptions = {}): Promise<Session> {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    if (session.closed) throw new CodeError('SESSION_CLOSED', `session '${session.id}' is closed`, { details: { sessionId: session.id } });
    const core = sessionRuntime(session);
    if (core.currentRun() !== null) throw new CodeError('SESSION_BUSY', `session '${session.id}' is running; replace it when idle`, { details: { sessionId: session.id } });
    const store = core.store;
    if (store === null) throw new CodeError('SESSION_ERROR', `session '${session.id}' has no sessionStore: only persisted sessions can be replaced`, { details: { sessionId: session.id } });
    if (options.sessionId !== undefined && options.sessionId !== session.id) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', 'replaceSessionAsync keeps the session id: sessionId cannot change', { details: { field: 'sessionId' } });
    }
    if (options.sessionStore !== undefined && options.sessionStore !== store) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', 'replaceSessionAsync keeps the session store: sessionStore cannot change', { details: { field: 'sessionStore' } });
    }
    const snapshot = await core.save();
    if (core.currentRun() !== null || session.closed) throw new CodeError('SESSION_BUSY', `session '${session.id}' started an operation during replacement`, { details: { sessionId: session.id } });
    const keepBackend = options.workspaceBackend === undefined && !core.ownsWorkspace ? { workspaceBackend: innerBackend(core.workspace) } : {};
    const replacement = this.#resume(store, snapshot, { ...keepBackend, ...options });
    await session.closeAsync();
    return replacement;
  }

  #resume(store: SessionStore, snapshot: SessionSnapshotV1, options: SessionOptions): Session {
    const saved = snapshot.options as SessionOptions;
    try {
      return this.#open(snapshot.workspace, { ...saved, ...options, sessionId: snapshot.sessionId, sessionStore: store }, snapshot);
    } catch (error) {
      if (CodeError.isInstance(error) && error.code === 'SESSION_CONFIGURATION_ERROR') throw error;
      throw new CodeError('SESSION_INITIALIZATION_ERROR', `cannot resume session '${snapshot.sessionId}' from store '${store.name}': ${error instanceof Error ? error.message : String(error)}`, {
        details: { store: store.name, sessionId: snapshot.sessionId },
        cause: error,
      });
    }
  }

  #storeFor(options: SessionOptions): SessionStore {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    return options.sessionStore ?? this.sessionStore;
  }

  async #loadSnapshot(store: SessionStore, sessionId: string, load: () => Promise<SessionSnapshotV1 | null>): Promise<SessionSnapshotV1> {
    let snapshot: SessionSnapshotV1 | null;
    try {
      snapshot = await load();
    } catch (error) {
      throw initializationError(store, sessionId, error);
    }
    return requireSnapshot(store, sessionId, snapshot);
  }

  #loadSnapshotSync(store: SessionStore, sessionId: string, load: () => SessionSnapshotV1 | null): SessionSnapshotV1 {
    let snapshot: SessionSnapshotV1 | null;
    try {
      snapshot = load();
    } catch (error) {
      throw initializationError(store, sessionId, error);
    }
    return requireSnapshot(store, sessionId, snapshot);
  }

  #open(workspace: string, options: SessionOptions, snapshot: SessionSnapshotV1 | undefined, actingAs?: SubagentDefinition): Session {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    const telemetry = mergeTelemetryOptions(this.config.telemetry, this.#options.telemetry, options.telemetry);
    let extensions: SessionExtensions | null = null;
    const core = buildSessionRuntime(this.#recipeAgent(), {
      options: { ...options, ...(telemetry === undefined ? {} : { telemetry }) },
      defaults: this.#configDefaults(),
      // The web tools obey the session's sandbox network, else that of a local backend the host built.
      services: (resolved) => createWebServices(resolved.webFetch, this.#searchEngines, resolved.sandbox?.network ?? (resolved.workspaceBackend instanceof LocalWorkspaceBackend ? resolved.workspaceBackend.sandboxNetwork() : undefined)),
      workspace: (resolved) => {
        let backend = resolved.workspaceBackend;
        const owns = backend === undefined;
        if (backend === undefined && workspace.startsWith('s3://')) backend = s3WorkspaceFromConfig(this.config, workspace);
        if (backend === undefined) {
          if (/^[a-z][a-z0-9+.-]*:\/\//i.test(workspace)) {
            throw new CodeError('SESSION_CONFIGURATION_ERROR', `workspace '${workspace}' is not a local directory: pass a workspaceBackend for it`, { details: { field: 'workspaceBackend' } });
          }
          requireDirectory(workspace);
          backend = sandboxedLocalBackend(workspace, resolved.sandbox);
        }
        const sandboxStatus = sessionSandboxStatus(backend, resolved.sandbox, owns);
        const degraded = sandboxWarning(sandboxStatus, resolved.sandbox, backend, owns || resolved.sandbox !== undefined);
        if (degraded !== null) (this.#options.onWarning ?? ((w) => process.emitWarning(w.message, { code: 'A3S_SANDBOX_UNAVAILABLE' })))(degraded);
        // What the tools call: the host's overlay over the backend, confinement kept in front.
        return { backend, workspace: resolved.workspaceOverlay === undefined ? backend : overlaidBackend(backend, resolved.workspaceOverlay), owns, sandboxStatus };
      },
      tools: (available) => (actingAs === undefined ? [...available] : toolsFor(actingAs, available)),
      security: (resolved, { backend }) => {
        // Keys written literally in the config are secrets too, like those from the environment.
        const configKeys = this.config.providers.flatMap((p) => (typeof p.apiKey === 'string' && p.apiKey.length >= 8 ? [p.apiKey] : []));
        // S3 credentials (of the config, the backend and the store) are never shown either.
        const s3Keys = [...s3ConfigCredentials(this.config), ...postgresConfigCredentials(this.config), ...s3CredentialValues(backend), ...s3CredentialValues(resolved.sessionStore ?? this.sessionStore)];
        return new DefaultSecurityProvider({ secretValues: [...secretEnvironmentValues(this.#env), ...configKeys, ...s3Keys] });
      },
      init: (resolved, { security, services, bound: { backend } }) => {
        const project = backend instanceof LocalWorkspaceBackend && resolved.projectInstructions !== false && resolved.systemPrompt === undefined ? projectInstructionsSection(findProjectInstructions(backend.root)) : '';
        return {
          ...(project === '' ? {} : { projectInstructions: project }),
          skills: loadSkillDirs([...this.config.skillDirs, ...(resolved.skillDirs ?? [])], this.#options.onWarning ?? ((w) => process.emitWarning(w.message, { code: 'A3S_SKILL_SKIPPED' }))),
          // Late-bound: the session's tool sources attach after the core session exists.
          sessionFactory: (request) => this.#childSession(request, security, services, extensions?.currentMcp?.tools() ?? []),
          checkModel: (m, worker) => this.#checkModel(m, worker),
          ...(actingAs === undefined ? {} : { agentName: actingAs.name }),
          store: resolved.sessionStore ?? this.sessionStore,
          ...(this.#ceilingPolicies.length === 0 ? {} : { inheritedPolicies: this.#ceilingPolicies }),
          ...(snapshot === undefined ? {} : { snapshot }),
        };
      },
    });
    const resolved = core.options;
    // A session acting as an agent with a fixed tool set (explore: read-only) does not inherit the
    // config's MCP tools; the host may still add servers to it explicitly.
    extensions = this.#attachToolSources(core, actingAs === undefined || actingAs.tools === 'all');
    // Closed sessions leave the agent's set, so a long-lived agent does not hold them forever.
    const session = new Session(core, (closed) => this.#sessions.delete(closed), extensions);
    this.#sessions.add(session);
    // With a store set (the option, autoSave, or a durable storage_backend), a new session is in
    // the store from the start (generation 0): it can be resumed before its first operation.
    const store = resolved.sessionStore ?? this.sessionStore;
    if (snapshot === undefined && (resolved.sessionStore !== undefined || resolved.autoSave === true || store.capabilities.durable)) {
      const publishing = core.publishInitial();
      publishing.catch(() => undefined); // reported as persistence_failed
      initialPublish.set(session, publishing);
    }
    return session;
  }

  /** True once {@link close} was called. */
  isClosed(): boolean {
    return this.#closed;
  }

  /** Number of sessions of this agent that are not closed yet. */
  get openSessionCount(): number {
    return this.#sessions.size;
  }

  /** Closes every session opened by this agent, then the config's MCP servers. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#sessions].map((s) => s.closeAsync()));
    this.#sessions.clear();
    if (this.#ownsMcp) await this.#mcp?.close();
    await this.#ownedStore?.close();
  }

  /** Attaches the tool sources (host sources, then the config's MCP servers when `inheritMcp`) to a new session's surface. */
  #attachToolSources(core: AgentSession, inheritMcp: boolean): SessionExtensions {
    const surface = sessionToolSurface(core);
    const bindings: ToolSourceBinding[] = [];
    try {
      for (const source of this.#toolSources) bindings.push(source.attach(surface));
      const mcp = inheritMcp ? (this.#mcp?.attach(surface) ?? null) : null;
      if (mcp !== null) bindings.push(mcp);
      return new SessionExtensions(surface, bindings, mcp);
    } catch (error) {
      // A source that fails to attach must not leave a half-built session (or its servers) behind.
      for (const binding of bindings) void binding.close().catch(() => undefined);
      void core.close();
      throw error;
    }
  }

  /** The session options the agent config sets (same names as the session options). */
  /** Loads the OpenTelemetry API when the session's telemetry may record (a host that registered its SDK since create). */
  #preloadTelemetry(options: SessionOptions): Promise<void> {
    return preloadOpenTelemetry(mergeTelemetryOptions(this.config.telemetry, this.#options.telemetry, options.telemetry));
  }

  /**
   * The config defaults a child session takes: how its calls and turns run (timeouts, breakers,
   * compaction, retention). Not the ones a delegation decides itself (tools, steps, permissions,
   * confirmation, budget, workers, planning) or that belong to the top-level session (storage).
   */
  #childConfigDefaults(): Record<string, unknown> {
    const defaults = this.#configDefaults();
    return Object.fromEntries(CHILD_CONFIG_DEFAULTS.filter((name) => defaults[name] !== undefined).map((name) => [name, defaults[name]]));
  }

  #configDefaults(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.config).filter(([name, value]) => value !== undefined && SESSION_OPTION_NAMES.includes(name)));
  }
}

/** Session options of the agent config that child sessions take too (see `#childConfigDefaults`). */
const CHILD_CONFIG_DEFAULTS = ['toolTimeoutMs', 'llmApiTimeoutMs', 'circuitBreakerThreshold', 'duplicateToolCallThreshold', 'autoCompact', 'autoCompactThreshold', 'artifactStoreLimits', 'retentionLimits'] as const satisfies readonly (keyof SessionOptions)[];

/** The generation-0 publication of sessions opened with a store, awaited by the async openers. */
const initialPublish = new WeakMap<Session, Promise<void>>();

/**
 * `session` once its generation 0 is in its store. A store that refuses it does not fail the
 * open (a failing store never breaks an operation): the write is reported as
 * `persistence_failed` (`operation: 'open'`) and the next save publishes the session.
 */
async function opened(session: Session): Promise<Session> {
  await initialPublish.get(session)?.catch(() => undefined);
  return session;
}

/** A permission block without its `enabled` switch (a policy of rules). */
function withoutEnabled(block: NonNullable<AgentConfig['permissionPolicy']>): PermissionPolicy {
  const { enabled: _enabled, ...rules } = block;
  return rules;
}

function initializationError(store: SessionStore, sessionId: string, error: unknown): CodeError {
  return new CodeError('SESSION_INITIALIZATION_ERROR', `cannot resume session '${sessionId}' from store '${store.name}': ${error instanceof Error ? error.message : String(error)}`, {
    details: { store: store.name, sessionId, ...(CodeError.isInstance(error) ? { cause_code: error.code } : {}) },
    cause: error,
  });
}

function requireSnapshot(store: SessionStore, sessionId: string, snapshot: SessionSnapshotV1 | null): SessionSnapshotV1 {
  if (snapshot === null) {
    throw new CodeError('SESSION_INITIALIZATION_ERROR', `no saved session '${sessionId}' in store '${store.name}'`, { details: { store: store.name, sessionId } });
  }
  return snapshot;
}

/** A local workspace must be an existing, readable directory: SESSION_INITIALIZATION_ERROR at once otherwise. */
function requireDirectory(workspace: string): void {
  let problem: string | null = null;
  try {
    if (!statSync(workspace).isDirectory()) problem = 'is not a directory';
    else accessSync(workspace, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    problem = problem ?? (code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : 'is not readable');
  }
  if (problem !== null) throw new CodeError('SESSION_INITIALIZATION_ERROR', `workspace '${workspace}' ${problem}`, { details: { field: 'workspace', workspace } });
}
