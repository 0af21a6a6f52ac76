import { verificationSummaryText } from '../verification/verification-summary.js';
import type { VerificationSummary } from '../verification/verification-summary.js';
import type { AgentEventTypeV1 } from './agent-event-types.js';

/** Metadata attached to an event. Replay adds `run_id`, `session_id`, `sequence`, `timestamp_ms`. */
export interface AgentEventMetadata {
  readonly run_id?: string;
  readonly session_id?: string;
  readonly sequence?: number;
  readonly timestamp_ms?: number;
  /** Id of the enclosing tool call (a `program` or `batch`) for nested tool events. */
  readonly parent_tool_id?: string;
  readonly [key: string]: unknown;
}

/**
 * The stable v1 envelope every event uses: live streams, `runEvents()` replay and
 * `runEventPage()` paging. Convenience fields are projected from `payload` for hosts that
 * prefer `event.toolName` to `event.payload.tool_name`; `payload` stays complete.
 */
export interface AgentEvent {
  readonly version: 1;
  readonly type: AgentEventTypeV1;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly metadata?: AgentEventMetadata;
  /** Text of `text_delta`, `reasoning_delta`, `tool_output_delta`, `agent_end`, `error`. */
  readonly text?: string;
  /** Tool name of tool and confirmation events. */
  readonly toolName?: string;
  /** Tool call id of tool and confirmation events. */
  readonly toolId?: string;
  /** Exit code of `tool_end`. */
  readonly exitCode?: number;
  /** Turn number of `turn_start` / `turn_end`. */
  readonly turn?: number;
  /** Stable error code of `error`. */
  readonly code?: string;
  /** One-line form of `agent_end.verification_summary` (absent when there is no evidence). */
  readonly verificationSummaryText?: string;
}

const pick = <T>(payload: Record<string, unknown>, keys: readonly string[], guard: (v: unknown) => v is T): T | undefined => {
  for (const key of keys) {
    const value = payload[key];
    if (guard(value)) return value;
  }
  return undefined;
};
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Builds a v1 envelope and projects the convenience fields from its payload. Unknown types are
 * accepted and kept intact.
 */
export function createAgentEvent(type: AgentEventTypeV1, payload: Readonly<Record<string, unknown>> = {}, metadata?: AgentEventMetadata): AgentEvent {
  const p = payload as Record<string, unknown>;
  const event: { -readonly [K in keyof AgentEvent]: AgentEvent[K] } = { version: 1, type, payload };
  if (metadata !== undefined) event.metadata = metadata;
  const text = pick(p, ['text', 'delta', 'message'], isString);
  if (text !== undefined) event.text = text;
  const toolName = pick(p, ['tool_name', 'name'], isString);
  if (toolName !== undefined && (type.startsWith('tool_') || type.startsWith('confirmation_') || type === 'permission_denied')) event.toolName = toolName;
  const toolId = pick(p, ['tool_id', 'id'], isString);
  if (toolId !== undefined && (type.startsWith('tool_') || type.startsWith('confirmation_') || type === 'permission_denied')) event.toolId = toolId;
  const exitCode = pick(p, ['exit_code'], isNumber);
  if (exitCode !== undefined) event.exitCode = exitCode;
  const turn = pick(p, ['turn'], isNumber);
  if (turn !== undefined) event.turn = turn;
  const code = pick(p, ['code'], isString);
  if (code !== undefined && type === 'error') event.code = code;
  if (type === 'agent_end') {
    const summary = p['verification_summary'];
    const text = isSummary(summary) ? verificationSummaryText(summary) : typeof summary === 'string' ? summary : null;
    if (text !== null) event.verificationSummaryText = text;
  }
  return event;
}

/**
 * Re-projects an envelope received from elsewhere (JSON from a store, a wire) into an
 * {@link AgentEvent}. Returns `null` when the value is not a v1 envelope.
 */
export function parseAgentEvent(value: unknown): AgentEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v['version'] !== 1 || typeof v['type'] !== 'string') return null;
  const payload = typeof v['payload'] === 'object' && v['payload'] !== null ? (v['payload'] as Record<string, unknown>) : {};
  const metadata = typeof v['metadata'] === 'object' && v['metadata'] !== null ? (v['metadata'] as AgentEventMetadata) : undefined;
  return createAgentEvent(v['type'], payload, metadata);
}

/** Returns a copy of `event` with extra metadata merged in (used by run recording and nesting). */
export function withEventMetadata(event: AgentEvent, metadata: AgentEventMetadata): AgentEvent {
  return { ...event, metadata: { ...event.metadata, ...metadata } };
}

function isSummary(value: unknown): value is VerificationSummary {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v['status'] === 'passed' || v['status'] === 'failed') && typeof v['passed'] === 'number' && Array.isArray(v['subjects']) && v['subjects'].every((s) => typeof s === 'object' && s !== null && Array.isArray((s as Record<string, unknown>)['failedRequired']));
}
