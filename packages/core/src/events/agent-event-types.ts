/**
 * The ordered catalog of v1 event types known by this build. More may be added in later
 * minor versions; hosts must keep a default branch for types they do not know.
 */
export const AGENT_EVENT_TYPES_V1 = [
  'agent_start',
  'turn_start',
  'text_delta',
  'reasoning_delta',
  'tool_start',
  'tool_input_delta',
  'tool_execution_start',
  'tool_output_delta',
  'tool_end',
  'turn_end',
  'agent_end',
  'error',
  'confirmation_required',
  'confirmation_received',
  'confirmation_timeout',
  'permission_denied',
  'task_updated',
  'planning_start',
  'planning_end',
  'step_start',
  'step_end',
  'subagent_start',
  'subagent_progress',
  'subagent_end',
  'context_compacted',
  'persistence_failed',
  'budget_threshold_hit',
  'mcp_tools_changed',
] as const;

/** A v1 event type known by this build. */
export type KnownAgentEventTypeV1 = (typeof AGENT_EVENT_TYPES_V1)[number];

/**
 * A v1 event type. Deliberately open (`string & {}`) for forward compatibility: a newer runtime
 * may emit types this build does not know, and they must pass through intact.
 */
export type AgentEventTypeV1 = KnownAgentEventTypeV1 | (string & {});

/** Returns a fresh copy of the ordered v1 catalog. */
export function agentEventTypesV1(): KnownAgentEventTypeV1[] {
  return [...AGENT_EVENT_TYPES_V1];
}

const known: ReadonlySet<string> = new Set(AGENT_EVENT_TYPES_V1);

/** True when `type` is in this build's v1 catalog. */
export function isKnownAgentEventType(type: string): type is KnownAgentEventTypeV1 {
  return known.has(type);
}
