import { CodeError, createAgentEvent } from '@a3s-lab/code-core';
import type { AgentEvent, PlanItem, PlanStatus } from '@a3s-lab/code-core';
import { isPlanStatus, MAX_PLAN_STEPS } from '@a3s-lab/code-core/kernel';

/**
 * The session's authoritative task list: the only writer of the plan. Every change emits a
 * `task_updated` snapshot; a step that becomes `in_progress` emits `step_start`, one that becomes
 * `completed` emits `step_end`. Ids are stable per title, so UIs can animate transitions.
 */
export class PlanBoard {
  readonly #emit: (event: AgentEvent) => void;
  #items: PlanItem[] = [];
  #counter = 0;

  constructor(emit: (event: AgentEvent) => void) {
    this.#emit = emit;
  }

  /** The current plan (copies). */
  items(): PlanItem[] {
    return this.#items.map((i) => ({ ...i }));
  }

  /**
   * Replaces the plan with `steps` (validated first: 1..256 non-empty titles, known statuses;
   * a bad list changes nothing). Returns the new plan.
   */
  update(steps: readonly { readonly step: string; readonly status?: string }[]): PlanItem[] {
    if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_PLAN_STEPS) throw invalid(`plan must hold 1..${MAX_PLAN_STEPS} steps`);
    steps.forEach((s, i) => {
      if (typeof s?.step !== 'string' || s.step.trim().length === 0 || s.step.length > 2000) throw invalid(`plan[${i}].step must be a non-empty string (at most 2000 characters)`);
      if (s.status !== undefined && !isPlanStatus(s.status)) throw invalid(`plan[${i}].status must be pending, in_progress or completed`);
    });
    const previous = new Map(this.#items.map((i) => [i.step, i]));
    const next = steps.map((s): PlanItem => {
      const before = previous.get(s.step);
      return { id: before?.id ?? `step_${(this.#counter += 1)}`, step: s.step, status: (s.status ?? 'pending') as PlanStatus };
    });
    this.#items = next;
    for (const item of next) {
      const was = previous.get(item.step)?.status ?? 'pending';
      if (item.status === was) continue;
      if (item.status === 'in_progress') this.#emit(createAgentEvent('step_start', { step_id: item.id, step: item.step }));
      if (item.status === 'completed') this.#emit(createAgentEvent('step_end', { step_id: item.id, step: item.step, status: 'completed' }));
    }
    this.#emit(createAgentEvent('task_updated', { plan: this.items() }));
    return this.items();
  }

  /** Restores a saved plan without events. */
  restore(items: readonly PlanItem[]): void {
    this.#items = items.map((i) => ({ ...i }));
    this.#counter = Math.max(0, ...this.#items.map((i) => Number(/^step_(\d+)$/.exec(i.id)?.[1] ?? 0)));
  }

  /** The plan as a system-prompt section (empty without a plan). */
  promptSection(): string {
    if (this.#items.length === 0) return '';
    const lines = this.#items.map((i, n) => `${n + 1}. [${i.status}] ${i.step}`);
    return `# Plan\nThe current plan (keep it current with update_plan: mark a step in_progress when you start it and completed when it is done):\n${lines.join('\n')}`;
  }
}

function invalid(message: string): CodeError {
  return new CodeError('TOOL_ERROR', message, { details: { errorKind: { type: 'invalid_argument', message } } });
}
