import { describe, expect, it, vi } from 'vitest';

import type { Database, Listener } from '../database.js';
import { EVENTS_CHANNEL } from './pg-run-journal-sql.js';
import { LISTENING_POLL_FACTOR, RunWakeups } from './run-wakeups.js';

/** A Database whose one LISTEN is driven by the test: `notify(runId)`, `lose()`. */
function fakeDatabase(): { db: Database; notify(runId: string): void; lose(): void; listens(): number } {
  let onNotify: ((payload: string) => void) | null = null;
  /** The connection of the latest LISTEN: `lose()` ends it, a new LISTEN gets a new one. */
  let connection = { live: true };
  let listens = 0;
  const db = {
    listen: async (channel: string, handler: (payload: string) => void): Promise<Listener> => {
      expect(channel).toBe(EVENTS_CHANNEL);
      listens += 1;
      onNotify = handler;
      const mine = (connection = { live: true });
      let done = false;
      return { live: () => !done && mine.live, unlisten: async () => void (done = true) };
    },
  } as unknown as Database;
  return { db, notify: (runId) => onNotify?.(runId), lose: () => void (connection.live = false), listens: () => listens };
}

describe('RunWakeups', () => {
  it('wakes the waiting readers of the notified run only, and a reader whose mark is stale at once', async () => {
    const fake = fakeDatabase();
    // A poll far longer than the test: every wait below ends by a notification or a stale mark.
    const wakeups = new RunWakeups(fake.db, 600_000);
    await Promise.all([wakeups.listen(), wakeups.listen()]);
    expect(fake.listens()).toBe(1);
    const a = wakeups.reader('run_a');
    const a2 = wakeups.reader('run_a');
    const b = wakeups.reader('run_b');
    const order: string[] = [];
    const waits = [a.wait(a.mark(), undefined).then(() => order.push('a')), a2.wait(a2.mark(), undefined).then(() => order.push('a2'))];
    const bWait = b.wait(b.mark(), undefined).then(() => order.push('b'));
    const markBefore = a.mark();
    fake.notify('run_a');
    await Promise.all(waits);
    expect(order).toEqual(['a', 'a2']);
    // A notification that came after the mark was taken: the wait returns without sleeping.
    await a.wait(markBefore, undefined);
    // An abort ends a wait too.
    const abort = new AbortController();
    const aborted = b.wait(b.mark(), abort.signal);
    abort.abort();
    await aborted;
    fake.notify('run_b');
    await bWait;
    expect(order).toEqual(['a', 'a2', 'b']);
    a.release();
    a.release();
    a2.release();
    b.release();
    await wakeups.close();
  });

  it('polls every pollMs x 10 while the LISTEN connection is live, every pollMs once it is lost, until the next listen takes a new one; close wakes every waiter', async () => {
    vi.useFakeTimers();
    try {
      const fake = fakeDatabase();
      const wakeups = new RunWakeups(fake.db, 20);
      await wakeups.listen();
      const reader = wakeups.reader('run_c');
      let ended = false;
      const live = reader.wait(reader.mark(), undefined).then(() => void (ended = true));
      await vi.advanceTimersByTimeAsync(20 * LISTENING_POLL_FACTOR - 1);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await live;
      fake.lose();
      ended = false;
      const lost = reader.wait(reader.mark(), undefined).then(() => void (ended = true));
      await vi.advanceTimersByTimeAsync(20);
      await lost;
      expect(ended).toBe(true);
      // The next reader's listen gives the lost LISTEN up and takes a new one: the slow poll again.
      await wakeups.listen();
      expect(fake.listens()).toBe(2);
      ended = false;
      const again = reader.wait(reader.mark(), undefined).then(() => void (ended = true));
      await vi.advanceTimersByTimeAsync(20);
      expect(ended).toBe(false);
      fake.notify('run_c');
      await again;
      const waiting = wakeups.reader('run_d');
      const woken = waiting.wait(waiting.mark(), undefined);
      await wakeups.close();
      await woken;
      reader.release();
      waiting.release();
    } finally {
      vi.useRealTimers();
    }
  });
});
