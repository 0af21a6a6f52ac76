import type { UIMessageChunk } from './ui-message-chunk.js';

/**
 * Our own events as the protocol's `data-*` parts (a part with the same type and id replaces the
 * earlier one in the client's message):
 * - `data-plan` (id `plan`): `{ plan }` of `task_updated` / `planning_end`;
 * - `data-subagent` (id = the task id): `{ phase: 'start' | 'progress' | 'end', ...payload }`;
 * - `data-verification` (id `verification`): the run's verification summary (`agent_end`);
 * - `data-notice` (id `notice-<sequence>`): `{ event: <v1 type>, ...payload }` for errors,
 *   permission denials, budget thresholds, compactions and persistence failures.
 */
export function projectPlan(plan: unknown): UIMessageChunk[] {
  return [{ type: 'data-plan', id: 'plan', data: { plan } }];
}

/** `subagent_start` / `subagent_progress` / `subagent_end` as `data-subagent`. */
export function projectSubagent(phase: 'start' | 'progress' | 'end', payload: { readonly task_id?: string }, sequence: number): UIMessageChunk[] {
  return [{ type: 'data-subagent', id: payload.task_id ?? `subagent-${sequence}`, data: { phase, ...payload } }];
}

/** The verification summary of `agent_end` as `data-verification`. */
export function projectVerification(summary: unknown): UIMessageChunk[] {
  return summary === undefined || summary === null ? [] : [{ type: 'data-verification', id: 'verification', data: summary }];
}

/** A notice (error, denial, threshold) as `data-notice`. */
export function projectNotice(kind: string, payload: Readonly<Record<string, unknown>>, sequence: number): UIMessageChunk[] {
  return [{ type: 'data-notice', id: `notice-${sequence}`, data: { event: kind, ...payload } }];
}
