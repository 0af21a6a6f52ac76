import { loadAgentDirectory, loadAgentDocument, toAgentConfig } from '@a3s-lab/code-config';
import type { AgentDirectory, LoadedAclDocument } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { preloadOpenTelemetry, resolveSessionOptions, workerDefinition } from '@a3s-lab/code-runtime';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient, PermissionPolicy, SessionOptions, SessionSnapshotV1, SessionStore, SubagentDefinition, ToolSource, WorkerAgentSpec } from '@a3s-lab/code-core';
import type { McpServerConfig } from './mcp-types.js';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';
import { sandboxMcpTransport } from './session-sandbox.js';
import { createLlmClient } from './create-llm-client.js';
import type { LlmClientFactory } from './create-llm-client.js';
import { SharedLlmClients } from './shared-llm-clients.js';
import { loadMcp } from './load-mcp.js';
import type { McpToolSourceHandle } from './mcp-tool-source-handle.js';
import { configuredSessionStore } from './s3-from-config.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { S3SessionStore } from './s3-session-store.js';
import { buildSessionRuntime, toolsFor } from './session-recipe.js';
import type { RecipeAgent } from './session-recipe.js';
import { findProjectInstructions, projectInstructionsSection } from './project-instructions.js';
import { loadSkillDirs } from './load-skills.js';
import { Session, sessionRuntime } from './session.js';
import { attachToolSources } from './session-extensions.js';
import type { SessionExtensions } from './session-extensions.js';
import type { AgentDirHandle } from './agent-dir-server.js';
import { equipFromDirectory, equipFromDirectorySync } from './equip-from-directory.js';
import { checkFleetDirectory, checkLocalDirectory } from './agent-dir-fleet.js';
import { createSearchEngines, createWebServices } from './web-services.js';
import type { SearchEngineSet } from './web-services.js';
import { checkAgentTelemetry, mergeTelemetryOptions } from './session-telemetry-options.js';
import type { AgentCreateOptions, ServeAgentDirOptions } from './agent-options.js';
import { actingAgentOptions, directoryAgentOptions, resolveNamedAgent } from './named-agent.js';
import { serveAgentDirectory } from './serve-agent-directory.js';
import { buildChildSession } from './child-session.js';
import { configSessionDefaults } from './config-session-defaults.js';
import { directoryAgentConfig } from './directory-agent-config.js';
import { checkWorkerModel, configForModel } from './model-config.js';
import { opened, publishInitially } from './session-initial-publish.js';
import { prepareReplacement } from './session-replacement.js';
import { loadSnapshot, loadSnapshotSync, resumeFailure } from './session-snapshot-load.js';
import { bindSessionWorkspace } from './session-workspace-binding.js';
import { sessionSecurity } from './session-security.js';

export type { AgentCreateOptions, AgentWarning, ServeAgentDirOptions } from './agent-options.js';

/**
 * An agent: a loaded configuration that opens sessions. Create one with
 * `await Agent.create('agent.acl')` (a path or inline ACL text).
 */
export class Agent {
  /** The typed configuration. */
  readonly config: AgentConfig;
  readonly #factory: LlmClientFactory;
  /**
   * With the built-in factory, the clients its sessions share (one per provider settings and
   * model; an agent derived for a directory shares its parent's); `null` with a host's factory,
   * which is called for every session.
   */
  readonly #llmClients: SharedLlmClients | null;
  /** False for the agents derived for agent directories, which share their parent's clients. */
  readonly #ownsLlmClients: boolean;
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

