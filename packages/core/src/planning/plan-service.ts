import type { PlanItem } from './plan-item.js';

/** What `update_plan` calls (`context.services.plan`): the session's plan board. */
export interface PlanService {
  items(): PlanItem[];
  update(steps: readonly { readonly step: string; readonly status?: string }[]): PlanItem[];
}

/** True when `value` is a {@link PlanService}. */
export function isPlanService(value: unknown): value is PlanService {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['update'] === 'function' && typeof (value as Record<string, unknown>)['items'] === 'function';
}
