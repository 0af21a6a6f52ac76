import type { ResolvedSessionOptions } from '../session/resolve-session-options.js';
import type { SubagentDefinition } from '@a3s-lab/code-core';

/** Tasks per run under `autoDelegation` when `maxTasks` is not set. */
export const DEFAULT_AUTO_DELEGATION_MAX_TASKS = 4;

/**
 * The system-prompt section that tells the model which agents `task` / `parallel_task` reach.
 * With `autoDelegation.enabled` it also asks the model to delegate independent sub-tasks on its
 * own, within `maxTasks` per request; with `autoParallel` it says that several `task` calls in
 * one turn run at the same time.
 */
export function delegationSection(agents: readonly SubagentDefinition[], options: ResolvedSessionOptions): string {
  const lines = ['# Subagents', '`task` hands self-contained work to a subagent with its own context; `parallel_task` runs several at once. Agents:'];
  for (const agent of agents) lines.push(`- ${agent.name} (${agent.kind}): ${agent.description}`);
  if (options.autoDelegation?.enabled === true) {
    const max = options.autoDelegation.maxTasks ?? DEFAULT_AUTO_DELEGATION_MAX_TASKS;
    lines.push(`Delegate on your own: when the request has independent parts (exploration, review, verification), hand each to a subagent instead of doing everything yourself. At most ${max} task(s) per request.`);
  }
  lines.push(options.autoParallel ? 'Several `task` calls in one response run concurrently.' : 'Several `task` calls in one response run one after another; use `parallel_task` to run tasks concurrently.');
  return lines.join('\n');
}
