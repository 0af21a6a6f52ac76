import { describe, expect, it } from 'vitest';
import { dataFrame, framesBeforeMidToolInputCut, namedEventFrame } from './stream-frame.js';
import type { StreamFrame } from './stream-frame.js';

function toolFrame(call: number, chunk: number, of: number): StreamFrame {
  return { text: 'x', toolInputChunk: { call, chunk, of } };
}

describe('stream frames', () => {
  it('serialises both framings', () => {
    expect(namedEventFrame('ping', { type: 'ping' }).text).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(dataFrame({ a: 1 }).text).toBe('data: {"a":1}\n\n');
  });

  it('cuts after half of the first tool call chunks', () => {
    const other: StreamFrame = { text: 'o' };
    const frames = [other, other, toolFrame(0, 0, 4), toolFrame(0, 1, 4), toolFrame(0, 2, 4), toolFrame(0, 3, 4), other, toolFrame(1, 0, 2)];
    expect(framesBeforeMidToolInputCut(frames)).toBe(4);
    expect(framesBeforeMidToolInputCut([other, toolFrame(0, 0, 1), other])).toBe(2);
    expect(framesBeforeMidToolInputCut([other, other])).toBeUndefined();
  });
});
