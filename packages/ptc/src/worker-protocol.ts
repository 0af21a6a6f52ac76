// Messages between the host (program-run.ts) and a VM worker (program-worker.ts). Everything
// here is structured-clone data; the guest's values cross as JSON text inside them.
import type { ToolErrorKind } from '@a3s-lab/code-core';
import type { ProgramError } from './program-error-code.js';

/** One `console.*` line of the script. */
export interface ProgramLogEntry {
  readonly level: string;
  readonly message: string;
}

/** The part of a nested call's `ToolResult` the guest-side projection reads. */
export interface WorkerToolResult {
  readonly name: string;
  readonly output: string;
  readonly exitCode: number;
  readonly metadata?: Record<string, unknown>;
  readonly errorKind?: ToolErrorKind;
}

/** What the worker is given at spawn (`workerData`). */
export interface ProgramWorkerData {
  /** One Int32: non-zero asks the running program to stop (read by the interrupt handler). */
  readonly stopBuffer: SharedArrayBuffer;
}

/** What one run is, as the host sends it and the worker's VM run reads it. */
export interface ProgramRunSpec {
  /** ES module source text (never bytecode). */
  readonly source: string;
  readonly inputsJson: string;
  /** Absolute deadline (`Date.now()` clock, shared by every thread); checked by the interrupt handler. */
  readonly deadline: number;
  /** The caller's limits, for the error details and the call count. */
  readonly timeoutMs: number;
  readonly maxToolCalls: number;
  readonly maxOutputBytes: number;
}

/** Host -> worker. */
export type HostMessage =
  | (ProgramRunSpec & { readonly type: 'run'; readonly runId: number; readonly allowedTools: readonly string[] })
  /** The answer to one `call`: the tool's result, or the message of a host-side failure. */
  | { readonly type: 'result'; readonly runId: number; readonly callId: number; readonly result: WorkerToolResult }
  | { readonly type: 'result'; readonly runId: number; readonly callId: number; readonly thrown: string }
  /** End the run now (it may be parked on a call; the stop flag covers running bytecode). */
  | { readonly type: 'stop'; readonly runId: number };

/** Worker -> host. */
export type WorkerMessage =
  /** The QuickJS module is loaded; the worker takes runs. */
  | { readonly type: 'ready' }
  /** One allowed, counted `ctx` call: the host runs it through the governed runtime. */
  | { readonly type: 'call'; readonly runId: number; readonly callId: number; readonly tool: string; readonly args: Record<string, unknown> }
  /** Console lines collected so far (already bounded by the worker). */
  | { readonly type: 'logs'; readonly runId: number; readonly entries: readonly ProgramLogEntry[]; readonly truncated: boolean }
  /** The run is over and its VM disposed. */
  | {
      readonly type: 'done';
      readonly runId: number;
      readonly encodedResult?: string;
      readonly error?: ProgramError;
      readonly disposedCleanly: boolean;
      /** The module failed: the worker must not take another run. */
      readonly poisoned: boolean;
    };
