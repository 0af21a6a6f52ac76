import type { Attributes, Span } from '@opentelemetry/api';
import { otelApi, SPAN_STATUS_ERROR } from './otel-api.js';
import type { SecurityProvider, ToolResult } from '@a3s-lab/code-core';
import type { ConfirmationAnswer, ToolTrace, TracedCall } from '@a3s-lab/code-core/kernel';
import * as A from './gen-ai-attributes.js';
import type { TelemetryInstruments } from './telemetry-providers.js';

/** One `execute_tool {tool}` span (may be absent when only metrics record) and its metric. */
export class CallTrace implements ToolTrace {
  readonly span: Span | null;
  readonly #call: TracedCall;
  readonly #instruments: TelemetryInstruments | null;
  readonly #security: SecurityProvider;
  readonly #captureContent: boolean;
  readonly #onEnd: (trace: CallTrace) => void;

  constructor(call: TracedCall, span: Span | null, instruments: TelemetryInstruments | null, security: SecurityProvider, captureContent: boolean, onEnd: (trace: CallTrace) => void) {
    this.#call = call;
    this.span = span;
    this.#instruments = instruments;
    this.#security = security;
    this.#captureContent = captureContent;
    this.#onEnd = onEnd;
  }

  /** The attributes a span starts with. */
  static startAttributes(call: TracedCall): Attributes {
    const server = A.mcpServerOf(call.toolName);
    const attributes: Attributes = {
      [A.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [A.GEN_AI_TOOL_NAME]: call.toolName,
      [A.GEN_AI_TOOL_CALL_ID]: call.toolId,
      [A.GEN_AI_TOOL_TYPE]: server === undefined ? 'function' : 'extension',
      [A.A3S_ORIGIN]: call.origin,
    };
    if (call.parentToolId !== undefined) attributes[A.A3S_PARENT_TOOL_CALL_ID] = call.parentToolId;
    if (server !== undefined) attributes[A.A3S_MCP_SERVER] = server;
    return attributes;
  }

  permission(decision: 'allow' | 'ask' | 'deny', rule: string | undefined): void {
    if (this.span === null) return;
    this.span.setAttribute(A.A3S_PERMISSION_DECISION, decision);
    if (rule !== undefined) this.span.setAttribute(A.A3S_PERMISSION_RULE, this.#security.redact(rule));
  }

  confirmation(answer: ConfirmationAnswer, waitedMs: number): void {
    if (this.span === null) return;
    this.span.setAttributes({ [A.A3S_CONFIRMATION_ANSWER]: answer, [A.A3S_CONFIRMATION_WAIT_MS]: waitedMs });
    this.span.addEvent('a3s_code.confirmation', { [A.A3S_CONFIRMATION_ANSWER]: answer, [A.A3S_CONFIRMATION_WAIT_MS]: waitedMs });
  }

  budget(decision: 'allowed' | 'exhausted'): void {
    this.span?.setAttribute(A.A3S_BUDGET_DECISION, decision);
  }

  within<T>(fn: () => T): T {
    const span = this.span;
    if (span === null) return fn();
    // A span exists only once the API is loaded.
    const api = otelApi()!;
    return api.context.with(api.trace.setSpan(api.context.active(), span), fn);
  }

  end(result: ToolResult, outcome: string, args: unknown, errorCode?: string): void {
    const exitCode = result.exitCode ?? 0;
    const errorType = errorCode ?? (outcome === 'completed' ? undefined : (result.errorKind?.type ?? (outcome === 'failed' ? 'tool_error' : outcome)));
    const span = this.span;
    if (span !== null) {
      span.setAttributes({ [A.A3S_EXIT_CODE]: exitCode, [A.A3S_OUTCOME]: outcome });
      if (errorCode === 'BUDGET_EXHAUSTED') span.setAttribute(A.A3S_BUDGET_DECISION, 'exhausted');
      if (this.#captureContent) {
        // The output is already redacted (stage 13); the arguments are redacted here, like events.
        span.setAttribute(A.GEN_AI_TOOL_CALL_ARGUMENTS, safeJson(this.#security.redactValue(args)));
        span.setAttribute(A.GEN_AI_TOOL_CALL_RESULT, this.#security.redact(result.output));
      }
      if (errorType !== undefined) {
        span.setAttribute(A.ERROR_TYPE, errorType);
        // The status names the kind only: a message could carry file text or a secret.
        span.setStatus({ code: SPAN_STATUS_ERROR, message: errorType });
      }
      span.end();
    }
    const instruments = this.#instruments;
    if (instruments !== null) {
      const attributes: Attributes = { [A.GEN_AI_TOOL_NAME]: this.#call.toolName, [A.A3S_OUTCOME]: outcome, [A.A3S_ORIGIN]: this.#call.origin };
      if (errorType !== undefined) attributes[A.ERROR_TYPE] = errorType;
      instruments.toolDuration.record((Date.now() - this.#call.startedAtMs) / 1000, attributes);
    }
    this.#onEnd(this);
  }
}

/** JSON text of a (redacted) value; never throws. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserializable]"';
  }
}
