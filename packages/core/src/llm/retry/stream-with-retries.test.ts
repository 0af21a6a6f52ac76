import { CodeError } from '../../errors/code-error.js';
import type { LlmStreamEvent } from '../llm-client.js';
import { describe, expect, it } from 'vitest';
import type { AttemptFailure } from './attempt-failure.js';
import { StreamInterruptedError } from './attempt-failure.js';
import { streamWithRetries } from './stream-with-retries.js';

class FakeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}`);
  }
}

function classify(error: unknown): AttemptFailure {
  if (error instanceof FakeHttpError) {
    const retryable = [429, 500, 529].includes(error.status);
    return {
      message: error.message,
      status: error.status,
      retryable,
      reason: `http_${error.status}`,
      cause: error,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  return { message: String(error), retryable: true, reason: 'stream_interrupted', cause: error };
}

const end: LlmStreamEvent = { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, content: [] };

async function collect(iterable: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

const base = { provider: 'fake', maxRetries: 3, classify, backoff: () => 1 };

describe('streamWithRetries', () => {
  it('opens each attempt with attempt_start and retries a cut stream', async () => {
    let calls = 0;
    const events = await collect(
      streamWithRetries(async function* () {
        calls += 1;
        yield { type: 'text_delta', text: `try ${calls}` };
        if (calls === 1) throw new StreamInterruptedError('cut');
        yield end;
      }, base),
    );
    expect(events).toEqual([
      { type: 'attempt_start', attempt: 1 },
      { type: 'text_delta', text: 'try 1' },
      { type: 'attempt_start', attempt: 2, retryReason: 'stream_interrupted' },
      { type: 'text_delta', text: 'try 2' },
      end,
    ]);
  });

  it('does not retry a failure that cannot succeed', async () => {
    let calls = 0;
    const error = await failure(
      collect(
        streamWithRetries(async function* () {
          calls += 1;
          yield* [];
          throw new FakeHttpError(400);
        }, base),
      ),
    );
    expect(calls).toBe(1);
    expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ provider: 'fake', status: 400, retryable: false, attempts: 1 });
  });

  it('gives up after maxRetries with the last failure', async () => {
    let calls = 0;
    const error = await failure(
      collect(
        streamWithRetries(async function* () {
          calls += 1;
          yield* [];
          throw new FakeHttpError(529);
        }, { ...base, maxRetries: 2 }),
      ),
    );
    expect(calls).toBe(3);
    expect((error as CodeError).details).toMatchObject({ status: 529, retryable: true, attempts: 3 });
  });

  it('honours retry-after instead of backoff', async () => {
    const starts: number[] = [];
    await collect(
      streamWithRetries(async function* () {
        starts.push(Date.now());
        if (starts.length === 1) throw new FakeHttpError(429, 150);
        yield end;
      }, { ...base, backoff: () => 0 }),
    );
    expect(starts).toHaveLength(2);
    // Timers may fire a little early/late, never much before the requested wait.
    expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(120);
  });

  it('fails without waiting when retry-after exceeds the honoured maximum', async () => {
    let calls = 0;
    const error = await failure(
      collect(
        streamWithRetries(async function* () {
          calls += 1;
          yield* [];
          throw new FakeHttpError(429, 3_600_000);
        }, base),
      ),
    );
    expect(calls).toBe(1);
    expect((error as CodeError).details).toMatchObject({ status: 429, retryAfterMs: 3_600_000, retryable: true, retryAfterTooLong: true });
  });

  it('ends a hung attempt at the deadline with a timeout error', async () => {
    const error = await failure(
      collect(
        streamWithRetries(
          (signal) =>
            (async function* () {
              await waitForAbort(signal);
              yield* [];
              // Like the SDKs: an aborted stream ends quietly, which reads as a truncated stream.
              throw new StreamInterruptedError('ended');
            })(),
          { ...base, timeoutMs: 100 },
        ),
      ),
    );
    expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ provider: 'fake', timeout: true, timeoutMs: 100 });
  });

  it('ends with an AbortError when the caller aborts, and does not retry', async () => {
    const controller = new AbortController();
    let calls = 0;
    let sawAbort = false;
    const stream = streamWithRetries(
      (signal) =>
        (async function* () {
          calls += 1;
          yield { type: 'text_delta', text: 'partial' } satisfies LlmStreamEvent;
          await waitForAbort(signal);
          sawAbort = signal.aborted;
          throw new StreamInterruptedError('aborted');
        })(),
      { ...base, abortSignal: controller.signal },
    );
    const seen: LlmStreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of stream) {
          seen.push(event);
          if (event.type === 'text_delta') controller.abort();
        }
      })(),
    );
    expect((error as Error).name).toBe('AbortError');
    expect(sawAbort).toBe(true);
    expect(calls).toBe(1);
    expect(seen.map((event) => event.type)).toEqual(['attempt_start', 'text_delta']);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const error = await failure(collect(streamWithRetries(async function* () {}, { ...base, abortSignal: AbortSignal.abort() })));
    expect((error as Error).name).toBe('AbortError');
  });

  it('cancels the in-flight attempt when the consumer stops early', async () => {
    let aborted = false;
    const stream = streamWithRetries(
      (signal) =>
        (async function* () {
          signal.addEventListener('abort', () => (aborted = true), { once: true });
          yield { type: 'text_delta', text: 'a' } satisfies LlmStreamEvent;
          yield end;
        })(),
      base,
    );
    for await (const event of stream) if (event.type === 'text_delta') break;
    expect(aborted).toBe(true);
  });

  it('does not abort after message_end when attempts end their own request, and still does before it', async () => {
    const run = async (options: { attemptsEndTheirRequest?: boolean }, stopAt: LlmStreamEvent['type']): Promise<boolean> => {
      let aborted = false;
      const stream = streamWithRetries(
        (signal) =>
          (async function* () {
            signal.addEventListener('abort', () => (aborted = true), { once: true });
            yield { type: 'text_delta', text: 'a' } satisfies LlmStreamEvent;
            yield end;
          })(),
        { ...base, ...options },
      );
      for await (const event of stream) if (event.type === stopAt) break;
      return aborted;
    };
    expect(await run({ attemptsEndTheirRequest: true }, 'message_end')).toBe(false);
    expect(await run({ attemptsEndTheirRequest: true }, 'text_delta')).toBe(true);
    expect(await run({}, 'message_end')).toBe(true);
  });
});
