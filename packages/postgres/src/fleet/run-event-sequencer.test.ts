import { createAgentEvent } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';

import { RunEventSequencer } from './run-event-sequencer.js';

const text = (value: string) => createAgentEvent('text_delta', { text: value, turn: 1 });
const progress = (task: string, n: number) => createAgentEvent('subagent_progress', { task_id: task, step: n });

describe('RunEventSequencer', () => {
  it('a first attempt keeps every event, numbered from 1 and marked with the run', () => {
    const events = new RunEventSequencer('run_a', 0);
    expect(events.replaying).toBe(false);
    expect([events.take(text('a')), events.take(text('b'))]).toEqual([true, true]);
    expect(events.drain().map((e) => [e.seq, e.event.metadata?.sequence, e.event.metadata?.run_id])).toEqual([[1, 1, 'run_a'], [2, 2, 'run_a']]);
    expect(events.drain()).toEqual([]);
  });

  it('a resumed attempt drops what it regenerates until it goes live, then numbers on from the last written event', () => {
    const events = new RunEventSequencer('run_b', 7);
    expect(events.replaying).toBe(true);
    expect(events.take(text('again'))).toBe(false);
    events.goLive();
    expect(events.take(text('new'))).toBe(true);
    expect(events.drain().map((e) => e.seq)).toEqual([8]);
  });

  it("a task's events are counted per task: its first n (written before) are dropped whatever the run does, its later ones kept", () => {
    const events = new RunEventSequencer('run_c', 5, { task_1: 2, task_2: 1 });
    events.goLive();
    expect([events.take(progress('task_1', 1)), events.take(progress('task_2', 1)), events.take(progress('task_1', 2)), events.take(progress('task_1', 3)), events.take(progress('task_2', 2))]).toEqual([false, false, false, true, true]);
    expect(events.drain().map((e) => [e.seq, e.event.payload['task_id'], e.event.payload['step']])).toEqual([[6, 'task_1', 3], [7, 'task_2', 2]]);
  });
});
