import type { AgentEvent, Session } from '@a3s-lab/code';
import { ServerError } from './server-error.js';

/** Events per `runEventPage` call while following a run. */
export const FOLLOW_PAGE_SIZE = 256;

/** One item of {@link followRunEvents}: a recorded event, or a notice that events were evicted. */
export type FollowedRunItem =
  | { readonly kind: 'event'; readonly sequence: number; readonly event: AgentEvent }
  | { readonly kind: 'gap'; readonly firstAvailableSequence: number };

/**
 * Yields the events of run `runId` recorded after sequence `after` (exclusive, the cursor of
 * `runEventPage`), in sequence order, each exactly once, then waits for new ones until the run
 * has ended and every event was yielded. The run store is the one source: the session's event
 * subscription only wakes the reader, so an event is never delivered twice or skipped however
 * the live fan-out and the paging interleave. Ends early, quietly, when `signal` aborts.
 */
export async function* followRunEvents(session: Session, runId: string, after: number, signal: AbortSignal): AsyncGenerator<FollowedRunItem> {
  let cursor = after;
  let wake: (() => void) | null = null;
  let dirty = false;
  const poke = (): void => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = session.onEvent(poke);
  signal.addEventListener('abort', poke, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return;
      dirty = false;
      // Read the status BEFORE the page: a run that ended before this read has every event recorded.
      const ended = (await session.runs()).find((run) => run.id === runId)?.status !== 'running';
      const page = await session.runEventPage(runId, cursor, FOLLOW_PAGE_SIZE);
      if (page === null) throw new ServerError('NOT_FOUND', `no run '${runId}' in this session`, { runId });
      if (page.retentionGap) yield { kind: 'gap', firstAvailableSequence: page.firstAvailableSequence };
      for (const event of page.events) {
        const sequence = Number(event.metadata?.['sequence']);
        yield { kind: 'event', sequence, event };
        cursor = sequence;
      }
      if (page.hasMore) continue;
      if (ended) return;
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
