import type { AgentEvent } from '@a3s-lab/code-core';

import type { Database } from '../database.js';
import { prepared } from '../prepared-statements.js';
import type { FleetRunStatus } from './fleet-types.js';

/** What {@link readEvents} reads with. */
export interface EventReader {
  readonly db: Database;
  readonly runId: string;
  readonly afterSequence: number;
  /** Resolves once the run's notifications reach {@link wait} (awaited before the first look). */
  listening(): Promise<void>;
  /**
   * The number of the run's events notifications seen so far: taken before a look, passed to
   * {@link wait}, so that a notification that comes during the look is not missed.
   */
  mark(): number;
  /** Resolves at once when a notification came since `mark`, else on the next one or after a poll interval. */
  wait(mark: number, signal: AbortSignal | undefined): Promise<void>;
  /** True once the fleet is closed: the stream ends. */
  closed(): boolean;
  readonly signal?: AbortSignal;
}

const PAGE = 500;

/** A page of events with the run's status, read in one statement (one snapshot). */
const PAGE_SQL = prepared(`SELECT r.status, e.seq, e.event FROM a3s_fleet_runs r
  LEFT JOIN LATERAL (SELECT seq, event FROM a3s_fleet_events WHERE run_id = r.run_id AND seq > $2 ORDER BY seq LIMIT $3) e ON true
  WHERE r.run_id = $1 ORDER BY e.seq`);

/**
 * The run's events from the event table in sequence order. Writers append contiguous sequences in
 * transactions (an attempt continues after the last written one), so a reader that asks for
 * `seq > after` in order sees neither gaps nor duplicates. Each look is one statement reading the
 * run's status and its next events in the same snapshot: the status and the run's last events
 * commit together, so a page that shows the run over holds every event written with that status.
 * Ends once the run is over (or waits for reconciliation) and those events were read, when the
 * run is unknown, or when the fleet closes or `signal` aborts.
 */
export async function* readEvents(reader: EventReader): AsyncGenerator<AgentEvent> {
  let after = reader.afterSequence;
  await reader.listening();
  for (;;) {
    if (reader.signal?.aborted === true || reader.closed()) return;
    const mark = reader.mark();
    const page = await reader.db.query<{ status: FleetRunStatus; seq: number | null; event: AgentEvent | null }>(PAGE_SQL, [reader.runId, after, PAGE]);
    const first = page.rows[0];
    if (first === undefined) return;
    const over = first.status !== 'queued' && first.status !== 'running';
    let contiguous = true;
    let read = 0;
    for (const row of page.rows) {
      if (row.seq === null || row.event === null) break;
      const seq = Number(row.seq);
      if (seq !== after + 1) {
        contiguous = false;
        break;
      }
      after = seq;
      read += 1;
      yield row.event;
    }
    if (read === PAGE && contiguous) continue;
    // Over: this snapshot held every event (a gap is an uncommitted write of a live run only).
    if (over && contiguous) return;
    await reader.wait(mark, reader.signal);
  }
}

/** A page of a run's events, in the shape of a session's `runEventPage` (the journal keeps every event: no retention gap). */
export interface FleetEventPage {
  readonly events: AgentEvent[];
  /** Always 1: the event table keeps a run's every event. */
  readonly firstAvailableSequence: number;
  /** Pass as `afterSequence` to continue; `null` when the page is empty. */
  readonly nextAfterSequence: number | null;
  /** Always false (nothing is evicted). */
  readonly retentionGap: boolean;
  readonly hasMore: boolean;
}

/** Most events one page holds (as a session's `runEventPage`). */
export const MAX_EVENT_PAGE = 10_000;

/**
 * Up to `limit` events of the run after `afterSequence` as written so far, or `null` when the run
 * is unknown. Contiguous: a page stops before a sequence a live run's writer has not committed yet.
 */
export async function readEventPage(db: Database, runId: string, afterSequence: number, limit: number): Promise<FleetEventPage | null> {
  const size = Math.min(limit, MAX_EVENT_PAGE);
  const page = await db.query<{ status: FleetRunStatus; seq: number | null; event: AgentEvent | null }>(PAGE_SQL, [runId, afterSequence, size + 1]);
  if (page.rows[0] === undefined) return null;
  const events: AgentEvent[] = [];
  let after = afterSequence;
  let more = false;
  for (const row of page.rows) {
    if (row.seq === null || row.event === null || Number(row.seq) !== after + 1) break;
    if (events.length === size) {
      more = true;
      break;
    }
    after = Number(row.seq);
    events.push(row.event);
  }
  return { events, firstAvailableSequence: 1, nextAfterSequence: events.length === 0 ? null : after, retentionGap: false, hasMore: more };
}
