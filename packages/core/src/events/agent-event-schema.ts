import type { JsonSchema } from '../tools/json-schema.js';
import { AGENT_EVENT_TYPES_V1, type KnownAgentEventTypeV1 } from './agent-event-types.js';

// No union `type` arrays: the schema compiles under ajv's default strict mode as it is.
// Kept byte-for-byte in sync with `schemas/events.v1.json` (the file is generated from this
// constant by `pnpm --filter @a3s-lab/code-core run schemas`; a test fails when they differ).

const str = { type: 'string' } as const;
const toolId = { type: 'string', minLength: 1 } as const;
const nonNegativeInteger = { type: 'integer', minimum: 0 } as const;
const nonNegativeNumber = { type: 'number', minimum: 0 } as const;
const origin = { enum: ['agent', 'nested', 'host-direct', 'verification'] } as const;

/**
 * Builds the payload schema of one event type; extra properties stay allowed (forward
 * compatibility). Generic with `const` parameters so the literal schema reaches the type
 * level: the typed payloads of {@link AgentEvent} are read from it with `FromJsonSchema`.
 */
function payload<const R extends readonly string[], const P extends Readonly<Record<string, JsonSchema>>>(required: R, properties: P): PayloadSchema<R, P, unknown>;
function payload<const R extends readonly string[], const P extends Readonly<Record<string, JsonSchema>>, const E extends JsonSchema>(required: R, properties: P, extra: E): PayloadSchema<R, P, E>;
function payload(required: readonly string[], properties: Readonly<Record<string, JsonSchema>>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', ...(required.length === 0 ? {} : { required }), properties, ...extra };
}

/** The literal type of a payload schema: `required` only when non-empty, as the JSON has it. */
type PayloadSchema<R extends readonly string[], P, E> = { readonly type: 'object' } & (R extends readonly [] ? unknown : { readonly required: R }) & { readonly properties: P } & E;

const toolScoped = { tool_id: toolId, tool_name: str, origin, parent_tool_id: toolId } as const;

