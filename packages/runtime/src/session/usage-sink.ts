import type { BudgetGuard } from '@a3s-lab/code-core/kernel';
import type { LlmUsage } from '@a3s-lab/code-core';

/**
 * Where a session's model usage goes: the running run's record and the session budget, together.
 * Every model call of the session (turns, compaction, `/compact`, planning, `generate_object`)
 * records here; a child session's usage is attributed to the parent's run only, since a child
 * shares the parent's budget guard and counts there itself.
 */
export class UsageSink {
  readonly #run: (usage: LlmUsage) => void;
  readonly #budget: BudgetGuard | null;

  /** `run` adds usage to the running run (nothing when none runs). */
  constructor(run: (usage: LlmUsage) => void, budget: BudgetGuard | null) {
    this.#run = run;
    this.#budget = budget;
  }

  /** Model work of this session: the running run and the budget. */
  record(usage: LlmUsage): void {
    this.#run(usage);
    this.#budget?.recordTokens(usage.inputTokens + usage.outputTokens);
  }

  /** Model work a child session already counted in the shared budget: the running run only. */
  attribute(usage: LlmUsage): void {
    this.#run(usage);
  }
}
