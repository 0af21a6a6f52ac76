import { describe, expect, it, vi } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { createAgentEvent } from '../events/agent-event.js';
import { EventStream } from './event-stream.js';

const ev = (n: number) => createAgentEvent('text_delta', { text: String(n) });

describe('EventStream', () => {
  it('delivers events queued before the consumer waits, then events pushed while it waits', async () => {
    const stream = new EventStream<string>(() => undefined);
    stream.push(ev(1));
    stream.push(ev(2));
    expect((await stream.next()).value?.text).toBe('1');
    expect((await stream.next()).value?.text).toBe('2');
    const pending = stream.next();
    stream.push(ev(3));
    expect(await pending).toEqual({ value: ev(3), done: false });
    stream.end({ ok: true, value: 'final' });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    await expect(stream.result).resolves.toBe('final');
  });

  it('a consumer waiting when the stream ends gets done; queued events still drain first', async () => {
    const waiting = new EventStream<string>(() => undefined);
    const pending = waiting.next();
    waiting.end({ ok: true, value: 'x' });
    expect(await pending).toEqual({ value: undefined, done: true });

    const queued = new EventStream<string>(() => undefined);
    queued.push(ev(1));
    queued.end({ ok: true, value: 'x' });
    expect(queued.ended).toBe(true);
    expect((await queued.next()).value?.text).toBe('1');
    expect((await queued.next()).done).toBe(true);
    // next() after the end keeps answering done; pushes after the end are dropped.
    queued.push(ev(2));
    expect((await queued.next()).done).toBe(true);
    // A second end() is ignored: the result stays the first one.
    queued.end({ ok: false, error: new Error('late') });
    await expect(queued.result).resolves.toBe('x');
  });

  it('return() cancels exactly once, wakes a waiting consumer and drops later pushes', async () => {
    const onCancel = vi.fn();
    const stream = new EventStream<string>(onCancel);
    stream.push(ev(1));
    const first = await stream.next();
    expect(first.done).toBe(false);
    const pending = stream.next();
    expect(await stream.return()).toEqual({ value: undefined, done: true });
    expect(await pending).toEqual({ value: undefined, done: true });
    await stream.return();
    expect(onCancel).toHaveBeenCalledTimes(1);
    stream.push(ev(2));
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    // The producer still settles the result after cleanup.
    stream.end({ ok: true, value: 'after cancel' });
    await expect(stream.result).resolves.toBe('after cancel');
  });

  it('return() after the end does not cancel', async () => {
    const onCancel = vi.fn();
    const stream = new EventStream<string>(onCancel);
    stream.end({ ok: true, value: 'v' });
    await stream.return();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('break in for-await cancels through return()', async () => {
    const onCancel = vi.fn();
    const stream = new EventStream<string>(onCancel);
    stream.push(ev(1));
    stream.push(ev(2));
    const seen: string[] = [];
    for await (const e of stream) {
      seen.push(e.text ?? '');
      break;
    }
    expect(seen).toEqual(['1']);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('has a single consumer: a second [Symbol.asyncIterator] throws SESSION_ERROR', () => {
    const stream = new EventStream<string>(() => undefined);
    expect(stream[Symbol.asyncIterator]()).toBe(stream);
    let caught: unknown;
    try {
      stream[Symbol.asyncIterator]();
    } catch (error) {
      caught = error;
    }
    expect(CodeError.hasCode(caught, 'SESSION_ERROR')).toBe(true);
    expect((caught as Error).message).toMatch(/single consumer/);
  });

  it('a second next() before the first settled rejects instead of losing an event', async () => {
    const stream = new EventStream<string>(() => undefined);
    const first = stream.next();
    await expect(stream.next()).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    stream.push(ev(1));
    expect((await first).value?.text).toBe('1');
  });

  it('result rejects with the run error, and a host that never reads result sees no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ignored = new EventStream<string>(() => undefined);
      ignored.end({ ok: false, error: new CodeError('LLM_ERROR', 'boom') });
      const observed = new EventStream<string>(() => undefined);
      observed.end({ ok: false, error: new CodeError('LLM_ERROR', 'seen') });
      await expect(observed.result).rejects.toMatchObject({ code: 'LLM_ERROR', message: 'seen' });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('keeps order across a long queue (compaction of the consumed head)', async () => {
    const stream = new EventStream<string>(() => undefined);
    for (let i = 0; i < 3000; i += 1) stream.push(ev(i));
    stream.end({ ok: true, value: 'done' });
    const seen: number[] = [];
    for await (const e of stream) seen.push(Number(e.text));
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });
});