/** Payload schema of every known event type; the `satisfies` makes a missing type a compile error. */
const payloadSchemas = {
  agent_start: payload([], { run_id: str, session_id: str, prompt: str }),
  turn_start: payload(['turn'], { turn: nonNegativeInteger, attempt: { type: 'integer', minimum: 1 }, retry: { type: 'boolean' }, reason: str }),
  text_delta: payload(['text'], { text: str }),
  reasoning_delta: payload(['text'], { text: str }),
  tool_start: payload(['tool_id', 'tool_name', 'args', 'origin'], { ...toolScoped, args: { type: 'object' } }),
  tool_input_delta: payload(['tool_id', 'delta'], { tool_id: toolId, tool_name: str, delta: str }),
  tool_execution_start: payload(['tool_id', 'tool_name'], toolScoped),
  // Output chunks are `text`; `delta` is accepted as the same thing for older emitters.
  tool_output_delta: payload(['tool_id', 'tool_name'], { ...toolScoped, text: str, delta: str }, { anyOf: [{ required: ['text'], properties: { text: str } }, { required: ['delta'], properties: { delta: str } }] } as const),
  tool_end: payload(['tool_id', 'tool_name', 'exit_code', 'output', 'duration_ms'], {
    ...toolScoped,
    exit_code: { type: 'integer' },
    output: str,
    duration_ms: nonNegativeNumber,
    error_kind: { $ref: '#/$defs/toolErrorKind' },
    metadata: { type: 'object' },
    artifacts: { type: 'array', items: str },
  }),
  turn_end: payload(['turn', 'usage'], { turn: nonNegativeInteger, usage: { $ref: '#/$defs/usage' }, stop_reason: str, tool_calls: nonNegativeInteger }),
  agent_end: payload(['text', 'usage'], { run_id: str, text: str, usage: { $ref: '#/$defs/usage' }, verification_summary: { anyOf: [{ type: 'object' }, { type: 'string' }, { type: 'null' }] } }),
  error: payload(['code', 'message'], { run_id: str, code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' }, message: str, details: { type: 'object' } }),
  confirmation_required: payload(['tool_id', 'tool_name', 'args', 'timeout_ms'], { ...toolScoped, args: { type: 'object' }, timeout_ms: nonNegativeInteger, confirmation_id: str, notice: str }),
  confirmation_received: payload(['tool_id', 'tool_name', 'approved'], { ...toolScoped, approved: { type: 'boolean' }, reason: str }),
  confirmation_timeout: payload(['tool_id', 'tool_name', 'action'], { ...toolScoped, action: str }),
  permission_denied: payload(['tool_id', 'tool_name', 'reason'], { ...toolScoped, reason: str, rule: str }),
  task_updated: payload(['plan'], { plan: { type: 'array', items: { $ref: '#/$defs/planItem' } } }),
  planning_start: payload([], {}),
  planning_end: payload([], { plan: { type: 'array', items: { $ref: '#/$defs/planItem' } } }),
  step_start: payload([], {}),
  step_end: payload([], {}),
  subagent_start: payload([], { task_id: str, agent: str, description: str }),
  subagent_progress: payload([], { task_id: str, agent: str }),
  subagent_end: payload([], { task_id: str, agent: str }),
  context_compacted: payload([], { before_tokens: nonNegativeInteger, after_tokens: nonNegativeInteger }),
  persistence_failed: payload([], { code: str, message: str }),
  budget_threshold_hit: payload(['kind', 'threshold', 'used', 'limit'], { kind: str, threshold: { type: 'number', exclusiveMinimum: 0 }, used: nonNegativeNumber, limit: nonNegativeNumber }),
  // An MCP server's tools changed after they were accepted (names as the server calls them).
  // `accepted: false`: the new and changed tools are off the surface until the host accepts them.
  mcp_tools_changed: payload(['server', 'added', 'changed', 'removed', 'accepted'], {
    server: str,
    source: { enum: ['session', 'global'] },
    added: { type: 'array', items: str },
    changed: { type: 'array', items: str },
    removed: { type: 'array', items: str },
    accepted: { type: 'boolean' },
  }),
} as const satisfies Record<KnownAgentEventTypeV1, JsonSchema>;

/**
 * JSON Schema (draft 2020-12) of the v1 event envelope `{ version: 1, type, payload, metadata? }`
 * and of the payload of every event type this build knows. The same document is published as
 * `@a3s-lab/code-core/schemas/events.v1.json`.
 *
 * Forward compatible by design: an event of an unknown `type` only has to be a valid envelope,
 * and every payload accepts properties it does not list.
 */
export const agentEventJsonSchemaV1 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://a3s-lab.dev/schemas/code/events.v1.json',
  title: 'A3S Code agent event (v1 envelope)',
  type: 'object',
  required: ['version', 'type', 'payload'],
  properties: {
    version: { const: 1 },
    type: { type: 'string', minLength: 1 },
    payload: { type: 'object' },
    metadata: { $ref: '#/$defs/metadata' },
    text: str,
    toolName: str,
    toolId: str,
    exitCode: { type: 'integer' },
    turn: nonNegativeInteger,
    code: str,
  },
  // One conditional per known type: the payload of a known type must match its schema.
  allOf: AGENT_EVENT_TYPES_V1.map((type) => ({
    if: { required: ['type'], properties: { type: { const: type } } },
    then: { properties: { payload: { $ref: `#/$defs/payloads/$defs/${type}` } } },
  })),
  $defs: {
    metadata: {
      type: 'object',
      properties: {
        run_id: str,
        session_id: str,
        sequence: nonNegativeInteger,
        timestamp_ms: nonNegativeNumber,
        parent_tool_id: toolId,
      },
    },
    usage: {
      type: 'object',
      properties: {
        input_tokens: nonNegativeInteger,
        output_tokens: nonNegativeInteger,
        prompt_tokens: nonNegativeInteger,
        completion_tokens: nonNegativeInteger,
        total_tokens: nonNegativeInteger,
        cache_read_tokens: nonNegativeInteger,
        cache_write_tokens: nonNegativeInteger,
      },
    },
    toolErrorKind: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', minLength: 1 } },
    },
    planItem: {
      type: 'object',
      required: ['step', 'status'],
      properties: { step: str, status: str },
    },
    payloads: { $defs: payloadSchemas },
  },
} as const satisfies JsonSchema;
