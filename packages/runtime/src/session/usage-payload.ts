import type { LlmUsage } from '@a3s-lab/code-core';

/**
 * The `usage` object of `turn_end` (one model call) and `agent_end` (the whole run): one shape
 * for both, so a host can sum the turns and compare them with the run.
 *
 * Both naming families are present because both are published: `input_tokens` /
 * `output_tokens` / `cache_*_tokens` (the provider-neutral names `turn_end` always had) and
 * `prompt_tokens` / `completion_tokens` / `total_tokens` (the names `agent_end` always had, and
 * of `SendResult`). `prompt_tokens` equals `input_tokens`: uncached input, like Anthropic's
 * `input_tokens`; cached input is in `cache_read_tokens` / `cache_write_tokens`.
 * `total_tokens` = input + output.
 */
export function usagePayload(usage: LlmUsage): Record<string, number> {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
