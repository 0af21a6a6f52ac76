// Our v1 events as ACP `session/update` payloads: message and thought chunks, tool calls and
// their updates (kind, status, locations, diff or output content), plan entries.
import type { AgentEvent } from '@a3s-lab/code';
import type { PlanEntry, PlanEntryStatus, SessionUpdate } from '@agentclientprotocol/sdk';
import { diffContent, outputContent, toolKind, toolLocations, toolTitle } from './tool-updates.js';

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const PLAN_STATUSES: readonly PlanEntryStatus[] = ['pending', 'in_progress', 'completed'];

/** Plan items (`{ step, status }` of `update_plan` / planning) as ACP plan entries. */
export function planEntries(plan: unknown): PlanEntry[] {
  if (!Array.isArray(plan)) return [];
  return plan.flatMap((item): PlanEntry[] => {
    const record = asRecord(item);
    const step = asString(record['step']);
    if (step === undefined || step.length === 0) return [];
    const status = asString(record['status']);
    return [{ content: step, priority: 'medium', status: PLAN_STATUSES.includes(status as PlanEntryStatus) ? (status as PlanEntryStatus) : 'pending' }];
  });
}

/**
 * Maps the events of one session to updates. Stateful: it remembers each call's arguments from
 * `tool_start` to describe its `tool_end`. Events without an ACP counterpart map to nothing.
 */
export class EventUpdates {
  readonly #workspace: string;
  readonly #args = new Map<string, unknown>();

  constructor(workspace: string) {
    this.#workspace = workspace;
  }

  /** The updates `event` stands for (often none). */
  map(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'text_delta':
        return event.payload.text.length === 0 ? [] : [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.payload.text } }];
      case 'reasoning_delta':
        return event.payload.text.length === 0 ? [] : [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.payload.text } }];
      case 'tool_start': {
        const { tool_id: id, tool_name: name, args } = event.payload;
        this.#args.set(id, args);
        return [this.toolCall(id, name, args, 'pending')];
      }
      case 'tool_execution_start':
        return [{ sessionUpdate: 'tool_call_update', toolCallId: event.payload.tool_id, status: 'in_progress' }];
      case 'tool_end': {
        const { tool_id: id, tool_name: name, exit_code: exitCode, output, metadata } = event.payload;
        const args = this.#args.get(id);
        this.#args.delete(id);
        return [this.toolResult(id, name, args, exitCode, output, metadata)];
      }
      case 'task_updated':
        return [{ sessionUpdate: 'plan', entries: planEntries(event.payload.plan) }];
      case 'planning_end': {
        const entries = planEntries(event.payload.plan);
        return entries.length === 0 ? [] : [{ sessionUpdate: 'plan', entries }];
      }
      default:
        return [];
    }
  }

  /** A `tool_call` update announcing a call. */
  toolCall(id: string, name: string, args: unknown, status: 'pending' | 'completed' | 'failed'): SessionUpdate {
    const locations = toolLocations(this.#workspace, args);
    return {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: toolTitle(name, args),
      kind: toolKind(name),
      status,
      rawInput: args,
      ...(locations.length === 0 ? {} : { locations }),
    };
  }

  /** The final `tool_call_update` of a call: status, content (diff or output), locations. */
  toolResult(id: string, name: string, args: unknown, exitCode: number, output: string, metadata: unknown): SessionUpdate {
    const diff = exitCode === 0 ? diffContent(this.#workspace, name, args, metadata) : null;
    const locations = toolLocations(this.#workspace, args, metadata);
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: exitCode === 0 ? 'completed' : 'failed',
      content: diff === null ? outputContent(output) : [diff, ...outputContent(output)],
      rawOutput: { exit_code: exitCode, output },
      ...(locations.length === 0 ? {} : { locations }),
    };
  }
}
