import type { AgentEvent } from '@a3s-lab/code-core';

/** Where the events of the running run go: its record (replay) and, for `stream()`, its stream. */
export interface RunEventSink {
  /** Records the event with replay metadata; returns the recorded envelope. */
  record(event: AgentEvent): AgentEvent;
  /** Pushes the recorded envelope to the run's live stream (no-op for `send`). */
  push(event: AgentEvent): void;
}

/** Default bound of the trace of events outside runs (host-direct calls, persistence). */
export const DEFAULT_MAX_TRACE_EVENTS = 1024;

/**
 * The session's one event fan-out. An event of the running run is recorded in the run store,
 * pushed to the run's stream, then handed to subscribers; an event outside a run (host-direct
 * tool calls and the calls nested in them, `persistence_failed`) goes to subscribers and to a
 * bounded trace that snapshots keep. A throwing subscriber is ignored: it must neither fail a
 * run nor leave a stream un-ended.
 */
export class SessionEventBus {
  readonly #listeners = new Set<(event: AgentEvent) => void>();
  readonly #hostToolIds = new Set<string>();
  readonly #maxTrace: number;
  #trace: AgentEvent[] = [];
  #sink: RunEventSink | null = null;

  constructor(options: { readonly maxTraceEvents?: number } = {}) {
    this.#maxTrace = options.maxTraceEvents ?? DEFAULT_MAX_TRACE_EVENTS;
  }

  /** Routes events of the run that starts now to `sink`, until {@link detachRun}. */
  attachRun(sink: RunEventSink): void {
    this.#sink = sink;
  }

  /** Events emitted from now on are outside any run (no-op when another run's sink is attached). */
  detachRun(sink: RunEventSink): void {
    if (this.#sink === sink) this.#sink = null;
  }

  /** Records `event` in the run of `sink` (attached or not), pushes it and notifies subscribers. */
  emitToRun(sink: RunEventSink, event: AgentEvent): AgentEvent {
    const recorded = sink.record(event);
    sink.push(recorded);
    this.#notify(recorded);
    return recorded;
  }

  /** Marks `toolId` as a host-direct call: its events (and its nested calls') stay out of the run. */
  trackHostCall(toolId: string): void {
    this.#hostToolIds.add(toolId);
  }

  /** Forgets a host-direct call once it settled. */
  untrackHostCall(toolId: string): void {
    this.#hostToolIds.delete(toolId);
  }

  /** Emits `event` (see the class comment for where it goes). Returns the envelope subscribers saw. */
  emit(event: AgentEvent): AgentEvent {
    const sink = this.#sink;
    if (sink === null || this.#isHostDirectEvent(event)) {
      this.#addTrace(event);
      this.#notify(event);
      return event;
    }
    return this.emitToRun(sink, event);
  }

  /** Observes every event; returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Events outside runs, oldest first (bounded FIFO). */
  trace(): AgentEvent[] {
    return [...this.#trace];
  }

  /** Replaces the trace (restore from a snapshot). */
  restoreTrace(events: readonly AgentEvent[]): void {
    this.#trace = events.slice(-this.#maxTrace);
  }

  #addTrace(event: AgentEvent): void {
    this.#trace.push(event);
    if (this.#trace.length > this.#maxTrace) this.#trace.splice(0, this.#trace.length - this.#maxTrace);
  }

  /** True for events of a host-direct call or of a call nested in one (ids tracked as they appear). */
  #isHostDirectEvent(event: AgentEvent): boolean {
    if (this.#hostToolIds.size === 0) return false;
    const id = event.payload['tool_id'];
    if (typeof id !== 'string') return false;
    const parent = event.payload['parent_tool_id'];
    const host = this.#hostToolIds.has(id) || (typeof parent === 'string' && this.#hostToolIds.has(parent));
    if (!host) return false;
    if (event.type === 'tool_end') this.#hostToolIds.delete(id);
    else this.#hostToolIds.add(id);
    return true;
  }

  #notify(event: AgentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // Ignored: see the class comment.
      }
    }
  }
}
