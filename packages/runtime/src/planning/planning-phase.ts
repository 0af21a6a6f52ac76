import { CodeError, createAgentEvent } from '@a3s-lab/code-core';
import type { AgentEvent, LlmClient, LlmUsage } from '@a3s-lab/code-core';
import type { HookRegistry } from '@a3s-lab/code-core/kernel';
import type { PlanBoard } from './plan-board.js';

/** What the planning phase needs from its session. */
export interface PlanningPhaseDeps {
  /** The session's model (hooked: `generate_start` / `generate_end` with purpose `planning`). */
  readonly llm: LlmClient;
  readonly hooks: HookRegistry;
  readonly board: PlanBoard;
  readonly emit: (event: AgentEvent) => void;
  readonly sessionId: string;
  /** Names of the tools the executing model will have (context for the planner). */
  readonly toolNames: () => readonly string[];
  readonly onUsage: (usage: LlmUsage) => void;
  readonly llmApiTimeoutMs: number | undefined;
}

/** Most steps the planner may produce. */
export const MAX_PLANNED_STEPS = 20;

const PLANNER_SYSTEM = [
  'You are the planning phase of a coding agent. Break the task into a short ordered list of concrete steps that the agent will then execute with its tools.',
  'Each step is one verifiable action (inspect, change, run a check). Include a verification step when the task changes code. Do not execute anything yourself.',
  'Answer by calling submit_plan.',
].join('\n');

const SUBMIT_PLAN = {
  name: 'submit_plan',
  description: 'Submit the ordered plan.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['steps'],
    properties: {
      strategy: { type: 'string', description: 'One line: the approach.' },
      steps: { type: 'array', minItems: 1, maxItems: MAX_PLANNED_STEPS, items: { type: 'string', minLength: 1 } },
    },
  },
} as const;

/**
 * The planning phase of a run: `planning_start`, `pre_planning` hooks (which may block planning
 * or modify `modified_task`, `selected_strategy`, `hints`), one planner generation that submits
 * the steps, the plan published on the board (`task_updated`), `planning_end {plan, strategy,
 * success}` and `post_planning {task_description, strategy, subtasks, success, error}`. A
 * blocked or failed planning leaves the run to execute without a plan; cancellation propagates.
 */
export async function runPlanningPhase(deps: PlanningPhaseDeps, task: string, runId: string, signal: AbortSignal): Promise<void> {
  deps.emit(createAgentEvent('planning_start', { task_description: task, run_id: runId }));
  let taskDescription = task;
  let strategy: string | null = null;
  let hints: string[] = [];
  if (deps.hooks.has('pre_planning')) {
    const decision = await deps.hooks.run('pre_planning', { task_description: task, session_id: deps.sessionId, run_id: runId });
    if (decision.action === 'block' || decision.action === 'skip' || decision.action === 'retry') {
      await finish(deps, { taskDescription, strategy, steps: [], error: `planning ${decision.action === 'skip' ? 'skipped' : 'blocked'} by hook${decision.hookId === undefined ? '' : ` '${decision.hookId}'`}: ${decision.reason ?? 'no reason given'}` });
      return;
    }
    const modified = decision.modified ?? {};
    if (typeof modified['modified_task'] === 'string' && modified['modified_task'].length > 0) taskDescription = modified['modified_task'];
    if (typeof modified['selected_strategy'] === 'string') strategy = modified['selected_strategy'];
    if (Array.isArray(modified['hints'])) hints = modified['hints'].filter((h): h is string => typeof h === 'string');
  }
  let steps: string[];
  try {
    const submitted = await askPlanner(deps, taskDescription, strategy, hints, signal);
    steps = submitted.steps;
    strategy ??= submitted.strategy;
  } catch (error) {
    if (signal.aborted) throw error;
    await finish(deps, { taskDescription, strategy, steps: [], error: `planner failed: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  deps.board.update(steps.map((step) => ({ step, status: 'pending' })));
  await finish(deps, { taskDescription, strategy, steps, error: null });
}

async function askPlanner(deps: PlanningPhaseDeps, task: string, strategy: string | null, hints: readonly string[], signal: AbortSignal): Promise<{ steps: string[]; strategy: string | null }> {
  const context = [
    `Task:\n${task}`,
    strategy === null ? '' : `Strategy: ${strategy}`,
    hints.length === 0 ? '' : `Hints:\n${hints.map((h) => `- ${h}`).join('\n')}`,
    `Tools the agent can use: ${deps.toolNames().join(', ')}`,
  ].filter((s) => s.length > 0);
  const stream = deps.llm.stream(
    { system: PLANNER_SYSTEM, messages: [{ role: 'user', content: [{ type: 'text', text: context.join('\n\n') }] }], tools: [SUBMIT_PLAN], toolChoice: { type: 'tool', name: 'submit_plan' } },
    { abortSignal: signal, ...(deps.llmApiTimeoutMs === undefined ? {} : { timeoutMs: deps.llmApiTimeoutMs }) },
  );
  let input: unknown;
  for await (const event of stream) {
    if (event.type === 'tool_call_end' && event.name === 'submit_plan') input = event.input;
    if (event.type === 'message_end') deps.onUsage(event.usage);
  }
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const steps = Array.isArray(record['steps']) ? record['steps'].filter((s): s is string => typeof s === 'string' && s.trim().length > 0).slice(0, MAX_PLANNED_STEPS) : [];
  if (steps.length === 0) throw new CodeError('LLM_ERROR', 'the planner submitted no steps', { details: { purpose: 'planning' } });
  return { steps, strategy: typeof record['strategy'] === 'string' ? record['strategy'] : null };
}

async function finish(deps: PlanningPhaseDeps, outcome: { taskDescription: string; strategy: string | null; steps: readonly string[]; error: string | null }): Promise<void> {
  const success = outcome.error === null;
  deps.emit(createAgentEvent('planning_end', { plan: success ? deps.board.items() : [], strategy: outcome.strategy, success, ...(success ? {} : { error: outcome.error }) }));
  if (deps.hooks.has('post_planning')) {
    await deps.hooks
      .run('post_planning', { task_description: outcome.taskDescription, selected_strategy: outcome.strategy, subtasks: [...outcome.steps], success, error: outcome.error })
      .catch(() => undefined);
  }
}
