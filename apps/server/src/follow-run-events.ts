import type { AgentEvent, Session } from '@a3s-lab/code';
import { ServerError } from './server-error.js';

/** Events per `runEventPage` call while following a run. */
export const FOLLOW_PAGE_SIZE = 256;

/** One page read while following a run: recorded events in sequence order, and a notice when some were evicted. */
export interface FollowedRunBatch {
  /** Set when the cursor predated the retained window: events up to this sequence are gone. */
  readonly gap: { readonly firstAvailableSequence: number } | null;
  readonly events: readonly { readonly sequence: number; readonly event: AgentEvent }[];
}

/**
 * Yields the events of run `runId` recorded after sequence `after` (exclusive, the cursor of
 * `runEventPage`), in sequence order and in batches, each event exactly once, then waits for new
 * ones until the run has ended and every event was yielded. The run store is the one source:
 * the session's event subscription only wakes the reader, so an event is never delivered twice
 * or skipped however the live fan-out and the paging interleave. Ends early, quietly, when
 * `signal` aborts.
 */
export async function* followRunEvents(session: Session, runId: string, after: number, signal: AbortSignal): AsyncGenerator<FollowedRunBatch> {
  let cursor = after;
  let wake: (() => void) | null = null;
  let dirty = false;
  const poke = (): void => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = session.onEvent(poke);
  signal.addEventListener('abort', poke, { once: true });
  const read = async (): Promise<FollowedRunBatch & { hasMore: boolean }> => {
    const page = await session.runEventPage(runId, cursor, FOLLOW_PAGE_SIZE);
    if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}' in this session`, { runId });
    const events = page.events.map((event) => ({ sequence: Number(event.metadata?.['sequence']), event }));
    const last = events.at(-1);
    if (last !== undefined) cursor = last.sequence;
    return { gap: page.retentionGap ? { firstAvailableSequence: page.firstAvailableSequence } : null, events, hasMore: page.hasMore };
  };
  try {
    for (;;) {
      if (signal.aborted) return;
      dirty = false;
      const batch = await read();
      if (batch.events.length > 0 || batch.gap !== null) yield { gap: batch.gap, events: batch.events };
      if (batch.hasMore || batch.events.length > 0) continue;
      // Nothing new: has the run ended? The status is read BEFORE one last page, so an event
      // recorded just before the run ended cannot slip between the two reads.
      if ((await session.runs()).find((run) => run.id === runId)?.status !== 'running') {
        for (;;) {
          const rest = await read();
          if (rest.events.length > 0 || rest.gap !== null) yield { gap: rest.gap, events: rest.events };
          if (!rest.hasMore) return;
        }
      }
      if (!dirty) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', poke);
  }
}
