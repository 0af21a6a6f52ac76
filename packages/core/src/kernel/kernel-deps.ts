import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { BudgetGuard } from '../budget/budget-guard.js';
import type { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { HookRegistry } from '../hooks/hook-registry.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import type { SecurityProvider } from '../security/security-provider.js';
import type { ToolServices } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import type { InvocationCall } from './invocation-call.js';

/** The resolved, validated settings every stage reads. Built once per kernel. */
export interface KernelDeps {
  readonly registry: ToolRegistry;
  readonly workspace: WorkspaceBackend;
  readonly sessionId: string;
  readonly emit: (event: AgentEvent) => void;
  readonly policy: PermissionPolicy | null;
  readonly confirmation: ConfirmationManager | null;
  readonly hooks: HookRegistry;
  readonly budget: BudgetGuard | null;
  readonly security: SecurityProvider;
  readonly artifacts: ArtifactStore;
  readonly toolTimeoutMs: number;
  readonly maxInlineOutputBytes: number;
  readonly services: ToolServices;
  readonly activeSkillTools: (() => readonly string[] | null) | null;
  readonly abortGraceMs: number;
  readonly maxNestingDepth: number;
}

/**
 * Emits a tool-scoped event; nested calls carry their parent's id in the payload and metadata so
 * hosts can render the tree.
 */
export function emitCallEvent(deps: KernelDeps, call: InvocationCall, type: string, payload: Record<string, unknown>): void {
  if (call.parentToolId === undefined) {
    deps.emit(createAgentEvent(type, payload));
    return;
  }
  payload['parent_tool_id'] = call.parentToolId;
  deps.emit(createAgentEvent(type, payload, { parent_tool_id: call.parentToolId }));
}
