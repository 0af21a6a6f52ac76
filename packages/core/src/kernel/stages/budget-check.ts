import type { BudgetGuard } from '../../budget/budget-guard.js';

/**
 * Stage 9: checks the session budget BEFORE any side effect and counts the call. Throws
 * BUDGET_EXHAUSTED (the kernel's `invoke` rejects with it; the session stays usable). Check and
 * count happen in one synchronous step so concurrent calls cannot overrun the limit.
 */
export function chargeBudget(budget: BudgetGuard): void {
  budget.check();
  budget.recordToolCall();
}
