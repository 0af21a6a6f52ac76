import { EventType } from '@ag-ui/core';
import type { AGUIEvent } from '@ag-ui/core';
import type { AgUiState } from './ag-ui-state.js';

/**
 * The plan is the run's shared state `{ plan }`: STATE_SNAPSHOT the first time a stream tells
 * it, STATE_DELTA (a JSON Patch replacing `/plan`) after.
 */
export function projectAgUiPlan(state: AgUiState, plan: unknown): AGUIEvent[] {
  if (state.sentState === null) {
    state.sentState = { plan };
    return [{ type: EventType.STATE_SNAPSHOT, snapshot: { plan } }];
  }
  state.sentState.plan = plan;
  return [{ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/plan', value: plan }] }];
}
