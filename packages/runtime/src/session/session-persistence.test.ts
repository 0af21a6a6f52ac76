import { describe, expect, it } from 'vitest';
import { CodeError, MemorySessionStore } from '@a3s-lab/code-core';
import type { AgentEvent, SessionSnapshotV1 } from '@a3s-lab/code-core';
import { sampleSessionSnapshot } from '@a3s-lab/code-core/testing';
import { SessionPersistence } from './session-persistence.js';
import type { SnapshotDraft } from './session-persistence.js';

function draftOf(text: string): SnapshotDraft {
  const { generation: _g, savedAtMs: _s, ...draft } = sampleSessionSnapshot('p', 1, text);
  return draft;
}

/** A store whose writes wait until released, recording what they published. */
function gatedStore() {
  const inner = new MemorySessionStore();
  const published: SessionSnapshotV1[] = [];
  let release: (() => void) | null = null;
  let fail: CodeError | null = null;
  return {
    published,
    failNext: (error: CodeError) => void (fail = error),
    release: () => release?.(),
    store: {
      ...inner,
      name: 'gated',
      capabilities: inner.capabilities,
      load: (id: string) => inner.load(id),
      delete: (id: string) => inner.delete(id),
      list: () => inner.list(),
      save: async (snapshot: SessionSnapshotV1) => {
        await new Promise<void>((r) => (release = r));
        release = null;
        if (fail !== null) {
          const error = fail;
          fail = null;
          throw error;
        }
        published.push(snapshot);
      },
    },
  };
}

describe('SessionPersistence', () => {
  it('publishInitial writes generation 0 once; the next save is generation 1; a failure rejects and emits persistence_failed', async () => {
    const store = new MemorySessionStore();
    const persistence = new SessionPersistence({ store, capture: () => draftOf('zero'), emit: () => undefined, autoSave: false });
    await persistence.publishInitial();
    expect(await store.load('p')).toMatchObject({ generation: 0 });
    expect(persistence.generation).toBe(0);
    await persistence.publishInitial(); // already published: nothing more
    expect((await persistence.save()).generation).toBe(1);
    await persistence.publishInitial();
    expect((await store.load('p'))?.generation).toBe(1);
    // A restored session is in its store already.
    const restored = new SessionPersistence({ store, capture: () => draftOf('r'), emit: () => undefined, autoSave: false, generation: 4 });
    await restored.publishInitial();
    expect((await store.load('p'))?.generation).toBe(1);

    const gated = gatedStore();
    const events: AgentEvent[] = [];
    const failing = new SessionPersistence({ store: gated.store, capture: () => draftOf('x'), emit: (e) => events.push(e), autoSave: false });
    gated.failNext(new CodeError('IO_ERROR', 'disk full'));
    const first = failing.publishInitial();
    gated.release();
    await expect(first).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(events.map((e) => [e.type, e.payload['operation']])).toEqual([['persistence_failed', 'open']]);
    const saving = failing.save();
    await new Promise((r) => setTimeout(r, 0));
    gated.release();
    expect((await saving).generation).toBe(1);
  });

  it('coalesces captures made during a write into one later write of the newest state', async () => {
    const gated = gatedStore();
    let state = 'one';
    const persistence = new SessionPersistence({ store: gated.store, capture: () => draftOf(state), emit: () => undefined, autoSave: true });
    persistence.afterOperation('send');
    for (const next of ['two', 'three', 'four']) {
      state = next;
      persistence.afterOperation('tool');
    }
    await Promise.resolve();
    gated.release();
    await new Promise((r) => setTimeout(r, 0));
    gated.release();
    await persistence.flush();
    expect(gated.published.map((s) => [s.generation, s.conversation[0]?.content[0]])).toEqual([
      [1, { type: 'text', text: 'one' }],
      [2, { type: 'text', text: 'four' }],
    ]);
    expect(persistence.generation).toBe(2);
  });

  it('a failed write emits persistence_failed naming the operations, and does not use up a generation', async () => {
    const gated = gatedStore();
    const events: AgentEvent[] = [];
    const persistence = new SessionPersistence({ store: gated.store, capture: () => draftOf('x'), emit: (e) => events.push(e), autoSave: true });
    gated.failNext(new CodeError('IO_ERROR', 'disk full'));
    persistence.afterOperation('confirmation');
    await Promise.resolve();
    gated.release();
    await persistence.flush();
    expect(events.map((e) => e.payload)).toEqual([{ operation: 'confirmation', operations: ['confirmation'], store: 'gated', code: 'IO_ERROR', message: 'disk full' }]);
    const saving = persistence.save();
    await Promise.resolve();
    gated.release();
    expect((await saving).generation).toBe(1);
  });

  it('without autoSave, operations write nothing; save() still publishes', async () => {
    const store = new MemorySessionStore();
    const persistence = new SessionPersistence({ store, capture: () => draftOf('x'), emit: () => undefined, autoSave: false });
    persistence.afterOperation('send');
    await persistence.flush();
    expect(await store.list()).toEqual([]);
    expect((await persistence.save()).generation).toBe(1);
    expect((await store.load('p'))?.generation).toBe(1);
  });
});
