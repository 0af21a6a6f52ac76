import { describe, expect, it } from 'vitest';
import { createAgentEvent } from '@a3s-lab/code-core';
import { DEFAULT_RETENTION_LIMITS, RunStore } from './run-store.js';

const ev = (n: number) => createAgentEvent('text_delta', { text: `e${n}` });
const seqs = (events: readonly { metadata?: { sequence?: number } }[] | null | undefined) => (events ?? []).map((e) => e.metadata?.sequence);

describe('RunStore', () => {
  it('numbers events from 1 and stamps replay metadata', () => {
    const store = new RunStore('sess-1');
    const run = store.start('send', 'hello');
    const first = run.append(ev(1));
    run.append(ev(2));
    expect(first.metadata).toEqual({ run_id: run.id, session_id: 'sess-1', sequence: 1, timestamp_ms: expect.any(Number) });
    expect(first.payload).toEqual({ text: 'e1' });
    expect(seqs(store.events(run.id))).toEqual([1, 2]);
    expect(store.get(run.id)?.lastSequence).toBe(2);
    expect(store.current()?.id).toBe(run.id);
    expect(store.get('nope')).toBeNull();
    expect(store.events('nope')).toBeNull();
    expect(store.page('nope')).toBeNull();
  });

  it('sums usage and tool calls and records the outcome once', () => {
    const store = new RunStore('s');
    const run = store.start('stream', 'p');
    run.addUsage({ inputTokens: 10, outputTokens: 3, cacheReadTokens: 2 });
    run.addUsage({ inputTokens: 5, outputTokens: 1, cacheWriteTokens: 4 });
    run.addToolCalls(2);
    run.addToolCalls(1);
    run.setTurns(3);
    const record = run.finish('completed', { text: 'answer' });
    expect(record).toMatchObject({
      status: 'completed',
      kind: 'stream',
      prompt: 'p',
      text: 'answer',
      error: null,
      toolCallsCount: 3,
      turns: 3,
      usage: { promptTokens: 15, completionTokens: 4, totalTokens: 19, cacheReadTokens: 2, cacheWriteTokens: 4 },
    });
    expect(record.endedAtMs).not.toBeNull();
    expect(store.current()).toBeNull();
    // A second finish does not rewrite the outcome.
    expect(run.finish('failed', { error: { code: 'X', message: 'late' } }).status).toBe('completed');
    // The terminal event may still be appended after finish.
    run.append(ev(1));
    expect(store.get(run.id)?.lastSequence).toBe(1);
  });

  it('evicts the oldest events FIFO and reports the gap on a cursor before the window', () => {
    const store = new RunStore('s', { maxEventsPerRun: 16 });
    const run = store.start('send', 'p');
    for (let i = 1; i <= 20; i += 1) run.append(ev(i));
    expect(seqs(store.events(run.id))).toEqual(Array.from({ length: 16 }, (_, i) => i + 5));
    const fromStart = store.page(run.id, undefined, 4)!;
    expect(fromStart.firstAvailableSequence).toBe(5);
    expect(fromStart.retentionGap).toBe(true);
    expect(seqs(fromStart.events)).toEqual([5, 6, 7, 8]);
    // A cursor right before the window has no gap; one inside it neither.
    expect(store.page(run.id, 4, 4)!.retentionGap).toBe(false);
    expect(store.page(run.id, 3, 4)!.retentionGap).toBe(true);
    expect(store.page(run.id, 10, 4)!.retentionGap).toBe(false);
  });

  it('pages with an exclusive cursor, hasMore and nextAfterSequence (null on an empty page)', () => {
    const store = new RunStore('s');
    const run = store.start('send', 'p');
    for (let i = 1; i <= 5; i += 1) run.append(ev(i));
    const p1 = store.page(run.id, undefined, 2)!;
    expect(seqs(p1.events)).toEqual([1, 2]);
    expect(p1).toMatchObject({ nextAfterSequence: 2, hasMore: true, retentionGap: false, firstAvailableSequence: 1 });
    const p2 = store.page(run.id, p1.nextAfterSequence!, 2)!;
    expect(seqs(p2.events)).toEqual([3, 4]);
    expect(p2.hasMore).toBe(true);
    const p3 = store.page(run.id, p2.nextAfterSequence!, 2)!;
    expect(seqs(p3.events)).toEqual([5]);
    expect(p3).toMatchObject({ nextAfterSequence: 5, hasMore: false });
    const empty = store.page(run.id, 5, 2)!;
    expect(empty).toEqual({ events: [], firstAvailableSequence: 1, nextAfterSequence: null, retentionGap: false, hasMore: false });
    // Exactly-full last page: no more.
    expect(store.page(run.id, 3, 2)!.hasMore).toBe(false);
    // Default limit is 256.
    expect(store.page(run.id)!.events).toHaveLength(5);
  });

  it('rejects a malformed cursor or limit with SESSION_ERROR instead of an empty "complete" page', () => {
    const store = new RunStore('s');
    const run = store.start('send', 'p');
    run.append(ev(1));
    for (const bad of [Number.NaN, -1, 1.5]) expect(() => store.page(run.id, bad)).toThrow(expect.objectContaining({ code: 'SESSION_ERROR', details: { field: 'afterSequence' } }));
    for (const bad of [0, Number.NaN, 2.5, -3]) expect(() => store.page(run.id, 0, bad)).toThrow(expect.objectContaining({ code: 'SESSION_ERROR', details: { field: 'limit' } }));
    expect(store.page(run.id, 0, 1_000_000)!.events).toHaveLength(1);
  });

  it('evicts the oldest finished runs first and never the running one', () => {
    const store = new RunStore('s', { maxRuns: 2 });
    const a = store.start('send', 'a');
    a.finish('completed', { text: 'a' });
    const b = store.start('send', 'b');
    b.finish('failed', { error: { code: 'LLM_ERROR', message: 'x' } });
    const c = store.start('send', 'c');
    expect(store.runs().map((r) => r.prompt)).toEqual(['b', 'c']);
    c.finish('completed', {});
    const d = store.start('send', 'd');
    expect(store.runs().map((r) => r.prompt)).toEqual(['c', 'd']);
    expect(store.get(a.id)).toBeNull();
    expect(store.get(d.id)?.status).toBe('running');

    // With maxRuns 1 the running run survives even though it is the newest over the limit.
    const single = new RunStore('s', { maxRuns: 1 });
    const old = single.start('send', 'old');
    old.finish('completed', {});
    const running = single.start('send', 'new');
    expect(single.runs().map((r) => r.id)).toEqual([running.id]);
    expect(DEFAULT_RETENTION_LIMITS).toEqual({ maxRuns: 64, maxEventsPerRun: 8192 });
  });

  it('snapshot/restore round-trips runs and turns a running run into cancelled', () => {
    const store = new RunStore('s', { maxEventsPerRun: 16 });
    const done = store.start('send', 'done');
    for (let i = 0; i < 20; i += 1) done.append(ev(i));
    done.finish('completed', { text: 't' });
    const live = store.start('stream', 'live');
    live.append(ev(1));
    const snapshot = JSON.parse(JSON.stringify(store.snapshot()));

    const restored = new RunStore('s', { maxEventsPerRun: 16 });
    restored.restore(snapshot);
    expect(restored.current()).toBeNull();
    const [r1, r2] = restored.runs();
    expect(r1).toEqual(store.get(done.id));
    expect(r2).toMatchObject({ id: live.id, status: 'cancelled', endedAtMs: expect.any(Number) });
    expect(restored.page(done.id)).toEqual(store.page(done.id));
    expect(restored.page(done.id)!.firstAvailableSequence).toBe(5);
    // The source store is untouched by the restore.
    expect(store.get(live.id)?.status).toBe('running');
  });
});