  private constructor(config: AgentConfig, document: LoadedAclDocument, options: AgentCreateOptions, sessionStore?: SessionStore, mcp: { readonly source: McpToolSourceHandle | null; readonly owned: boolean } = { source: null, owned: false }, llmClients?: SharedLlmClients | null) {
    this.config = config;
    this.#options = options;
    this.#document = document;
    this.#searchEngines = createSearchEngines(config.webSearch);
    this.#factory = options.llmClientFactory ?? createLlmClient;
    this.#llmClients = llmClients !== undefined ? llmClients : this.#factory === createLlmClient ? new SharedLlmClients() : null;
    this.#ownsLlmClients = llmClients === undefined;
    if (this.#llmClients !== null) sharedClients.set(this, this.#llmClients);
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
    return serveAgentDirectory(agent, directory, workspace, options);
  }

  /** This agent, or one whose configuration has the directory's `agent.acl` merged over it. */
  #forDirectory(directory: AgentDirectory, store: SessionStore | undefined): Agent {
    const mcp = { source: this.#mcp, owned: false };
    if (directory.aclFile === undefined) return store === undefined ? this : new Agent(this.config, this.#document, this.#options, store, mcp, this.#llmClients);
    const merged = directoryAgentConfig(this.config, this.#document, directory.aclFile, this.#options.env);
    const agent = new Agent(merged.config, merged.document, this.#options, store ?? this.sessionStore, mcp, this.#llmClients);
    agent.#ceilingPolicies = merged.ceiling === null ? this.#ceilingPolicies : [...this.#ceilingPolicies, merged.ceiling];
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
    const target = resolveNamedAgent(this.config.agentDirs, agent);
    if (target.kind === 'builtin') return opened(this.#openAs(workspace, target.definition, options));
    // An agent directory may declare MCP servers (kind: mcp), which connect asynchronously.
    const session = this.#openDirectoryAgent(workspace, target.directory, options);
    try {
      await equipFromDirectory(session, target.directory);
    } catch (error) {
      await session.closeAsync();
      throw error;
    }
    return opened(session);
  }

  /** Synchronous {@link sessionForAgentAsync}, kept for compatibility. */
  sessionForAgent(workspace: string, agent: string, options: SessionOptions = {}): Session {
    const target = resolveNamedAgent(this.config.agentDirs, agent);
    if (target.kind === 'builtin') return this.#openAs(workspace, target.definition, options);
    const session = this.#openDirectoryAgent(workspace, target.directory, options);
    try {
      equipFromDirectorySync(session, target.directory);
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  /** A session of a directory agent: its instructions first, its agent.acl merged over the config. */
  #openDirectoryAgent(workspace: string, loaded: AgentDirectory, options: SessionOptions): Session {
    return this.#forDirectory(loaded, undefined).#open(workspace, directoryAgentOptions(loaded, options), undefined);
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
    if (definition.model !== undefined) checkWorkerModel(this.config, definition.model, definition.name);
    return this.#openAs(workspace, definition, options);
  }

  #openAs(workspace: string, agent: SubagentDefinition, options: SessionOptions): Session {
    return this.#open(workspace, actingAgentOptions(agent, options), undefined, agent);
  }

  /** What the session recipe needs from this agent. */
  #recipeAgent(): RecipeAgent {
    return { config: this.config, llm: (model, windowGiven) => this.#llm(configForModel(this.config, model, windowGiven), model), checkModel: (model, worker) => checkWorkerModel(this.config, model, worker) };
  }

  /** The client of `model`: the shared one of the built-in factory, else the host factory's new one. */
  #llm(config: AgentConfig, model: string): LlmClient {
    return this.#llmClients === null ? this.#factory(config, model, this.#env) : this.#llmClients.client(config, model, this.#env);
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
    const snapshot = await loadSnapshot(store, sessionId);
    return this.#resume(store, snapshot, options);
  }

  /** Synchronous {@link resumeSessionAsync}; needs a store with synchronous loading (memory, file). */
  resumeSession(sessionId: string, options: SessionOptions = {}): Session {
    const store = this.#storeFor(options);
    const snapshot = loadSnapshotSync(store, sessionId);
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
    const { store, snapshot, options: replacing } = await prepareReplacement(session, options);
    const replacement = this.#resume(store, snapshot, replacing);
    await session.closeAsync();
    return replacement;
  }

  #resume(store: SessionStore, snapshot: SessionSnapshotV1, options: SessionOptions): Session {
    const saved = snapshot.options as SessionOptions;
    try {
      return this.#open(snapshot.workspace, { ...saved, ...options, sessionId: snapshot.sessionId, sessionStore: store }, snapshot);
    } catch (error) {
      throw resumeFailure(store, snapshot, error);
    }
  }

  #storeFor(options: SessionOptions): SessionStore {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    return options.sessionStore ?? this.sessionStore;
  }

  #open(workspace: string, options: SessionOptions, snapshot: SessionSnapshotV1 | undefined, actingAs?: SubagentDefinition): Session {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    const telemetry = mergeTelemetryOptions(this.config.telemetry, this.#options.telemetry, options.telemetry);
    let extensions: SessionExtensions | null = null;
    const core = buildSessionRuntime(this.#recipeAgent(), {
      options: { ...options, ...(telemetry === undefined ? {} : { telemetry }) },
      defaults: configSessionDefaults(this.config),
      // The web tools obey the session's sandbox network, else that of a local backend the host built.
      services: (resolved) => createWebServices(resolved.webFetch, this.#searchEngines, resolved.sandbox?.network ?? (resolved.workspaceBackend instanceof LocalWorkspaceBackend ? resolved.workspaceBackend.sandboxNetwork() : undefined)),
      workspace: (resolved) => bindSessionWorkspace(this.config, workspace, resolved, this.#options.onWarning),
      tools: (available) => (actingAs === undefined ? [...available] : toolsFor(actingAs, available)),
      security: (resolved, { backend }) => sessionSecurity(this.config, this.#env, backend, resolved.sessionStore ?? this.sessionStore),
      init: (resolved, { security, services, bound: { backend } }) => {
        const project = backend instanceof LocalWorkspaceBackend && resolved.projectInstructions !== false && resolved.systemPrompt === undefined ? projectInstructionsSection(findProjectInstructions(backend.root)) : '';
        return {
          ...(project === '' ? {} : { projectInstructions: project }),
          skills: loadSkillDirs([...this.config.skillDirs, ...(resolved.skillDirs ?? [])], this.#options.onWarning ?? ((w) => process.emitWarning(w.message, { code: 'A3S_SKILL_SKIPPED' }))),
          // Late-bound: the session's tool sources attach after the core session exists.
          sessionFactory: (request) => buildChildSession(this.#recipeAgent(), request, security, services, extensions?.currentMcp?.tools() ?? []),
          checkModel: (m, worker) => checkWorkerModel(this.config, m, worker),
          ...(actingAs === undefined ? {} : { agentName: actingAs.name }),
          store: resolved.sessionStore ?? this.sessionStore,
          ...(this.#ceilingPolicies.length === 0 ? {} : { inheritedPolicies: this.#ceilingPolicies }),
          ...(snapshot === undefined ? {} : { snapshot }),
        };
      },
    });
    // A session acting as an agent with a fixed tool set (explore: read-only) does not inherit the
    // config's MCP tools; the host may still add servers to it explicitly.
    extensions = attachToolSources(core, this.#toolSources, actingAs === undefined || actingAs.tools === 'all' ? this.#mcp : null);
    // Closed sessions leave the agent's set, so a long-lived agent does not hold them forever.
    const session = new Session(core, (closed) => this.#sessions.delete(closed), extensions);
    this.#sessions.add(session);
    if (snapshot === undefined) publishInitially(session, core, core.options.sessionStore ?? this.sessionStore);
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
    if (this.#ownsLlmClients) this.#llmClients?.clear();
    await this.#ownedStore?.close();
  }

  /** Loads the OpenTelemetry API when the session's telemetry may record (a host that registered its SDK since create). */
  #preloadTelemetry(options: SessionOptions): Promise<void> {
    return preloadOpenTelemetry(mergeTelemetryOptions(this.config.telemetry, this.#options.telemetry, options.telemetry));
  }
}

/** The shared clients of each agent with the built-in factory; never exposed to hosts. */
const sharedClients = new WeakMap<Agent, SharedLlmClients>();

/** @internal The clients `agent`'s sessions share; `null` when the host supplies the factory. */
export function agentLlmClients(agent: Agent): SharedLlmClients | null {
  return sharedClients.get(agent) ?? null;
}
