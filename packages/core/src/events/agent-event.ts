import { verificationSummaryText } from '../verification/verification-summary.js';
import type { VerificationSummary } from '../verification/verification-summary.js';
import type { FromJsonSchema } from '../tools/from-json-schema.js';
import type { agentEventJsonSchemaV1 } from './agent-event-schema.js';
import { isKnownAgentEventType, type KnownAgentEventTypeV1 } from './agent-event-types.js';
import { isValidAgentEventPayload } from './agent-event-validator.js';

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

/** The JSON Schema document every event type below is read from. */
type EventSchema = typeof agentEventJsonSchemaV1;
type PayloadSchemas = EventSchema['$defs']['payloads']['$defs'];

/**
 * The payload of a known v1 event type, read from its JSON Schema in `events.v1.json` (the
 * same constant the file is generated from), so the two cannot drift. Payloads accept
 * properties they do not list (forward compatibility): those read as `unknown`.
 */
export type AgentEventPayloadV1<T extends KnownAgentEventTypeV1> = Readonly<FromJsonSchema<PayloadSchemas[T], EventSchema>>;

/**
 * The `type` of an event this build does not know (emitted by a newer runtime). At run time it
 * is that runtime's type name, a plain string. It is typed as a pattern no known type matches
 * so that `switch (event.type)` narrows the known branches to their payloads and a misspelt
 * known type (`event.type === 'tool_ned'`) fails to compile; read it as a `string`.
 */
export type UnknownAgentEventType = `(unknown)${string}`;

/** Types whose tool projections (`toolId`, `toolName`) are set. */
type ToolScopedType = Extract<KnownAgentEventTypeV1, `tool_${string}` | `confirmation_${string}` | 'permission_denied'>;

/** A convenience field that is there when the payload guarantees it, may be there otherwise. */
type Projected<Key extends string, Present extends boolean, V> = Present extends true ? { readonly [K in Key]: V } : { readonly [K in Key]?: V };
type Guarantees<P, Shape> = [P] extends [Shape] ? true : false;

/**
 * The convenience fields {@link createAgentEvent} projects from the payload of type `T`,
 * derived from the payload's schema: required where the schema requires the source field,
 * absent (`never`) where the type never carries them.
 */
type ProjectionOf<T extends KnownAgentEventTypeV1, P = AgentEventPayloadV1<T>> = Projected<'text', Guarantees<P, { readonly text: string } | { readonly delta: string } | { readonly message: string }>, string> &
  (T extends ToolScopedType ? Projected<'toolId', Guarantees<P, { readonly tool_id: string }>, string> & Projected<'toolName', Guarantees<P, { readonly tool_name: string }>, string> : { readonly toolId?: never; readonly toolName?: never }) &
  Projected<'exitCode', Guarantees<P, { readonly exit_code: number }>, number> &
  Projected<'turn', Guarantees<P, { readonly turn: number }>, number> &
  (T extends 'error' ? { readonly code: string } : { readonly code?: never }) &
  (T extends 'agent_end' ? { readonly verificationSummaryText?: string } : { readonly verificationSummaryText?: never });

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The event of a known type (a union of types gives the union of their events): the v1 envelope, its typed payload and the projected
 * convenience fields (`event.toolName` for `event.payload.tool_name`; `payload` stays complete).
 */
export type AgentEventOfType<T extends KnownAgentEventTypeV1> = T extends KnownAgentEventTypeV1
  ? Simplify<
      {
        readonly version: 1;
        readonly type: T;
        readonly payload: AgentEventPayloadV1<T>;
        readonly metadata?: AgentEventMetadata;
      } & ProjectionOf<T>
    >
  : never;

/** An event of a type this build knows; `switch (event.type)` narrows it to {@link AgentEventOfType}. */
export type KnownAgentEvent = AgentEventOfType<KnownAgentEventTypeV1>;

/**
 * An event of a type this build does not know (a newer runtime's), kept intact: the payload is
 * untyped and every convenience field it happens to project is optional.
 */
export interface UnknownAgentEvent {
  readonly version: 1;
  readonly type: UnknownAgentEventType;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly metadata?: AgentEventMetadata;
  /** Text of the payload's `text`, `delta` or `message`, when a string. */
  readonly text?: string;
  /** Exit code from the payload's `exit_code`, when a number. */
  readonly exitCode?: number;
  /** Turn from the payload's `turn`, when a number. */
  readonly turn?: number;
  /** Tool name from the payload's `tool_name` or `name` of a `tool_*` / `confirmation_*` type. */
  readonly toolName?: string;
  /** Tool call id from the payload's `tool_id` or `id` of a `tool_*` / `confirmation_*` type. */
  readonly toolId?: string;
  /** Only `error` events carry a code. */
  readonly code?: never;
  /** Only `agent_end` events carry a verification summary. */
  readonly verificationSummaryText?: never;
}

