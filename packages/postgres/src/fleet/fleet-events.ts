import type { AgentEvent } from '@a3s-lab/code-core';

import type { Database } from '../database.js';
import type { FleetRun } from './fleet-types.js';

/** What {@link readEvents} reads with. */
export interface EventReader {
  readonly db: Database;
  readonly runId: string;
  readonly afterSequence: number;
  readonly pollMs: number;
  /** Resolves on the run's next events notification or after a poll interval. */
  wait(signal: AbortSignal | undefined): Promise<void>;
  run(): Promise<FleetRun | null>;
  /** True once the fleet is closed: the stream ends. */
  closed(): boolean;
  readonly signal?: AbortSignal;
}

const PAGE = 500;

/**
 * The run's events from the event table in sequence order. Writers append contiguous sequences in
 * transactions (an attempt continues after the last written one), so a reader that asks for
 * `seq > after` in order sees neither gaps nor duplicates. Ends once the run is over (or waits
 * for reconciliation) and every event written with that status was read, or when the fleet
 * closes or `signal` aborts.
 */
export async function* readEvents(reader: EventReader): AsyncGenerator<AgentEvent> {
  let after = reader.afterSequence;
  for (;;) {
    if (reader.signal?.aborted === true || reader.closed()) return;
    const page = await reader.db.query<{ seq: number; event: AgentEvent }>('SELECT seq, event FROM a3s_fleet_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [reader.runId, after, PAGE]);
    let contiguous = true;
    for (const row of page.rows) {
      const seq = Number(row.seq);
      if (seq !== after + 1) {
        contiguous = false;
        break;
      }
      after = seq;
      yield row.event;
    }
    if (page.rows.length === PAGE && contiguous) continue;
    if (page.rows.length === 0) {
      const run = await reader.run();
      if (run === null) return;
      if (run.status !== 'queued' && run.status !== 'running') {
        // The status and the run's last events commit together: read once more, then stop.
        const rest = await reader.db.query<{ seq: number }>('SELECT seq FROM a3s_fleet_events WHERE run_id = $1 AND seq > $2 LIMIT 1', [reader.runId, after]);
        if (rest.rows.length === 0) return;
        continue;
      }
    }
    await reader.wait(reader.signal);
  }
}
