import type { AgentEvent } from '@a3s-lab/code';
import type { RunProjection } from '../stream-run-projection.js';
import { addEventUsage, emptyFleetUsage, fleetRunRecord } from './fleet-run-record.js';
import type { FleetHost } from './fleet-host.js';

/**
 * A fleet run's event as the protocol encoders see it: without `confirmation_id`. A confirmation
 * of a fleet run is keyed by its tool call id (durable across workers: a worker that resumes the
 * run asks it again under a new confirmation id), so clients answer with the tool id.
 */
export function fleetProjectionEvent(event: AgentEvent): AgentEvent {
  if (event.type !== 'confirmation_required' || !('confirmation_id' in event.payload)) return event;
  const { confirmation_id: _dropped, ...payload } = event.payload;
  return { ...event, payload } as AgentEvent;
}

/**
 * Fleet run `runId` through `projection`, read from the run journal (`fleet.events`): events up
 * to sequence `from` only prime it (a continuation after an approval), later ones are sent; the
 * stream stops after a confirmation still pending (`pause`) or at the end of the run (`finish`,
 * with the usage summed from its `turn_end` events). An aborted `signal` ends it quietly.
 */
export async function* streamFleetProjection(host: FleetHost, sessionId: string, runId: string, from: number, signal: AbortSignal, projection: RunProjection): AsyncGenerator<string> {
  const usage = emptyFleetUsage();
  let started = from === 0;
  let last = 0;
  if (started) yield projection.start();
  for await (const recorded of host.events(runId, 0, signal)) {
    const event = fleetProjectionEvent(recorded);
    const sequence = Number(event.metadata?.['sequence']);
    last = sequence;
    addEventUsage(usage, event);
    if (sequence <= from) {
      projection.prime(event, sequence);
      continue;
    }
    let out = '';
    if (!started) {
      started = true;
      out += projection.start();
    }
    out += projection.encode(event, sequence);
    const toolId = event.payload['tool_id'];
    if (event.type === 'confirmation_required' && typeof toolId === 'string' && (await host.isPending(runId, toolId))) {
      yield out + projection.pause(event, sequence);
      return;
    }
    yield out;
  }
  if (signal.aborted) return;
  if (!started) yield projection.start();
  yield projection.finish(fleetRunRecord(await host.fleetRun(sessionId, runId), usage, last));
}

