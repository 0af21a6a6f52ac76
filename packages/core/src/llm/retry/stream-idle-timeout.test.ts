import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeError } from '../../errors/code-error.js';
import type { LlmStreamEvent } from '../llm-client.js';
import type { AttemptFailure } from './attempt-failure.js';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, streamWithRetries } from './stream-with-retries.js';

const classify = (error: unknown): AttemptFailure => ({ message: String(error), retryable: true, reason: 'stream_interrupted', cause: error });
const delta: LlmStreamEvent = { type: 'text_delta', text: 'x' };

/** An attempt that yields `before` events, then stalls until its signal aborts. */
function stallingAttempt(before: number) {
  return async function* (signal: AbortSignal): AsyncGenerator<LlmStreamEvent> {
    for (let index = 0; index < before; index += 1) yield delta;
    await new Promise<void>((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
}

async function outcome(iterable: AsyncIterable<LlmStreamEvent>): Promise<unknown> {
  try {
    for await (const _event of iterable) {
      // drain
    }
    return null;
  } catch (error) {
    return error;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a model stream that stalls', () => {
  it.each([
    ['before its first event (right after the headers)', 0],
    ['after one event', 1],
    ['after several events', 5],
  ])('%s fails with LLM_ERROR stream_idle after the retries', async (_name, before) => {
    const error = await outcome(streamWithRetries(stallingAttempt(before), { provider: 'test', maxRetries: 1, classify, idleTimeoutMs: 30, backoff: () => 0 }));
    expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ reason: 'stream_idle', retryable: true, attempts: 2 });
  });

  it('has a default idle timeout: no option set still ends a stalled stream', async () => {
    vi.useFakeTimers();
    const done = outcome(streamWithRetries(stallingAttempt(1), { provider: 'test', maxRetries: 0, classify }));
    await vi.advanceTimersByTimeAsync(DEFAULT_STREAM_IDLE_TIMEOUT_MS + 1);
    const error = await done;
    expect((error as CodeError).details).toMatchObject({ reason: 'stream_idle' });
  });

  it('a stream whose events keep coming within the timeout never stalls, however long it lasts; a gap past it does', async () => {
    vi.useFakeTimers();
    const end: LlmStreamEvent = { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, content: [] };
    const paced = (gaps: readonly number[]) =>
      async function* (signal: AbortSignal): AsyncGenerator<LlmStreamEvent> {
        for (const gap of gaps) {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, gap);
            signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
          });
          yield delta;
        }
        yield end;
      };
    // 12 events 40 ms apart (480 ms in all) under a 50 ms idle timeout.
    const steady = outcome(streamWithRetries(paced(Array.from({ length: 12 }, () => 40)), { provider: 'test', maxRetries: 0, classify, idleTimeoutMs: 50 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await steady).toBeNull();
    // The same, then one gap of 60 ms: it fails, 50 ms after the last event.
    const stalled = outcome(streamWithRetries(paced([40, 40, 40, 60]), { provider: 'test', maxRetries: 0, classify, idleTimeoutMs: 50 }));
    await vi.advanceTimersByTimeAsync(169);
    let settled = false;
    void stalled.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(((await stalled) as CodeError).details).toMatchObject({ reason: 'stream_idle' });
  });

  it('time the consumer spends on an event does not count', async () => {
    async function* slowButSteady(): AsyncGenerator<LlmStreamEvent> {
      yield delta;
      yield { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, content: [] };
    }
    const events: LlmStreamEvent[] = [];
    for await (const event of streamWithRetries(slowButSteady, { provider: 'test', maxRetries: 0, classify, idleTimeoutMs: 20 })) {
      events.push(event);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(events.map((event) => event.type)).toEqual(['attempt_start', 'text_delta', 'message_end']);
  });
});
