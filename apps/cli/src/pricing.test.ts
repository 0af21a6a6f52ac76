import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from './pricing.js';

describe('pricing', () => {
  it('matches dated ids to their family, longest prefix first', () => {
    expect(priceOf('anthropic/claude-sonnet-4-20250514')?.input).toBe(3);
    expect(priceOf('claude-opus-4-5-20251101')?.input).toBe(5);
    expect(priceOf('claude-opus-4-1-20250805')?.input).toBe(15);
    expect(priceOf('openai/gpt-4o-mini')?.output).toBe(0.6);
    expect(priceOf('openai/gpt-4o-2024-08-06')?.output).toBe(10);
  });

  it('has no price (and no cost) for unknown models', () => {
    expect(priceOf('openai/my-local-llama')).toBeNull();
    expect(priceOf('anthropic/claude-test')).toBeNull();
    expect(costOf('ollama/qwen', { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeNull();
  });

  it('prices input, output and cache tokens', () => {
    const cost = costOf('anthropic/claude-sonnet-4-20250514', { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 });
    expect(cost).toBeCloseTo(3 + 1.5 + 0.3, 10);
  });
});
