import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutputStreamer } from './output-streamer.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('OutputStreamer', () => {
  it('sends the first chunk at once, then at most one delta per interval with everything in between', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const live = new OutputStreamer((text) => sent.push(text), { intervalMs: 100 });
    live.push('a\n');
    expect(sent).toEqual(['a\n']);
    live.push('b\n');
    live.push('c\n');
    expect(sent).toEqual(['a\n']);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(['a\n', 'b\nc\n']);
    live.push('d');
    live.close();
    expect(sent).toEqual(['a\n', 'b\nc\n', 'd']);
    live.push('after close');
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(3);
  });

  it('a burst keeps its newest bytes (never splitting a character) and says how many it skipped', () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const live = new OutputStreamer((text) => sent.push(text), { intervalMs: 100, maxDeltaBytes: 10 });
    live.push('x');
    live.push('0123456789');
    live.push('é€abc');
    vi.advanceTimersByTime(100);
    const [, burst] = sent;
    const kept = burst!.split('\n')[1]!;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(10);
    expect(kept.endsWith('€abc')).toBe(true);
    expect(kept).not.toContain('\uFFFD');
    const skipped = Number(/\[\.\.\. (\d+) bytes not streamed/.exec(burst!)?.[1]);
    expect(skipped + Buffer.byteLength(kept)).toBe(Buffer.byteLength('0123456789é€abc'));
  });

  it('stops after the per-call total with one closing note', () => {
    const sent: string[] = [];
    const live = new OutputStreamer((text) => sent.push(text), { intervalMs: 0, maxTotalBytes: 20 });
    for (let i = 0; i < 10; i += 1) live.push('0123456789');
    live.close();
    expect(sent.join('')).toContain('[live output stopped after 20 bytes; the result holds the output]');
    expect(sent).toHaveLength(2);
  });
});
