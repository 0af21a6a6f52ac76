import { describe, expect, it } from 'vitest';
import { DeadlineTimer } from './deadline-timer.js';
import type { DeadlineEntry } from './deadline-timer.js';

function entry(deadlineAtMs: number, log: string[], name: string): DeadlineEntry {
  return { deadlineAtMs, deadlinePrev: null, deadlineNext: null, deadlineListed: false, expire: () => void log.push(name) };
}

describe('DeadlineTimer', () => {
  it('expires entries in deadline order with one shared timer, never removed ones', async () => {
    const timer = new DeadlineTimer();
    const log: string[] = [];
    const now = Date.now();
    const late = entry(now + 40, log, 'late');
    const early = entry(now + 10, log, 'early');
    const removed = entry(now + 5, log, 'removed');
    timer.add(late);
    timer.add(early);
    timer.add(removed);
    timer.delete(removed);
    expect(timer.size).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(log).toEqual(['early', 'late']);
    expect(timer.size).toBe(0);
  });
});

