import { randomUUID } from 'node:crypto';
import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { AgentSession, resolveSessionOptions } from '@a3s-lab/code-runtime';
import type { AnyTool, LlmClient, SandboxStatus, SecurityProvider, SessionOptions, SubagentDefinition, ToolServices, WorkspaceBackend } from '@a3s-lab/code-core';
import { createProgramTool } from '@a3s-lab/code-ptc';
import { createBuiltinTools, createGenerateObjectTool, createParallelTaskTool, createSearchSkillsTool, createSkillTool, createTaskTool, createUpdatePlanTool, selectToolsForWorkspace } from '@a3s-lab/code-tools';
import { modelContextWindow } from './model-context-window.js';
import { requestSentSignal } from './request-sent-signal.js';

/** What an `AgentSession` is built from. */
type AgentSessionInit = ConstructorParameters<typeof AgentSession>[0];

/** The options after resolution, as the recipe hands them to a plan's steps. */
export type ResolvedOptions = AgentSessionInit['options'];

/** The workspace a session runs on, as a plan binds it. */
export interface BoundWorkspace {
  /** The backend itself (under any overlay). */
  readonly backend: WorkspaceBackend;
  /** What the tools call (the host's overlay over the backend, when there is one). */
  readonly workspace: WorkspaceBackend;
  /** True when the session created the backend and closes it. */
  readonly owns: boolean;
  readonly sandboxStatus: SandboxStatus;
}

/** What the recipe needs from the agent. */
export interface RecipeAgent {
  readonly config: AgentConfig;
  /** The client of `model` (SESSION_CONFIGURATION_ERROR for an undeclared model without a window). */
  llm(model: string, windowGiven: boolean): LlmClient;
  /** SESSION_CONFIGURATION_ERROR when a worker's model is not declared. */
  checkModel(model: string, worker: string): void;
}

/**
 * How one kind of session differs (top-level, acting as an agent or a worker, resumed, a
 * subagent's child); everything else is the recipe's, the same for every kind.
 */
export interface SessionPlan {
  /** The caller's options (resolved over `defaults`). */
  readonly options: SessionOptions;
  /** The agent config's defaults under the options (all of them, or the children's subset). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** The id when the options name none (children: their task's id); default a new `sess_<uuid>`. */
  readonly sessionId?: string;
  /** The services the tools use: built first, so a bad `webFetch` fails before anything is opened. */
  services(resolved: ResolvedOptions): ToolServices;
  /** The workspace the session binds. */
  workspace(resolved: ResolvedOptions): BoundWorkspace;
  /** The tool surface among `available` (the built-in tools the workspace's capabilities allow). */
  tools(available: readonly AnyTool[]): AnyTool[];
  /** The redaction of the session's output. */
  security(resolved: ResolvedOptions, bound: BoundWorkspace): SecurityProvider;
  /** The rest of the init, which only some kinds set (snapshot, factory, inherited governance...). */
  init(resolved: ResolvedOptions, built: { readonly security: SecurityProvider; readonly services: ToolServices; readonly bound: BoundWorkspace; readonly model: string }): Partial<AgentSessionInit>;
}

/**
 * The one recipe every session of an agent is built with: option resolution (the model's window,
 * then the config defaults, then the options), services, workspace, worker models checked, the
 * model client, the tool selection and the model's `tool_call` switch, security, then the runtime.
 */
export function buildSessionRuntime(agent: RecipeAgent, plan: SessionPlan): AgentSession {
  // The declared window of the session's model is the default of maxContextTokens.
  const window = modelContextWindow(agent.config, plan.options.model ?? agent.config.defaultModel);
  const resolved = resolveSessionOptions({ ...(window === undefined ? {} : { maxContextTokens: window }), ...plan.defaults, ...plan.options });
  const services = plan.services(resolved);
  const model = resolved.model ?? agent.config.defaultModel;
  const bound = plan.workspace(resolved);
  for (const worker of resolved.workerAgents ?? []) if (worker.model !== undefined) agent.checkModel(worker.model, worker.name);
  const llm = agent.llm(model, plan.options.maxContextTokens !== undefined);
  const tools = plan.tools(selectToolsForWorkspace(defaultTools(), bound.workspace.capabilities));
  const security = plan.security(resolved, bound);
  return new AgentSession({
    sessionId: resolved.sessionId ?? plan.sessionId ?? `sess_${randomUUID()}`,
    llm,
    workspace: bound.workspace,
    tools,
    options: resolved,
    security,
    services,
    ownsWorkspace: bound.owns,
    sandboxStatus: bound.sandboxStatus,
    model,
    whenRequestSent: requestSentSignal,
    ...(declaredToolCall(agent.config, model) === false ? { modelToolCalls: false } : {}),
    ...plan.init(resolved, { security, services, bound, model }),
  });
}

/**
 * The built-in tools plus `program`, created once per process. Tool objects are stateless, so
 * sessions share them; sharing also shares the kernel's per-tool compiled argument validators,
 * which would otherwise be recompiled (a few ms of ajv work) in every new session.
 */
let sharedTools: readonly AnyTool[] | undefined;
function defaultTools(): readonly AnyTool[] {
  sharedTools ??= [...createBuiltinTools(), createProgramTool(), createGenerateObjectTool(), createUpdatePlanTool(), createTaskTool(), createParallelTaskTool(), createSkillTool(), createSearchSkillsTool()];
  return sharedTools;
}

/**
 * The tools of `agent` among `available`: its kind's set, or all of them. (A child session never
 * keeps `task` / `parallel_task`: without a session factory the session drops them.)
 */
export function toolsFor(agent: SubagentDefinition, available: readonly AnyTool[]): AnyTool[] {
  const set = agent.tools;
  return set === 'all' ? [...available] : available.filter((t) => set.includes(t.name));
}

/** The config's `tool_call` of `model` (undefined when not declared). */
function declaredToolCall(config: AgentConfig, model: string): boolean | undefined {
  try {
    return resolveModel(config, model).modelConfig.toolCall;
  } catch {
    return undefined;
  }
}
