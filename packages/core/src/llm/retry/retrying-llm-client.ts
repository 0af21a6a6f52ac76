import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent } from '../llm-client.js';
import type { AttemptFailure } from './attempt-failure.js';
import { DEFAULT_MAX_RETRIES } from './retry-policy.js';
import { streamWithRetries, type RunAttempt } from './stream-with-retries.js';

/** Options of {@link createRetryingLlmClient}: what differs between provider clients. */
export interface RetryingLlmClientOptions {
  /** Provider id (`anthropic`, `openai`), used in events and errors. */
  readonly provider: string;
  readonly model: string;
  /** Retries after the first attempt (default {@link DEFAULT_MAX_RETRIES}). */
  readonly maxRetries?: number | undefined;
  /**
   * Prepares one model call: maps `request` to the provider's body (mapping errors surface here,
   * before any request) and returns the function that runs one attempt of it. Per-call state
   * (usage billed by retried attempts) lives in its closure.
   */
  prepareCall(request: LlmRequest): RunAttempt;
  /** Classifies an attempt's failure (retryable or not, with the provider's redaction). */
  classify(error: unknown): AttemptFailure;
  /** The attempt ends its own request (reads or aborts the body) before `message_end`. */
  readonly attemptsEndTheirRequest?: boolean;
}

/**
 * The {@link LlmClient} every provider client is: a call's attempts run through
 * {@link streamWithRetries} with the caller's abort signal and deadline. A provider supplies
 * only how to prepare and run one attempt and how to classify its failures.
 */
export function createRetryingLlmClient(options: RetryingLlmClientOptions): LlmClient {
  const { provider, model, classify } = options;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  return {
    provider,
    model,
    stream(request: LlmRequest, callOptions: LlmCallOptions = {}): AsyncIterable<LlmStreamEvent> {
      return (async function* () {
        const attempt = options.prepareCall(request);
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
