import type { LlmUsage, RunUsage } from '@a3s-lab/code-core';

/**
 * The conversions of the one usage type, {@link LlmUsage} (what every model call reports), to
 * the shapes that publish it: a run's record (`RunUsage`, also the fields of `SendResult`) here,
 * the `usage` of `turn_end` / `agent_end` in `usagePayload` (`usage-payload.ts`).
 */

/** A run before any model work. */
export const EMPTY_RUN_USAGE: RunUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

/** `total` with `usage` added (`promptTokens` is uncached input, `totalTokens` input + output). */
export function addRunUsage(total: RunUsage, usage: LlmUsage): RunUsage {
  const promptTokens = total.promptTokens + usage.inputTokens;
  const completionTokens = total.completionTokens + usage.outputTokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cacheReadTokens: total.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    cacheWriteTokens: total.cacheWriteTokens + (usage.cacheWriteTokens ?? 0),
  };
}

/** A run's total as one usage (for `agent_end` and the run's span). */
export function llmUsageOf(run: RunUsage): LlmUsage {
  return { inputTokens: run.promptTokens, outputTokens: run.completionTokens, cacheReadTokens: run.cacheReadTokens, cacheWriteTokens: run.cacheWriteTokens };
}
