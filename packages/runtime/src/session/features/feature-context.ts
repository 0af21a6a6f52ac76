import type { BudgetGuard, ConfirmationManager, HookRegistry, ToolRegistry } from '@a3s-lab/code-core/kernel';
import type { AgentEvent, LlmClient, PermissionPolicy, RunJournal, ToolResult, WorkspaceBackend } from '@a3s-lab/code-core';
import type { SessionTelemetry } from '../../telemetry/session-telemetry.js';
import type { AgentSessionInit } from '../agent-session-init.js';
import type { Conversation } from '../conversation.js';
import type { RunStore } from '../run-store.js';
import type { ResolvedSessionOptions } from '../resolve-session-options.js';
import type { UsageSink } from '../usage-sink.js';

/** A call outside the conversation (host-direct or verification), tracked so close() waits for it. */
export interface HostCallRequest {
  readonly toolName: string;
  readonly args: unknown;
  readonly origin: 'host-direct' | 'verification';
  readonly abortSignal?: AbortSignal;
}

/**
 * What a session feature is built from: the session's single owners (never copies) and the few
 * operations a feature may start. Late-bound members (`activeRunId`, `hostCall`...) work once
 * the session is built, which is before any of them can be called.
 */
export interface FeatureContext {
  readonly init: AgentSessionInit;
  readonly sessionId: string;
  readonly options: ResolvedSessionOptions;
  readonly workspace: WorkspaceBackend;
  readonly registry: ToolRegistry;
  readonly hooks: HookRegistry;
  readonly confirmation: ConfirmationManager;
  readonly budget: BudgetGuard | null;
  readonly telemetry: SessionTelemetry | null;
  readonly conversation: Conversation;
  readonly runs: RunStore;
  /** Aborted when the session closes. */
  readonly closeSignal: AbortSignal;
  /** The permission policy the kernel applies (`enabled: false` = none). */
  readonly policy: PermissionPolicy | undefined;
  emit(event: AgentEvent): void;
  /** Counts model work in the running run and in the budget. */
  readonly usage: UsageSink;
  activeRunId(): string | null;
  /** Durable runs: the run journal the active call `toolId` is a step of (the kernel's), or `null`. */
  journalOfCall(toolId: string): RunJournal | null;
  /** Durable runs: the running run's journal, or `null` (no run, or a run without one). */
  activeJournal(): RunJournal | null;
  /** The session's model, with the generation hooks of `purpose`. */
  llm(purpose: string): LlmClient;
  hostCall(request: HostCallRequest): Promise<ToolResult>;
  /** autoSave after an operation of the feature. */
  afterOperation(operation: string): void;
  /** SESSION_CLOSED naming `what` once the session is closed. */
  requireOpen(what: string): void;
}
