import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { BudgetGuard } from '../budget/budget-guard.js';
import type { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { nestedAgentEvent, type AgentEvent } from '../events/agent-event.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { PermissionDecision, PermissionPolicy } from '../permission/permission-policy.js';
import type { SecurityProvider } from '../security/security-provider.js';
import type { KernelTelemetry } from '../telemetry/tool-trace.js';
import type { ToolServices } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import type { RunJournal } from '../journal/run-journal.js';
import type { DeadlineTimer } from './deadline-timer.js';
import type { InvocationCall } from './invocation-call.js';

/** The resolved, validated settings every stage reads. Built once per kernel. */
export interface KernelDeps {
  readonly registry: ToolRegistry;
  readonly workspace: WorkspaceBackend;
  readonly sessionId: string;
  readonly emit: (event: AgentEvent) => void;
  readonly policy: PermissionPolicy | null;
  /** Ancestors' policies (child sessions): the strictest decision of all applies. */
  readonly inheritedPolicies: readonly PermissionPolicy[];
  readonly confirmation: ConfirmationManager | null;
  readonly hooks: HookRegistry;
  readonly budget: BudgetGuard | null;
  readonly security: SecurityProvider;
  readonly artifacts: ArtifactStore;
  readonly toolTimeoutMs: number;
  readonly maxInlineOutputBytes: number;
  readonly services: ToolServices;
  readonly activeSkillTools: (() => readonly string[] | null) | null;
  /** Tools whose calls journal their own steps (see `InvocationKernelOptions.selfJournalingTools`). */
  readonly selfJournalingTools: ReadonlySet<string>;
  readonly abortGraceMs: number;
  readonly maxNestingDepth: number;
  /** One shared timer for every running call's deadline. */
  readonly deadlines: DeadlineTimer;
  /**
   * Policy decisions for calls whose permission target is `none`, by tool name: with an
   * immutable policy such a decision depends on the name only, so it is computed once.
   */
  readonly noneTargetDecisions: Map<string, PermissionDecision>;
  /** OpenTelemetry spans and metrics of calls; `null` = none (one null check per call). */
  readonly telemetry: KernelTelemetry | null;
  /** The running run's journal (durable runs), set per run by the executor; `current: null` = none. */
  readonly journal: { current: RunJournal | null };
}

/**
 * Emits a tool-scoped event; nested calls carry their parent's id in the payload and metadata so
 * hosts can render the tree.
 */
export function emitCallEvent(deps: KernelDeps, call: InvocationCall, event: AgentEvent): void {
  deps.emit(call.parentToolId === undefined ? event : nestedAgentEvent(event, call.parentToolId));
}
