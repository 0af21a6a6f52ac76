import { CodeError } from '../../errors/code-error.js';
import type { LlmStreamEvent, LlmUsage } from '../llm-client.js';
import { describe, expect, it } from 'vitest';
import type { AttemptFailure } from './attempt-failure.js';
import { StreamInterruptedError } from './attempt-failure.js';
import { addUsage, withBilledUsage } from './billed-usage.js';
import { streamWithRetries } from './stream-with-retries.js';
import type { RunAttempt } from './stream-with-retries.js';

const classify = (error: unknown): AttemptFailure => ({ message: String(error), retryable: true, reason: 'stream_interrupted', cause: error });
const end = (usage: LlmUsage): LlmStreamEvent => ({ type: 'message_end', stopReason: 'end_turn', usage, content: [] });
const prompt: LlmUsage = { inputTokens: 300, outputTokens: 1, cacheReadTokens: 50 };
const final: LlmUsage = { inputTokens: 300, outputTokens: 20, cacheReadTokens: 50, cacheWriteTokens: 0 };

async function finalUsage(attempt: RunAttempt, maxRetries = 3): Promise<LlmUsage> {
  let usage: LlmUsage | undefined;
  for await (const event of streamWithRetries(attempt, { provider: 'test', maxRetries, classify, backoff: () => 0 })) if (event.type === 'message_end') usage = event.usage;
  if (usage === undefined) throw new Error('no message_end');
  return usage;
}

describe('usage billed by failed attempts (the shared retry wrapper)', () => {
  it('adds what every failed attempt billed to the message_end of the one that succeeds', async () => {
    const usage = await finalUsage(async function* (_signal, attempt, bill) {
      if (attempt < 3) {
        bill({ inputTokens: 1, outputTokens: 0 });
        // The latest report of an attempt counts, not the sum of its reports.
        bill(prompt);
        throw new StreamInterruptedError('cut');
      }
      yield end(final);
    });
    expect(usage).toEqual({ inputTokens: 900, outputTokens: 22, cacheReadTokens: 150, cacheWriteTokens: 0 });
  });

  it('ignores what a completed attempt reported, and a failure that billed nothing', async () => {
    const usage = await finalUsage(async function* (_signal, attempt, bill) {
      if (attempt === 1) throw new StreamInterruptedError('refused before any usage');
      bill(prompt);
      yield end(final);
    });
    expect(usage).toEqual(final);
  });

  it('reports what the attempts billed in the details of a call that gives up', async () => {
    const error = await finalUsage(async function* (_signal, _attempt, bill) {
      bill(prompt);
      yield* [];
      throw new StreamInterruptedError('cut');
    }, 1).catch((caught: unknown) => caught);
    expect(CodeError.isInstance(error) && error.details).toMatchObject({ attempts: 2, billedUsage: { inputTokens: 600, outputTokens: 2, cacheReadTokens: 100 } });
  });

  it('keeps a message_end without billed usage as it is', () => {
    const event = end(final);
    expect(withBilledUsage(event, undefined)).toBe(event);
    expect(withBilledUsage(event, { inputTokens: 0, outputTokens: 0 })).toBe(event);
    expect(addUsage({ inputTokens: 1, outputTokens: 2 }, { inputTokens: 3, outputTokens: 4 })).toEqual({ inputTokens: 4, outputTokens: 6 });
  });
});
