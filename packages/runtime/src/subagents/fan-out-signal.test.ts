import { describe, expect, it } from 'vitest';
import { taskStop } from './fan-out-signal.js';

describe('taskStop', () => {
  it('stops a task that is not journaled with the fan-out at once', () => {
    const outer = new AbortController();
    const fanOut = new AbortController();
    const stop = taskStop(outer.signal, fanOut.signal, false);
    expect(stop.beforeLive).toBeUndefined();
    fanOut.abort(new Error('timeout'));
    expect(stop.signal.aborted).toBe(true);
  });

  it('lets a journaled task replay past the fan-out\'s stop and stops it at its first live step; a live one at once', () => {
    const outer = new AbortController();
    const fanOut = new AbortController();
    const replaying = taskStop(outer.signal, fanOut.signal, true);
    fanOut.abort(new Error('parallel tasks exceeded timeout_ms 1000'));
    expect(replaying.signal.aborted).toBe(false);
    expect(() => replaying.beforeLive?.()).toThrow('task cancelled: parallel tasks exceeded timeout_ms 1000');
    expect(replaying.signal.aborted).toBe(true);

    const second = new AbortController();
    const live = taskStop(outer.signal, second.signal, true);
    live.beforeLive?.();
    expect(live.signal.aborted).toBe(false);
    second.abort(new Error('only 1 of the 2 required task(s) can still succeed'));
    expect(live.signal.aborted).toBe(true);
    // The caller's cancel stops every task at once.
    const third = taskStop(outer.signal, new AbortController().signal, true);
    outer.abort(new Error('cancelled'));
    expect(third.signal.aborted).toBe(true);
    for (const s of [replaying, live, third]) s.dispose();
  });
});
