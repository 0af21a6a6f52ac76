import { EventType } from '@ag-ui/core';
import type { AGUIEvent } from '@ag-ui/core';

/**
 * Our own events as AG-UI CUSTOM events named `a3s.<kind>`: `a3s.confirmation` (an answer to
 * a confirmation, whoever gave it: this client's resume, another tab, the API),
 * `a3s.subagent` (`{ phase, ...payload }`), `a3s.verification` (the run's summary) and
 * `a3s.notice` (`{ event: <v1 type>, ...payload }` for errors, denials, thresholds).
 */
export function agUiCustom(kind: 'confirmation' | 'subagent' | 'verification' | 'notice', value: unknown): AGUIEvent {
  return { type: EventType.CUSTOM, name: `a3s.${kind}`, value };
}
