import { CodeError } from '../../errors/code-error.js';
import type { LlmStreamEvent, LlmUsage } from '../llm-client.js';
import type { AttemptFailure } from './attempt-failure.js';
import { addUsage, billedUsageDetail, withBilledUsage } from './billed-usage.js';
import { MAX_HONOURED_RETRY_AFTER_MS, backoffDelayMs } from './retry-policy.js';

/**
 * Runs one attempt: the provider request plus its mapped events (without `attempt_start`).
 * `bill` reports the usage the provider has billed this attempt so far (the latest total, e.g.
 * Anthropic's `message_start` usage); when the attempt then fails, that usage is added to the
 * `message_end` of the attempt that succeeds. An attempt that completes need not call it.
 */
export type RunAttempt = (signal: AbortSignal, attempt: number, bill: (usage: LlmUsage) => void) => AsyncIterable<LlmStreamEvent>;

/** Options of {@link streamWithRetries}. */
export interface StreamWithRetriesOptions {
  /** Provider id for error details, e.g. `anthropic`. */
  readonly provider: string;
  /** Retries after the first attempt (0 = a single attempt). */
  readonly maxRetries: number;
  /** Caller's cancellation; aborting ends the stream with an `AbortError`. */
  readonly abortSignal?: AbortSignal | undefined;
  /** Deadline for the whole call including retries and waits, ms. */
  readonly timeoutMs?: number | undefined;
  /** Turns whatever an attempt threw into an {@link AttemptFailure}. */
  readonly classify: (error: unknown) => AttemptFailure;
  /** Backoff delay for the retry after failed attempt `attempt`. Default: {@link backoffDelayMs}. */
  readonly backoff?: (attempt: number) => number;
  /**
   * True when an attempt has already ended its own request (read the body to its end, or
   * cancelled it) by the time it yields `message_end`. A consumer that stops right after
   * `message_end` (the agent loop does, every model call) then costs no closing abort: a
   * DOMException plus the abort listeners of the SDK and of fetch, about 0.05 ms per call.
   * Stopping before `message_end` still aborts. Default false: every early stop aborts.
   */
  readonly attemptsEndTheirRequest?: boolean;
  /**
   * Longest wait for the next event of an attempt (the first one included), ms. A stream that
   * stalls after its headers fails the attempt (retryable, reason `stream_idle`) instead of
   * hanging the call forever. The time the consumer spends on an event does not count.
   * Default {@link DEFAULT_STREAM_IDLE_TIMEOUT_MS}; 0 disables.
   */
  readonly idleTimeoutMs?: number | undefined;
}

/** Default {@link StreamWithRetriesOptions.idleTimeoutMs}: 2 minutes without a stream event. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

/** The error an aborted call ends with: the caller's own reason when it is already an AbortError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The model call was aborted', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One attempt's idle deadline: its signal follows the call's and also aborts when no event
 * arrived for `timeoutMs` while armed.
 */
class IdleWatch {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal;
  readonly #timeoutMs: number;
  readonly #onParentAbort = (): void => this.#controller.abort(this.#parent.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the watch was last armed (`Date.now()`); undefined while disarmed. */
  #armedAt: number | undefined;
  fired = false;

