import { describe, expect, it } from 'vitest';
import { BudgetGuard } from '@a3s-lab/code-core/kernel';
import type { LlmUsage } from '@a3s-lab/code-core';
import { addRunUsage, EMPTY_RUN_USAGE, llmUsageOf } from './run-usage.js';
import { UsageSink } from './usage-sink.js';

describe('UsageSink', () => {
  it('records model work in the run and the budget together; a child attribution reaches the run only', () => {
    const run: LlmUsage[] = [];
    const budget = new BudgetGuard({ maxTokens: 1000 });
    const sink = new UsageSink((u) => run.push(u), budget);
    sink.record({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 });
    sink.attribute({ inputTokens: 7, outputTokens: 3 });
    expect(run).toEqual([{ inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 }, { inputTokens: 7, outputTokens: 3 }]);
    expect(budget.usage().tokens).toBe(15);
  });

  it('one conversion each way between a usage and a run record', () => {
    const total = addRunUsage(addRunUsage(EMPTY_RUN_USAGE, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 }), { inputTokens: 1, outputTokens: 1, cacheWriteTokens: 4 });
    expect(total).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17, cacheReadTokens: 2, cacheWriteTokens: 4 });
    expect(llmUsageOf(total)).toEqual({ inputTokens: 11, outputTokens: 6, cacheReadTokens: 2, cacheWriteTokens: 4 });
  });
});
