/**
 * A counting semaphore with FIFO waiters: at most `capacity` tool calls execute at once.
 * Acquiring a free slot is synchronous and allocates nothing; only waiting allocates.
 */
export class ExecutionQueue {
  #running = 0;
  readonly #waiters: (() => void)[] = [];

  /** @param capacity slots (a positive integer). */
  constructor(readonly capacity: number) {}

  /** Calls executing now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Takes a slot now when one is free (returns true), else returns false. */
  tryAcquire(): boolean {
    if (this.#running >= this.capacity || this.#waiters.length > 0) return false;
    this.#running += 1;
    return true;
  }

  /**
   * Waits for a slot. `wake` is called (once) when the slot is granted; the returned function
   * withdraws a waiter that has not been woken yet (returns false if it already was).
   */
  enqueue(wake: () => void): () => boolean {
    const waiter = (): void => {
      this.#running += 1;
      wake();
    };
    this.#waiters.push(waiter);
    return () => {
      const index = this.#waiters.indexOf(waiter);
      if (index === -1) return false;
      this.#waiters.splice(index, 1);
      return true;
    };
  }

  /** Frees a slot and hands it to the oldest waiter. */
  release(): void {
    this.#running -= 1;
    const next = this.#waiters.shift();
    next?.();
  }
}
