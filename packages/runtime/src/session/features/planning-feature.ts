import { PlanBoard } from '../../planning/plan-board.js';
import type { PlanItem, RunJournal } from '@a3s-lab/code-core';
import { runPlanningPhase } from '../../planning/planning-phase.js';
import { journaledLlmClient } from '../../journal/journaled-llm-client.js';
import type { SessionFeature } from '../session-feature.js';
import type { FeatureContext } from './feature-context.js';

/** The planning phase of a run (`planningMode`), as the run executor calls it. */
export interface PlanningPhase {
  readonly mode: 'auto' | 'enabled' | 'disabled';
  /** Plans `task`; in a durable run the planner's response is a step of `journal` (`planning-<runId>-<n>`). */
  run(task: string, runId: string, signal: AbortSignal, journal: RunJournal | null): Promise<void>;
}

/** The session's plan: the `update_plan` tool's board, the planning phase and the prompt's plan section. */
export interface PlanningFeature extends SessionFeature {
  /** The plan, in order. */
  items(): PlanItem[];
  /** The planning phase; `null` when `planningMode` is `disabled`. */
  readonly phase: PlanningPhase | null;
}

export function planningFeature(ctx: FeatureContext): PlanningFeature {
  const board = new PlanBoard((event) => ctx.emit(event));
  const mode = ctx.options.planningMode;
  return {
    name: 'planning',
    services: { plan: board },
    promptSection: () => board.promptSection(),
    items: () => board.items(),
    phase:
      mode === 'disabled'
        ? null
        : {
            mode,
            run: (task, runId, signal, journal) =>
              runPlanningPhase(
                {
                  llm: journal === null ? ctx.llm('planning') : journaledLlmClient(ctx.llm('planning'), journal, 'planning'),
                  hooks: ctx.hooks,
                  board,
                  emit: (event) => ctx.emit(event),
                  sessionId: ctx.sessionId,
                  toolNames: () => ctx.registry.names(),
                  onUsage: (usage) => ctx.usage.record(usage),
                  llmApiTimeoutMs: ctx.options.llmApiTimeoutMs,
                },
                task,
                runId,
                signal,
              ),
          },
    capture: () => ({ plan: board.items() }),
    restore: (snapshot) => board.restore(snapshot.plan ?? []),
  };
}
