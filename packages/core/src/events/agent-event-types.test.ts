import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_TYPES_V1, agentEventTypesV1, isKnownAgentEventType } from './agent-event-types.js';

const REFERENCE_ORDER = [
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
];

describe('agentEventTypesV1', () => {
  it('returns the v1 catalog in the order of REFERENCE.md, without duplicates', () => {
    expect(agentEventTypesV1()).toEqual(REFERENCE_ORDER);
    expect(new Set(AGENT_EVENT_TYPES_V1).size).toBe(AGENT_EVENT_TYPES_V1.length);
  });

  it('returns a fresh copy each call, so callers cannot corrupt the catalog', () => {
    const first = agentEventTypesV1();
    const second = agentEventTypesV1();
    expect(first).not.toBe(second);
    expect(first).not.toBe(AGENT_EVENT_TYPES_V1);
    first.length = 0;
    second.reverse();
    expect(agentEventTypesV1()).toEqual(REFERENCE_ORDER);
    expect(isKnownAgentEventType('agent_start')).toBe(true);
  });
});

describe('isKnownAgentEventType', () => {
  it('accepts every catalog type', () => {
    for (const type of REFERENCE_ORDER) expect(isKnownAgentEventType(type)).toBe(true);
  });

  it.each(['', 'Agent_Start', 'agent_start ', 'future_event', 'toString', '__proto__'])('rejects %j', (type) => {
    expect(isKnownAgentEventType(type)).toBe(false);
  });
});
