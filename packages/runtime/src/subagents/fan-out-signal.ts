import { cancelled } from './child-errors.js';

/** How one task of a fan-out stops: the signal it runs under, and its journal's `beforeLive`. */
export interface TaskStop {
  readonly signal: AbortSignal;
  /** For a journaled child: stops it at its first unrecorded step once the fan-out stopped. */
  readonly beforeLive: (() => void) | undefined;
  /** Detaches from the fan-out's signal. */
  dispose(): void;
}

/**
 * The stop of one task under `outer` (the caller's cancel, the session's close: always at once)
 * and `fanOut` (the fan-out's own stop: `timeout_ms` or its fail-fast rule). A child that is not
 * journaled stops with either at once. A journaled child stops with `fanOut` at once only when it
 * is live: while it still replays recorded steps it goes on replaying (what an earlier attempt
 * recorded is what happened, up to a finished task's answer) and stops at its first step that is
 * not recorded. So a resumed fan-out whose deadline passed while no process ran it, or whose
 * sibling's failure stopped it, ends the same way whichever task reached which step first.
 */
export function taskStop(outer: AbortSignal, fanOut: AbortSignal | undefined, journaled: boolean): TaskStop {
  if (fanOut === undefined) return { signal: outer, beforeLive: undefined, dispose: () => undefined };
  if (!journaled) return { signal: AbortSignal.any([outer, fanOut]), beforeLive: undefined, dispose: () => undefined };
  const own = new AbortController();
  let live = false;
  const onStop = (): void => {
    if (live) own.abort(fanOut.reason);
  };
  fanOut.addEventListener('abort', onStop, { once: true });
  return {
    signal: AbortSignal.any([outer, own.signal]),
    beforeLive: () => {
      live = true;
      if (!fanOut.aborted) return;
      own.abort(fanOut.reason);
      throw cancelled(own.signal);
    },
    dispose: () => fanOut.removeEventListener('abort', onStop),
  };
}
