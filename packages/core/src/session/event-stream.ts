import { CodeError } from '../errors/code-error.js';
import type { AgentEvent } from '../events/agent-event.js';

/**
 * An async-iterable stream of v1 envelopes for one run. Single consumer: iterating it twice
 * throws (tee it yourself if two consumers need it). Calling `return()` (or `break` in a
 * `for await`) cancels the run; the session's admission is still held until the producer has
 * stopped. The final value is available as the `result` promise.
 *
 * Fully consuming the stream is a lifecycle barrier: the terminal event and `{ done: true }`
 * are delivered only after the session has released admission, so an immediate next `send`
 * succeeds.
 */
export class EventStream<TResult = unknown> implements AsyncIterableIterator<AgentEvent> {
  readonly #queue: AgentEvent[] = [];
  #head = 0;
  #waiter: ((value: IteratorResult<AgentEvent>) => void) | null = null;
  #ended = false;
  #iterated = false;
  #consumerClosed = false;
  readonly #onCancel: () => void;
  /** Resolves with the run's result, rejects with its CodeError. */
  readonly result: Promise<TResult>;
  #resolveResult!: (value: TResult) => void;
  #rejectResult!: (error: unknown) => void;

  /** @internal created by the session. `onCancel` is called when the consumer stops early. */
  constructor(onCancel: () => void) {
    this.#onCancel = onCancel;
    this.result = new Promise<TResult>((resolve, reject) => {
      this.#resolveResult = resolve;
      this.#rejectResult = reject;
    });
    // A host that only iterates must not see an unhandled rejection from `result`.
    this.result.catch(() => undefined);
  }

  /** @internal producer side: enqueue an event. */
  push(event: AgentEvent): void {
    if (this.#ended || this.#consumerClosed) return;
    const waiter = this.#waiter;
    if (waiter !== null) {
      this.#waiter = null;
      waiter({ value: event, done: false });
      return;
    }
    this.#queue.push(event);
  }

  /** @internal producer side: the run is over and cleanup is done. */
  end(outcome: { ok: true; value: TResult } | { ok: false; error: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    if (outcome.ok) this.#resolveResult(outcome.value);
    else this.#rejectResult(outcome.error);
    const waiter = this.#waiter;
    if (waiter !== null && this.#head >= this.#queue.length) {
      this.#waiter = null;
      waiter({ value: undefined, done: true });
    }
  }

  /** Next envelope, `{ done: true }` after the terminal event. */
  next(): Promise<IteratorResult<AgentEvent>> {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head] as AgentEvent;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#ended || this.#consumerClosed) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter !== null) {
      return Promise.reject(new CodeError('SESSION_ERROR', 'EventStream.next() called again before the previous call settled'));
    }
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Stops consuming: cancels the run. Resolves once the consumer side is closed. */
  return(): Promise<IteratorResult<AgentEvent>> {
    if (!this.#ended && !this.#consumerClosed) this.#onCancel();
    this.#consumerClosed = true;
    this.#queue.length = 0;
    this.#head = 0;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AgentEvent> {
    if (this.#iterated) {
      throw new CodeError('SESSION_ERROR', 'an EventStream has a single consumer and is already being iterated; tee the events yourself to share them');
    }
    this.#iterated = true;
    return this;
  }

  /** True once the producer has finished and cleanup is done. */
  get ended(): boolean {
    return this.#ended;
  }
}