/**
 * The stable v1 envelope every event uses: live streams, `runEvents()` replay and
 * `runEventPage()` paging. A discriminated union on `type`, with one branch per known type
 * (typed payload plus the projected convenience fields) and {@link UnknownAgentEvent} for types
 * a newer runtime may emit: hosts keep a `default` branch for those.
 */
export type AgentEvent = KnownAgentEvent | UnknownAgentEvent;

/** True when `event` is of a type this build knows (narrows away {@link UnknownAgentEvent}). */
export function isKnownAgentEvent(event: AgentEvent): event is KnownAgentEvent {
  return isKnownAgentEventType(event.type);
}

/** Every convenience field an envelope may carry, for building one. */
type MutableEnvelope = {
  version: 1;
  type: string;
  payload: Readonly<Record<string, unknown>>;
  metadata?: AgentEventMetadata;
  text?: string;
  toolName?: string;
  toolId?: string;
  exitCode?: number;
  turn?: number;
  code?: string;
  verificationSummaryText?: string;
};

const firstString = (a: unknown, b: unknown, c?: unknown): string | undefined => (typeof a === 'string' ? a : typeof b === 'string' ? b : typeof c === 'string' ? c : undefined);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Builds a v1 envelope and projects the convenience fields from its payload. A known type takes
 * the payload its schema declares; a type this build does not know (passed as a `string`) is
 * accepted and kept intact.
 */
export function createAgentEvent<T extends KnownAgentEventTypeV1>(type: T, payload: AgentEventPayloadV1<T>, metadata?: AgentEventMetadata): AgentEventOfType<T>;
export function createAgentEvent<T extends string>(type: T & (T extends KnownAgentEventTypeV1 ? never : unknown), payload?: Readonly<Record<string, unknown>>, metadata?: AgentEventMetadata): AgentEvent;
export function createAgentEvent(type: string, payload: Readonly<Record<string, unknown>> = {}, metadata?: AgentEventMetadata): AgentEvent {
  return project(type, payload, metadata);
}

/**
 * The one place an envelope is assembled. Reads the payload fields directly (no key scans): it
 * runs several times per tool call on the hot path.
 */
function project(type: string, payload: Readonly<Record<string, unknown>>, metadata: AgentEventMetadata | undefined): AgentEvent {
  const event: MutableEnvelope = { version: 1, type, payload };
  if (metadata !== undefined) event.metadata = metadata;
  const text = firstString(payload['text'], payload['delta'], payload['message']);
  if (text !== undefined) event.text = text;
  if (type.startsWith('tool_') || type.startsWith('confirmation_') || type === 'permission_denied') {
    const toolName = firstString(payload['tool_name'], payload['name']);
    if (toolName !== undefined) event.toolName = toolName;
    const toolId = firstString(payload['tool_id'], payload['id']);
    if (toolId !== undefined) event.toolId = toolId;
  }
  const exitCode = payload['exit_code'];
  if (isNumber(exitCode)) event.exitCode = exitCode;
  const turn = payload['turn'];
  if (isNumber(turn)) event.turn = turn;
  const code = payload['code'];
  if (type === 'error' && typeof code === 'string') event.code = code;
  if (type === 'agent_end') {
    const summary = payload['verification_summary'];
    const text = isSummary(summary) ? verificationSummaryText(summary) : typeof summary === 'string' ? summary : null;
    if (text !== null) event.verificationSummaryText = text;
  }
  // The envelope's shape follows from `type` and the payload its schema typed at the call site.
  return event as AgentEvent;
}

/**
 * The same event as the nested call of tool call `parentToolId` (a `program` or `batch`): the
 * id goes into the payload and the metadata so hosts can render the tree.
 */
export function nestedAgentEvent<E extends AgentEvent>(event: E, parentToolId: string): E {
  // Same type, a payload with one more (schema-declared, optional) field: still an `E`.
  return project(event.type, { ...event.payload, parent_tool_id: parentToolId }, { ...event.metadata, parent_tool_id: parentToolId }) as E;
}

/**
 * Re-projects an envelope received from elsewhere (JSON from a store, a wire) into an
 * {@link AgentEvent}. Returns `null` when the value is not a v1 envelope, or when its type is a
 * known one and its payload does not match that type's schema (so the typed payload of a parsed
 * known event is true). An unknown type is kept with whatever object payload it has.
 */
export function parseAgentEvent(value: unknown): AgentEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v['version'] !== 1 || typeof v['type'] !== 'string') return null;
  const payload = typeof v['payload'] === 'object' && v['payload'] !== null ? (v['payload'] as Record<string, unknown>) : {};
  const metadata = typeof v['metadata'] === 'object' && v['metadata'] !== null ? (v['metadata'] as AgentEventMetadata) : undefined;
  if (isKnownAgentEventType(v['type']) && !isValidAgentEventPayload(v['type'], payload)) return null;
  return project(v['type'], payload, metadata);
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
