import type { BudgetGuard, ConfirmationManager } from '@a3s-lab/code-core/kernel';
import type { AnyTool, LlmClient, PermissionPolicy, SandboxStatus, SecurityProvider, SessionSnapshotV1, SessionStore, SkillDefinition, ToolServices, WorkspaceBackend } from '@a3s-lab/code-core';
import type { SessionFactory } from '../subagents/session-factory.js';
import type { Context as TelemetryContext } from '@opentelemetry/api';
import type { ResolvedSessionOptions } from './resolve-session-options.js';
import type { RequestSentSignal } from './preparing-llm-client.js';

/** Everything an {@link AgentSession} is built from. The SDK facade fills it. */
export interface AgentSessionInit {
  readonly sessionId: string;
  readonly llm: LlmClient;
  readonly workspace: WorkspaceBackend;
  /** The session's tool surface (already filtered by workspace capabilities). */
  readonly tools: readonly AnyTool[];
  readonly options: ResolvedSessionOptions;
  /** Redaction; default `DefaultSecurityProvider`. */
  readonly security?: SecurityProvider;
  readonly services?: ToolServices;
  /** Closes the workspace backend with the session (true when the session created it). */
  readonly ownsWorkspace?: boolean;
  /** Where `save()` and `autoSave` publish; default `options.sessionStore` when it is a store. */
  readonly store?: SessionStore;
  /** State to start from (resume): validated whole before the session exists. */
  readonly snapshot?: SessionSnapshotV1;
  /** `provider/model` the session runs (children default to it). */
  readonly model?: string;
  /** Builds subagent sessions; without it `task` / `parallel_task` are unavailable. */
  readonly sessionFactory?: SessionFactory;
  /** Checks a worker's `model` against the configuration (SESSION_CONFIGURATION_ERROR naming it). */
  readonly checkModel?: (model: string, worker: string) => void;
  /** Child sessions: the ancestors' policies (the strictest decision of all applies). */
  readonly inheritedPolicies?: readonly PermissionPolicy[];
  /** Child sessions: how `ask` is answered (from `confirmationInheritance`). */
  readonly confirmation?: ConfirmationManager;
  /** Child sessions: the parent's budget guard (shared totals). */
  readonly budget?: BudgetGuard | null;
  /** The workspace's project instructions section (`AGENTS.md`...), appended to the built-in prompt. */
  readonly projectInstructions?: string;
  /** Skills (from `skillDirs`, agent directories, `inlineSkills`): `Skill` / `search_skills`, personas in the prompt. */
  readonly skills?: readonly SkillDefinition[];
  /** A child running a skill: the kernel's active-skill stage allows only these tools. */
  readonly activeSkillTools?: readonly string[];
  /** false when the model cannot call tools (ACL `tool_call = false`): requests offer none. Direct calls still work. */
  readonly modelToolCalls?: boolean;
  /** `gen_ai.agent.name` of the session's runs (a subagent's name); default `a3s-code`. */
  readonly agentName?: string;
  /** Child sessions: the parent of their runs' spans (the `task` call's span). */
  readonly telemetryParent?: TelemetryContext;
  /** The OS sandbox of the workspace's processes, as the host set it up (`session_start` carries it). */
  readonly sandboxStatus?: SandboxStatus;
  /**
   * Tells when the process has handed an HTTP request to the network: calls `onSent` once, after
   * the call, and returns a cancel. While the session's first model request is in flight, it
   * prepares its tools (`prepareTools`: the precompiled validators, the workspace's search engine)
   * in the time it would otherwise wait. Without it they load on first use. The SDK passes one.
   */
  readonly whenRequestSent?: RequestSentSignal;
}
