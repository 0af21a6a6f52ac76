import type { Context } from '@opentelemetry/api';
import type { AgentEvent, LlmMessage, PermissionPolicy, RunRecord, SendRequest, SendResult, SubagentDefinition, TelemetryOptions, WorkspaceBackend } from '@a3s-lab/code-core';
import type { BudgetGuard, ConfirmationManager } from '@a3s-lab/code-core/kernel';

/** What the host's factory needs to build a child session. */
export interface ChildSessionRequest {
  /** The child's id: `<parent id>/task_<n>`. */
  readonly sessionId: string;
  readonly parentSessionId: string;
  readonly agent: SubagentDefinition;
  /** `provider/model` of the child (the agent's, else the parent's). */
  readonly model: string | undefined;
  /** The parent's workspace: children work on the same files. */
  readonly workspace: WorkspaceBackend;
  /** Tool names the parent offers; the child's surface is the agent's set within these, minus delegation tools. */
  readonly parentTools: readonly string[];
  /** The child's own rules (the agent's permissions), or none. */
  readonly permissionPolicy: PermissionPolicy | undefined;
  /** Policies of every ancestor, outermost first: the child's kernel applies the strictest decision of all. */
  readonly inheritedPolicies: readonly PermissionPolicy[];
  /** How the child answers `ask` (built from `confirmationInheritance`). */
  readonly confirmation: ConfirmationManager;
  /** The parent's budget guard: children charge the same totals (or `null`). */
  readonly budget: BudgetGuard | null;
  /** Model turns that may request tools. */
  readonly maxSteps: number;
  /** The child's system prompt instructions. */
  readonly instructions: string;
  /** Set when the child runs a skill: the kernel's active-skill stage allows only these tools. */
  readonly activeSkillTools?: readonly string[];
  /** The parent's telemetry: the child's spans go to the same providers, its run under the `task` call's span. */
  readonly telemetry?: { readonly options: TelemetryOptions; readonly parent?: Context };
}

/** What the subagent manager needs of a child session (an `AgentSession` is one). */
export interface ChildSession {
  readonly id: string;
  /** Runs the task; in a durable run the request carries the child's journal (`childRunJournal`). */
  send(request: string | SendRequest): Promise<SendResult>;
  cancel(): Promise<void>;
  close(): Promise<void>;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  runs(): RunRecord[];
  history(): LlmMessage[];
}

/**
 * Builds child sessions. Core defines it; the SDK provides it (model clients, tool objects and
 * security come from the host, which core cannot import). The child is a full session: its own
 * conversation, run store and kernel, on the parent's workspace.
 */
export type SessionFactory = (request: ChildSessionRequest) => ChildSession;
