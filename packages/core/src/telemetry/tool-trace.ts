// The kernel's telemetry seam: what the kernel tells the trace of a call. The session runtime
// (`@a3s-lab/code-runtime`'s SessionTelemetry) implements it; without it nothing is recorded.
import type { ToolResult } from '../tools/tool-result.js';

/** How a call's confirmation ended. */
export type ConfirmationAnswer = 'approved' | 'rejected' | 'timeout' | 'cancelled';

/** What the kernel tells the trace of one call, stage by stage. Absent (`null`) when nothing records. */
export interface ToolTrace {
  permission(decision: 'allow' | 'ask' | 'deny', rule: string | undefined): void;
  confirmation(answer: ConfirmationAnswer, waitedMs: number): void;
  budget(decision: 'allowed' | 'exhausted'): void;
  /** Runs `fn` (the tool's execute) with this call's span as the active context. */
  within<T>(fn: () => T): T;
  /** Ends the span: result, outcome, `error.type`, status; records the duration metric. */
  end(result: ToolResult, outcome: string, args: unknown, errorCode?: string): void;
}

/** The one call of the kernel a trace is started for. */
export interface TracedCall {
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: string;
  readonly parentToolId: string | undefined;
  readonly startedAtMs: number;
}

/** The kernel's telemetry seam: the session's telemetry implements it; absent = zero cost. */
export interface KernelTelemetry {
  /** A trace for `call` (a child of `parent`'s span for nested calls), or `null` when nothing records. */
  startCall(call: TracedCall, parent: ToolTrace | null): ToolTrace | null;
}
