import type { RunRecord } from '@a3s-lab/code';

/** A run's token usage under the names both browser protocols use (the AI SDK's `LanguageModelUsage`, AG-UI's usage entries). */
export interface RunUsageTokens {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly cachedInputTokens: number;
}

/** The usage of `run` (its `RunRecord.usage`) in the protocols' terms. */
export function runUsageTokens(run: RunRecord): RunUsageTokens {
  return { inputTokens: run.usage.promptTokens, outputTokens: run.usage.completionTokens, totalTokens: run.usage.totalTokens, cachedInputTokens: run.usage.cacheReadTokens };
}
