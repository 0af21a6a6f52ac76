import type { LlmCallOptions, LlmClient, LlmRequest, LlmStreamEvent, RunJournal } from '@a3s-lab/code-core';

/**
 * The model of one journaled run: the `n`-th response of `purpose` is looked up under
 * `<purpose>-<runId>-<n>` first and served from the record when it exists (the model is not
 * asked); otherwise it is streamed live and its final attempt's events are recorded before
 * `message_end` reaches the caller, so the next step begins only after the record is durable.
 */
export function journaledLlmClient(inner: LlmClient, journal: RunJournal, purpose: 'model' | 'compaction' | 'planning'): LlmClient {
  let count = 0;
  return {
    provider: inner.provider,
    model: inner.model,
    async *stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
      count += 1;
      const key = `${purpose}-${journal.runId}-${count}`;
      const recorded = await journal.modelResponse(key);
      if (recorded !== null) {
        yield* recorded;
        return;
      }
      // The first live turn after a replay: what the lost attempt streamed of it is provisional.
      if (journal.liveAfterReplay?.() === true) yield { type: 'attempt_start', attempt: 2, retryReason: 'resumed' };
      const events: LlmStreamEvent[] = [];
      for await (const event of inner.stream(request, options)) {
        if (event.type === 'attempt_start') {
          // A provider retry: what the abandoned attempt streamed is not the response.
          events.length = 0;
        } else {
          events.push(event);
          if (event.type === 'message_end') await journal.recordModelResponse(key, events);
        }
        yield event;
      }
    },
  };
}
