/** Something with a deadline that the {@link DeadlineTimer} can expire. */
export interface DeadlineEntry {
  /** Absolute deadline, ms since the epoch. */
  deadlineAtMs: number;
  /** Called once when the deadline passes while the entry is still registered. */
  expire(): void;
  /** @internal intrusive list links, owned by the timer. */
  deadlinePrev: DeadlineEntry | null;
  /** @internal */
  deadlineNext: DeadlineEntry | null;
  /** @internal */
  deadlineListed: boolean;
}

/** Node timers can be (un)referenced; other runtimes' numeric timer ids cannot and need not be. */
function refTimer(timer: ReturnType<typeof setTimeout> | null, ref: boolean): void {
  if (timer === null || typeof timer !== 'object') return;
  const handle = timer as { ref?: () => void; unref?: () => void };
  if (ref) handle.ref?.();
  else handle.unref?.();
}

/**
 * One timer for every running call instead of one per call: it is armed for the earliest
 * deadline and re-armed after each expiry. Entries live in an intrusive doubly linked list, so
 * registering and removing a call allocates nothing; registering a call whose deadline is not the
 * earliest (the common case: same timeout, later start) arms no timer at all; when no call is
 * running the timer stays armed but unreferenced. This keeps the kernel's per-call allocation
 * small.
 */
export class DeadlineTimer {
  #head: DeadlineEntry | null = null;
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #armedAtMs = Infinity;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Number of registered entries. */
  get size(): number {
    return this.#size;
  }

  /** Starts watching `entry` (no-op if already watched). */
  add(entry: DeadlineEntry): void {
    if (entry.deadlineListed) return;
    entry.deadlineListed = true;
    entry.deadlinePrev = null;
    entry.deadlineNext = this.#head;
    if (this.#head !== null) this.#head.deadlinePrev = entry;
    this.#head = entry;
    this.#size += 1;
    if (entry.deadlineAtMs < this.#armedAtMs) this.#arm(entry.deadlineAtMs);
    else if (this.#size === 1) refTimer(this.#timer, true);
  }

  /** Stops watching `entry`; the timer is dropped when nothing is left. */
  delete(entry: DeadlineEntry): void {
    if (!entry.deadlineListed) return;
    entry.deadlineListed = false;
    if (entry.deadlinePrev !== null) entry.deadlinePrev.deadlineNext = entry.deadlineNext;
    else this.#head = entry.deadlineNext;
    if (entry.deadlineNext !== null) entry.deadlineNext.deadlinePrev = entry.deadlinePrev;
    entry.deadlinePrev = null;
    entry.deadlineNext = null;
    this.#size -= 1;
    // An idle timer stays armed (a later call with a later deadline then arms nothing) but must
    // not keep the host process alive.
    if (this.#size === 0) refTimer(this.#timer, false);
  }

  #arm(atMs: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#armedAtMs = atMs;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, atMs - this.#now()));
    if (this.#size === 0) refTimer(this.#timer, false);
  }

  #fire(): void {
    this.#timer = null;
    this.#armedAtMs = Infinity;
    const now = this.#now();
    const expired: DeadlineEntry[] = [];
    for (let entry = this.#head; entry !== null; entry = entry.deadlineNext) {
      if (entry.deadlineAtMs <= now) expired.push(entry);
    }
    for (const entry of expired) this.delete(entry);
    let next = Infinity;
    for (let entry = this.#head; entry !== null; entry = entry.deadlineNext) if (entry.deadlineAtMs < next) next = entry.deadlineAtMs;
    if (next !== Infinity) this.#arm(next);
    for (const entry of expired) entry.expire();
  }
}
