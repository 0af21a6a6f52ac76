/** What {@link watchEventLoop} has seen so far. */
export interface EventLoopWatch {
  /** Interval callbacks run so far. */
  readonly ticks: number;
  /** Longest time between two callbacks (or since the start), in ms. */
  readonly longestGapMs: number;
  /** Stops watching. */
  stop(): void;
}

/**
 * Watches this thread's event loop with a `intervalMs` interval: a program VM must never block
 * it, however long its built-ins run. Shared by the hard-deadline test and bench/ptc.bench.ts.
 */
export function watchEventLoop(intervalMs: number): EventLoopWatch {
  let last = performance.now();
  let ticks = 0;
  let longestGapMs = 0;
  const interval = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, intervalMs);
  return {
    get ticks() {
      return ticks;
    },
    get longestGapMs() {
      return longestGapMs;
    },
    stop: () => clearInterval(interval),
  };
}
