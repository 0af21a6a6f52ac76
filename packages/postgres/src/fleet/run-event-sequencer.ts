import type { AgentEvent } from '@a3s-lab/code-core';

/** An event of a run with its number in the run's one sequence. */
export interface SequencedEvent {
  readonly seq: number;
  readonly event: AgentEvent;
}

/**
 * Numbers the events of one attempt of a fleet run and keeps those it still has to write. An
 * attempt that resumes a run whose events were already written drops the events it regenerates
 * while replaying recorded steps (until {@link goLive}), so readers see one sequence without gaps
 * or duplicates. A subagent task's events (`payload.task_id`: its start, progress and end) are
 * counted per task instead: each child replays on its own (one `parallel_task` child goes live
 * while its siblings still replay), so the first `n` events of a task, `n` the number earlier
 * attempts wrote, are the regenerated ones and are dropped, and the task's later events are kept
 * whatever the rest of the run does.
 */
export class RunEventSequencer {
  readonly #runId: string;
  #seq: number;
  #replaying: boolean;
  /** Per subagent task id: how many of its events earlier attempts wrote and this one has not regenerated yet. */
  readonly #taskEventsWritten: Map<string, number>;
  #pending: SequencedEvent[] = [];

  /** `lastSeq`: the run's last written event number; `taskEvents`: events written per task id. */
  constructor(runId: string, lastSeq: number, taskEvents: Readonly<Record<string, number>> = {}) {
    this.#runId = runId;
    this.#seq = lastSeq;
    this.#replaying = lastSeq > 0;
    this.#taskEventsWritten = new Map(Object.entries(taskEvents).map(([task, n]) => [task, Number(n)]));
  }

  /** True while the attempt regenerates events earlier attempts wrote (outside subagent tasks). */
  get replaying(): boolean {
    return this.#replaying;
  }

  /** The attempt's first live step: its events from here on are new. */
  goLive(): void {
    this.#replaying = false;
  }

  /** Takes one event in emission order: `true` when it is kept to be written, `false` when it is a regenerated one. */
  take(event: AgentEvent): boolean {
    const task = event.payload['task_id'];
    if (typeof task === 'string') {
      const written = this.#taskEventsWritten.get(task) ?? 0;
      if (written > 0) {
        this.#taskEventsWritten.set(task, written - 1);
        return false;
      }
    } else if (this.#replaying) return false;
    this.#seq += 1;
    this.#pending.push({ seq: this.#seq, event: { ...event, metadata: { ...event.metadata, sequence: this.#seq, run_id: this.#runId } } });
    return true;
  }

  /** The kept events not written yet, in order; they are the caller's to write from now on. */
  drain(): SequencedEvent[] {
    const events = this.#pending;
    this.#pending = [];
    return events;
  }
}
