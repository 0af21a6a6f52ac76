// The plan's data (`update_plan`, `session.plan()`, snapshots), shared by the plan service, the
// snapshot parser and the runtime's PlanBoard.

/** Status of a plan step. */
export type PlanStatus = 'pending' | 'in_progress' | 'completed';

/** One step of the session's plan. */
export type PlanItem = {
  /** Stable id (`step_1`...): kept while the step's title is unchanged. */
  readonly id: string;
  readonly step: string;
  readonly status: PlanStatus;
};

/** Most steps a plan holds. */
export const MAX_PLAN_STEPS = 256;
const STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

/** True when `value` is a plan step status. */
export function isPlanStatus(value: unknown): value is PlanStatus {
  return typeof value === 'string' && STATUSES.has(value);
}

/** True when `value` is a well-formed saved plan. */
export function isPlan(value: unknown): value is PlanItem[] {
  return Array.isArray(value) && value.every((i) => typeof i === 'object' && i !== null && typeof i.id === 'string' && typeof i.step === 'string' && isPlanStatus(i.status));
}
