import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent } from '../llm-client.js';
import type { AttemptFailure } from './attempt-failure.js';
import { DEFAULT_MAX_RETRIES } from './retry-policy.js';
import { streamWithRetries, type RunAttempt } from './stream-with-retries.js';

/** One prepared model call of {@link RetryingLlmClientOptions.prepareCall}. */
export interface PreparedLlmCall {
  /** Runs one attempt. */
  readonly attempt: RunAttempt;
  /** Classifies an attempt's failure (retryable or not, with the provider's redaction). */
  readonly classify: (error: unknown) => AttemptFailure;
}

/** Options of {@link createRetryingLlmClient}: what differs between provider clients. */
export interface RetryingLlmClientOptions {
  /** Provider id (`anthropic`, `openai`), used in events and errors. */
  readonly provider: string;
  readonly model: string;
  /** Retries after the first attempt (default {@link DEFAULT_MAX_RETRIES}). */
  readonly maxRetries?: number | undefined;
  /**
   * Prepares one model call: maps `request` to the provider's body (mapping errors surface here,
   * before any request), loads what it needs (a lazily imported SDK) and returns how to run and
   * classify one attempt. Per-call state (usage billed by retried attempts) lives in its closure.
   */
  prepareCall(request: LlmRequest): PreparedLlmCall | Promise<PreparedLlmCall>;
  /** The attempt ends its own request (reads or aborts the body) before `message_end`. */
  readonly attemptsEndTheirRequest?: boolean;
}

/**
 * The {@link LlmClient} every provider client is: a call's attempts run through
 * {@link streamWithRetries} with the caller's abort signal and deadline. A provider supplies
 * only how to prepare a call: run one attempt and classify its failures.
 */
export function createRetryingLlmClient(options: RetryingLlmClientOptions): LlmClient {
  const { provider, model } = options;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  return {
    provider,
    model,
    stream(request: LlmRequest, callOptions: LlmCallOptions = {}): AsyncIterable<LlmStreamEvent> {
      return (async function* () {
        const { attempt, classify } = await options.prepareCall(request);
        yield* streamWithRetries(attempt, {
          provider,
          maxRetries,
          abortSignal: callOptions.abortSignal,
          timeoutMs: callOptions.timeoutMs,
          classify,
          ...(options.attemptsEndTheirRequest === true ? { attemptsEndTheirRequest: true } : {}),
        });
      })();
    },
  };
}
