import type { AgentEvent, SendRequest, SendResult, SessionStore } from '@a3s-lab/code-core';

/** Where a run is. `needs_reconciliation` waits for {@link Fleet.reconcile}. */
export type FleetRunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'needs_reconciliation';

/** Statuses a run does not leave (except `needs_reconciliation`, which the host resolves). */
export const FINAL_STATUSES: ReadonlySet<FleetRunStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A durable run as {@link Fleet.run} reports it. */
export interface FleetRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly status: FleetRunStatus;
  /** Times a worker started (or resumed) the run; > 1 after a worker was lost. */
  readonly attempts: number;
  /** The worker that runs or last ran it; `null` before the first attempt. */
  readonly workerId: string | null;
  readonly prompt: string;
  /** The completed run's text and counters. */
  readonly result: { readonly text: string; readonly turns: number; readonly toolCallsCount: number } | null;
  /** The failed or cancelled run's error. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** The call that stops a `needs_reconciliation` run. */
  readonly reconciliation: { readonly toolId: string; readonly toolName: string } | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
}

/** A confirmation a run waits for, durable across workers. */
export interface FleetPendingConfirmation {
  readonly runId: string;
  readonly sessionId: string;
  readonly toolId: string;
  readonly toolName: string;
  /** Redacted arguments. */
  readonly args: unknown;
  readonly requestedAt: Date;
}

/** How the host resolves a started call whose outcome is unknown. */
export type ReconcileDecision = { readonly retry: true } | { readonly output: string; readonly exitCode: number };

/** The part of an SDK session a fleet worker drives (`@a3s-lab/code`'s `Session`). */
export interface FleetSession {
  readonly id: string;
  send(request: SendRequest): Promise<SendResult>;
  onEvent(listener: (event: AgentEvent) => void): () => void;
  confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<boolean>;
  pendingConfirmations(): Promise<readonly { readonly toolId: string }[]>;
  cancelAsync(): Promise<void>;
  setLabel(key: string, value: string | null): void;
  save(): Promise<unknown>;
  closeAsync(): Promise<void>;
}

/** The part of an SDK agent a fleet needs (`@a3s-lab/code`'s `Agent`). */
export interface FleetAgent {
  resumeSessionAsync(sessionId: string, options: { readonly sessionStore: SessionStore; readonly autoSave: boolean }): Promise<FleetSession>;
}

/** A run submitted to a fleet: the prompt (other request fields are not carried across processes yet). */
export type FleetRequest = string | { readonly prompt: string };
