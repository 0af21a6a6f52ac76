import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { EVENT_FLUSH_MS, EVENT_SPACING_MS, EventFlushTimer } from './event-flush-timer.js';

describe('EventFlushTimer', () => {
  let now = 0;
  let flushes: number[] = [];
  let timer: EventFlushTimer;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000;
    flushes = [];
    timer = new EventFlushTimer(() => flushes.push(now), () => now);
  });
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number): void => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('the first pending events of a quiet attempt go out after 5 ms; one timer however many events', () => {
    timer.pending();
    timer.pending();
    advance(EVENT_FLUSH_MS - 1);
    expect(flushes).toEqual([]);
    advance(1);
    expect(flushes).toEqual([1_000 + EVENT_FLUSH_MS]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('after a write, pending events wait until 100 ms after it; a write in between takes them and disarms the timer', () => {
    timer.writing();
    advance(10);
    timer.pending();
    advance(EVENT_SPACING_MS - 11);
    expect(flushes).toEqual([]);
    advance(1);
    expect(flushes).toEqual([1_000 + EVENT_SPACING_MS]);
    timer.writing();
    timer.pending();
    advance(50);
    timer.writing();
    expect(vi.getTimerCount()).toBe(0);
    advance(EVENT_SPACING_MS * 2);
    expect(flushes).toHaveLength(1);
  });

  it('long after the last write, the 5 ms delay applies again', () => {
    timer.writing();
    advance(EVENT_SPACING_MS * 3);
    timer.pending();
    advance(EVENT_FLUSH_MS);
    expect(flushes).toHaveLength(1);
  });
});
