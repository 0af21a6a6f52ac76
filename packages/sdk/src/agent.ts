import { randomUUID } from 'node:crypto';
import { loadAgentConfig } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { AgentSession, CodeError, DefaultSecurityProvider, SESSION_OPTION_NAMES, resolveSessionOptions } from '@a3s-lab/code-core';
import type { AnyTool, SessionOptions, WorkspaceBackend } from '@a3s-lab/code-core';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';
import { createProgramTool } from '@a3s-lab/code-ptc';
import { createBuiltinTools, selectToolsForWorkspace } from '@a3s-lab/code-tools';
import { createLlmClient } from './create-llm-client.js';
import type { LlmClientFactory } from './create-llm-client.js';
import { modelContextWindow } from './model-context-window.js';
import { secretEnvironmentValues } from './secret-environment.js';
import { Session } from './session.js';

/** Options of {@link Agent.create}. */
export interface AgentCreateOptions {
  /** Environment for `env("NAME")` in the config and for secret redaction. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base directory for relative paths in the config. Default: the config file's directory or `process.cwd()`. */
  readonly cwd?: string;
  /** Builds model clients; default: Anthropic / OpenAI-compatible clients from the config. */
  readonly llmClientFactory?: LlmClientFactory;
}

/**
 * The built-in tools plus `program`, created once per process. Tool objects are stateless, so
 * sessions share them; sharing also shares the kernel's per-tool compiled argument validators,
 * which would otherwise be recompiled (a few ms of ajv work) in every new session.
 */
let sharedTools: readonly AnyTool[] | undefined;
function defaultTools(): readonly AnyTool[] {
  sharedTools ??= [...createBuiltinTools(), createProgramTool()];
  return sharedTools;
}

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
  #closed = false;

  private constructor(config: AgentConfig, options: AgentCreateOptions) {
    this.config = config;
    this.#factory = options.llmClientFactory ?? createLlmClient;
    this.#env = options.env ?? process.env;
  }

  /** Loads `config` (a path to an `.acl` file, or inline ACL text). CONFIG_ERROR names the problem. */
  static async create(config: string, options: AgentCreateOptions = {}): Promise<Agent> {
    const loaded = loadAgentConfig(config, {
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    return new Agent(loaded, options);
  }

  /** Opens a session bound to `workspace` (a directory, or any id when `workspaceBackend` is given). */
  async sessionAsync(workspace: string, options: SessionOptions = {}): Promise<Session> {
    return this.session(workspace, options);
  }

  /** Synchronous {@link sessionAsync}, kept for compatibility. */
  session(workspace: string, options: SessionOptions = {}): Session {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'agent is closed');
    // The declared window of the session's model is the default of maxContextTokens.
    const window = modelContextWindow(this.config, options.model ?? this.config.defaultModel);
    const resolved = resolveSessionOptions({ ...(window === undefined ? {} : { maxContextTokens: window }), ...this.#configDefaults(), ...options });
    const model = resolved.model ?? this.config.defaultModel;
    let backend = resolved.workspaceBackend as WorkspaceBackend | undefined;
    const ownsWorkspace = backend === undefined;
    if (backend === undefined) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(workspace)) {
        throw new CodeError('SESSION_CONFIGURATION_ERROR', `workspace '${workspace}' is not a local directory: pass a workspaceBackend for it`, { details: { field: 'workspaceBackend' } });
      }
      backend = new LocalWorkspaceBackend(workspace);
    }
    const llm = this.#factory(this.config, model, this.#env);
    const tools = selectToolsForWorkspace(defaultTools(), backend.capabilities);
    const core = new AgentSession({
      sessionId: resolved.sessionId ?? `sess_${randomUUID()}`,
      llm,
      workspace: backend,
      tools,
      options: resolved,
      security: new DefaultSecurityProvider({ secretValues: secretEnvironmentValues(this.#env) }),
      ownsWorkspace,
    });
    // Closed sessions leave the agent's set, so a long-lived agent does not hold them forever.
    const session = new Session(core, (closed) => this.#sessions.delete(closed));
    this.#sessions.add(session);
    return session;
  }

  /** Number of sessions of this agent that are not closed yet. */
  get openSessionCount(): number {
    return this.#sessions.size;
  }

  /** Closes every session opened by this agent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#sessions].map((s) => s.closeAsync()));
    this.#sessions.clear();
  }

  #configDefaults(): Record<string, unknown> {
    const defaults: Record<string, unknown> = {};
    const source = this.config as unknown as Record<string, unknown>;
    for (const name of SESSION_OPTION_NAMES) {
      if (source[name] !== undefined) defaults[name] = source[name];
    }
    return defaults;
  }
}
