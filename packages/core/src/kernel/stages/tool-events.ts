import type { ToolResult } from '../../tools/tool-result.js';
import type { InvocationCall } from '../invocation-call.js';
import type { KernelDeps } from '../kernel-deps.js';
import { createAgentEvent, type AgentEventPayloadV1 } from '../../events/agent-event.js';
import { eventArgs } from '../../events/event-args.js';
import { emitCallEvent } from '../kernel-deps.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Stage 15 (start): `tool_start` with the redacted arguments. */
export function emitToolStart(deps: KernelDeps, call: InvocationCall): void {
  emitCallEvent(deps, call, createAgentEvent('tool_start', { tool_id: call.toolId, tool_name: call.toolName, args: eventArgs(deps.security.redactValue(call.args)), origin: call.origin }));
}

/** Stage 15 (execution): `tool_execution_start`, when `execute` is really about to run. */
export function emitExecutionStart(deps: KernelDeps, call: InvocationCall): void {
  emitCallEvent(deps, call, createAgentEvent('tool_execution_start', { tool_id: call.toolId, tool_name: call.toolName }));
}

/** Stage 15 (end): `tool_end` with the final, redacted and bounded result. Same `tool_id` as the start. */
export function emitToolEnd(deps: KernelDeps, call: InvocationCall, result: ToolResult, extra?: Record<string, unknown>): void {
  const payload: Mutable<AgentEventPayloadV1<'tool_end'>> = {
    tool_id: call.toolId,
    tool_name: call.toolName,
    exit_code: result.exitCode,
    output: result.output,
    origin: call.origin,
    duration_ms: Date.now() - call.startedAtMs,
  };
  if (result.errorKind !== undefined) payload.error_kind = result.errorKind;
  if (result.metadata !== undefined) payload.metadata = result.metadata;
  if (result.artifacts !== undefined) payload.artifacts = [...result.artifacts];
  if (extra !== undefined) Object.assign(payload, extra);
  emitCallEvent(deps, call, createAgentEvent('tool_end', payload));
}