  constructor(parent: AbortSignal, timeoutMs: number) {
    this.#parent = parent;
    this.#timeoutMs = timeoutMs;
    if (parent.aborted) this.#controller.abort(parent.reason);
    else parent.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Starts counting idle time. Armed and disarmed around every event of the stream, so it sets no
   * timer per event: one timer runs while the stream lasts, and when it fires early (the watch was
   * re-armed since it was set) it waits again for what is left, or stops when disarmed.
   */
  arm(): void {
    if (this.#timeoutMs <= 0 || this.#controller.signal.aborted) return;
    this.#armedAt = Date.now();
    this.#timer ??= setTimeout(this.#check, this.#timeoutMs);
  }

  disarm(): void {
    this.#armedAt = undefined;
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#armedAt === undefined) return;
    const left = this.#armedAt + this.#timeoutMs - Date.now();
    if (left > 0) {
      this.#timer = setTimeout(this.#check, left);
      return;
    }
    this.fired = true;
    this.#controller.abort(new DOMException('The model stream stalled', 'TimeoutError'));
  };

  /**
   * Stops the timer. The link to the call's signal stays: a consumer that stops early aborts the
   * call after this attempt's `finally`, and the attempt must still see it (the call's controller
   * lives only as long as the call, so nothing accumulates).
   */
  dispose(): void {
    this.#armedAt = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

function finalError(provider: string, failure: AttemptFailure, attempts: number, extra: Record<string, unknown> = {}): CodeError {
  return new CodeError('LLM_ERROR', failure.message, {
    cause: failure.cause,
    details: {
      provider,
      status: failure.status ?? null,
      retryable: failure.retryable,
      attempts,
      reason: failure.reason,
      ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
      ...(failure.requestId === undefined ? {} : { requestId: failure.requestId }),
      ...(failure.contextOverflow === true ? { contextOverflow: true } : {}),
      ...extra,
    },
  });
}

/**
 * The retry loop shared by the providers. Emits `attempt_start` before every attempt, forwards
 * the attempt's events, and on failure waits (honouring `retry-after`, else exponential backoff
 * with jitter) and starts over with `attempt + 1` and the failure's reason. The usage that failed
 * attempts reported through `bill` is added to the final `message_end`, so a retried call
 * counts every billed prompt, the same for every provider.
 *
 * Ends with: the events of the first successful attempt; an `AbortError` when the caller
 * aborts; CodeError `LLM_ERROR` `{ timeout: true }` at the deadline; CodeError `LLM_ERROR`
 * `{ provider, status, retryable, retryAfterMs?, requestId?, billedUsage? }` when retries are
 * exhausted or the failure cannot succeed on retry (`billedUsage`: what the failed attempts
 * reported through `bill`, when any).
 */
export async function* streamWithRetries(runAttempt: RunAttempt, options: StreamWithRetriesOptions): AsyncGenerator<LlmStreamEvent, void, undefined> {
  const { provider, abortSignal, timeoutMs } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  if (abortSignal?.aborted) throw abortError(abortSignal);
  // One controller for the whole call: the caller's abort, the deadline and an early `return()`
  // by the consumer all cancel the in-flight request through it.
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort(abortSignal?.reason);
  abortSignal?.addEventListener('abort', onCallerAbort, { once: true });
  let timedOut = false;
  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('The model call timed out', 'TimeoutError'));
        }, timeoutMs);
  let attempt = 1;
  let retryReason: string | undefined;
  let lastFailure: AttemptFailure | undefined;
  let delivered = false;
  // Usage billed by the failed attempts so far.
  let spent: LlmUsage | undefined;
  // Cancellation wins over whatever error the cancelled request produced.
  const interruption = (): Error | undefined => {
    if (abortSignal?.aborted) return abortError(abortSignal);
    if (timedOut) {
      return new CodeError('LLM_ERROR', `${provider} call timed out after ${timeoutMs} ms`, {
        cause: lastFailure?.cause,
        details: { provider, status: lastFailure?.status ?? null, retryable: true, timeout: true, timeoutMs, attempts: attempt },
      });
    }
    return undefined;
  };
  try {
    for (;;) {
      yield retryReason === undefined ? { type: 'attempt_start', attempt } : { type: 'attempt_start', attempt, retryReason };
      let failure: AttemptFailure | undefined;
      let billed: LlmUsage | undefined;
      const bill = (usage: LlmUsage): void => {
        billed = usage;
      };
      const idle = new IdleWatch(controller.signal, idleTimeoutMs);
      try {
        // An attempt that returns normally delivered its terminal event (`message_end`).
        idle.arm();
        for await (const event of runAttempt(idle.signal, attempt, bill)) {
          idle.disarm();
          if (event.type === 'message_end') {
            delivered = true;
            yield withBilledUsage(event, spent);
          } else {
            yield event;
          }
          idle.arm();
        }
      } catch (error) {
        const stopped = interruption();
        if (stopped) throw stopped;
        failure = idle.fired
          ? { message: `${provider} stream stalled: no event for ${idleTimeoutMs} ms`, retryable: true, reason: 'stream_idle', cause: error }
          : options.classify(error);
      } finally {
        idle.dispose();
      }
      if (failure === undefined) return;
      if (billed !== undefined) spent = addUsage(spent, billed);
      lastFailure = failure;
      // A call that gives up still billed what its attempts reported.
      const billedDetail = billedUsageDetail(spent);
      if (!failure.retryable || attempt > options.maxRetries) throw finalError(provider, failure, attempt, billedDetail);
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_HONOURED_RETRY_AFTER_MS) {
        throw finalError(provider, failure, attempt, { retryAfterTooLong: true, ...billedDetail });
      }
      const delay = failure.retryAfterMs ?? (options.backoff ?? backoffDelayMs)(attempt);
      // Waiting past the deadline cannot help: report the real failure now, not a timeout later.
      if (deadline !== undefined && Date.now() + delay >= deadline) throw finalError(provider, failure, attempt, { deadlineBeforeRetry: true, ...billedDetail });
      await sleep(delay, controller.signal);
      const stopped = interruption();
      if (stopped) throw stopped;
      attempt += 1;
      retryReason = failure.reason;
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    abortSignal?.removeEventListener('abort', onCallerAbort);
    // Ends an in-flight request when the consumer stopped early (break / return()).
    const requestEnded = delivered && options.attemptsEndTheirRequest === true;
    if (!requestEnded && !controller.signal.aborted) controller.abort(new DOMException('The stream was closed by its consumer', 'AbortError'));
  }
}
