import { performance } from 'node:perf_hooks';

/** Delay before the first pending events of a quiet attempt are written (a run's first events reach readers at once). */
export const EVENT_FLUSH_MS = 5;

/**
 * Least time between an attempt's writes before pending events are written on their own. Events
 * mostly ride with the steps they lead to (a model response, a tool call's outcome); between
 * steps (a model streaming for seconds) they are written at most this often: ten writes a second
 * per streaming run instead of one per 5 ms.
 */
export const EVENT_SPACING_MS = 100;

/**
 * When an attempt's pending events are written alone (the journal's events-only write): 5 ms
 * after the first pending event when the attempt wrote nothing in the last
 * {@link EVENT_SPACING_MS}, otherwise that long after its last write. Any write (a step, the end)
 * carries the pending events and cancels the timer. One timer at most, none while nothing is pending.
 */
export class EventFlushTimer {
  readonly #flush: () => void;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastWriteAt = Number.NEGATIVE_INFINITY;

  /** `flush` writes the pending events; `now` is the clock (milliseconds, monotonic). */
  constructor(flush: () => void, now: () => number = () => performance.now()) {
    this.#flush = flush;
    this.#now = now;
  }

  /** An event is pending: arms the timer unless it is armed. */
  pending(): void {
    if (this.#timer !== null) return;
    const delay = Math.max(EVENT_FLUSH_MS, this.#lastWriteAt + EVENT_SPACING_MS - this.#now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, delay);
  }

  /** A write of the attempt starts now (it carries whatever is pending): the timer is off. */
  writing(): void {
    this.#lastWriteAt = this.#now();
    this.cancel();
  }

  /** Disarms the timer (the pending events were taken). */
  cancel(): void {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
  }
}
