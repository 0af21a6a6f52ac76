import { CodeError } from '@a3s-lab/code-core';
import { DEFAULT_AUTO_DELEGATION_MAX_TASKS, delegationSection } from '../../subagents/delegation-prompt.js';
import { DELEGATION_TOOLS } from '../../subagents/builtin-subagents.js';
import type { SubagentDefinition, SubagentFanOutOptions, SubagentRunOptions, SubagentTaskRequest, SubagentTaskResult, WorkerAgentSpec } from '@a3s-lab/code-core';
import { SubagentManager } from '../../subagents/subagent-manager.js';
import type { SessionFeature } from '../session-feature.js';
import { resolveSessionOptions } from '../resolve-session-options.js';
import type { FeatureContext } from './feature-context.js';

/** Delegation: `task` / `parallel_task`, the host's `task()` / `tasks()`, worker agents. */
export interface SubagentsFeature extends SessionFeature {
  /**
   * Runs one subagent task to its end: a child session of `task.agent` on this workspace. Never
   * rejects for a failed child (the result says so); SESSION_ERROR for an unknown agent.
   */
  task(task: SubagentTaskRequest, options?: { readonly abortSignal?: AbortSignal }): Promise<SubagentTaskResult>;
  /** Runs tasks concurrently (at most `maxParallelTasks` at once); results in request order. */
  tasks(tasks: readonly SubagentTaskRequest[], options?: SubagentFanOutOptions & { readonly abortSignal?: AbortSignal }): Promise<SubagentTaskResult[]>;
  /** Adds a worker agent at run time (its model is checked against the configuration); returns its definition. */
  registerWorkerAgent(spec: WorkerAgentSpec): SubagentDefinition;
  /** Agents this session can delegate to (built-ins and workers). */
  agents(): readonly SubagentDefinition[];
  /** Runs `agent` as a child (the skills feature runs a skill so), its kernel allowing only `activeSkillTools`. */
  runAs(agent: SubagentDefinition, task: SubagentTaskRequest, options: SubagentRunOptions, activeSkillTools?: readonly string[]): Promise<SubagentTaskResult>;
  /** False without a session factory (child sessions): nothing can be delegated. */
  readonly available: boolean;
}

export function subagentsFeature(ctx: FeatureContext): SubagentsFeature {
  const { init, options } = ctx;
  const manager =
    init.sessionFactory === undefined
      ? null
      : new SubagentManager({
          factory: init.sessionFactory,
          sessionId: ctx.sessionId,
          workspace: ctx.workspace,
          model: init.model,
          toolNames: () => ctx.registry.names(),
          policy: ctx.policy,
          inheritedPolicies: init.inheritedPolicies ?? [],
          confirmation: ctx.confirmation,
          budget: ctx.budget,
          maxParallelTasks: options.maxParallelTasks,
          maxTasksPerRun: options.autoDelegation?.enabled === true ? (options.autoDelegation.maxTasks ?? DEFAULT_AUTO_DELEGATION_MAX_TASKS) : undefined,
          workers: options.workerAgents ?? [],
          defaultConfirmationInheritance: options.subagentConfirmationInheritance,
          checkModel: init.checkModel ?? (() => undefined),
          emit: (event) => ctx.emit(event),
          currentRunId: () => ctx.activeRunId(),
          // A child's model work is the parent run's; the budget is shared, so children record it there.
          addUsage: (usage) => ctx.usage.attribute(usage),
          closeSignal: ctx.closeSignal,
          telemetry: ctx.telemetry,
          journalOfCall: (toolId) => ctx.journalOfCall(toolId),
          activeJournal: () => ctx.activeJournal(),
        });
  const offered = options.manualDelegationEnabled !== false || options.autoDelegation?.enabled === true;
  let section: string | null = null;
  const require = (): SubagentManager => {
    if (manager === null) throw new CodeError('SESSION_ERROR', 'this session cannot run subagents (no session factory; child sessions do not delegate further)', { details: { sessionId: ctx.sessionId } });
    ctx.requireOpen('task');
    return manager;
  };
  return {
    name: 'subagents',
    available: manager !== null,
    ...(manager !== null && offered ? {} : { withdrawnTools: DELEGATION_TOOLS }),
    // A task's child run journals its own steps under the call's id (childRunJournal).
    selfJournalingTools: DELEGATION_TOOLS,
    ...(manager === null ? {} : { services: { subagents: manager } }),
    promptSection: () => {
      if (manager === null || !ctx.registry.has('task')) return '';
      section ??= delegationSection(manager.agents(), options);
      return section;
    },
    task: async (task, opts = {}) => require().run(task, { signal: opts.abortSignal ?? ctx.closeSignal }),
    tasks: async (tasks, opts = {}) => {
      const { abortSignal, ...fanOut } = opts;
      return require().runAll(tasks, { ...fanOut, signal: abortSignal ?? ctx.closeSignal });
    },
    registerWorkerAgent: (spec) => {
      const [checked] = resolveSessionOptions({ workerAgents: [spec] }).workerAgents ?? [];
      const definition = require().registerWorker(checked ?? spec);
      section = null;
      return definition;
    },
    agents: () => manager?.agents() ?? [],
    runAs: async (agent, task, opts, activeSkillTools) => require().runAs(agent, task, opts, activeSkillTools),
    capture: () => ({ subagentTasks: manager?.snapshots() ?? [] }),
    restore: (snapshot) => manager?.restore(snapshot.subagentTasks),
  };
}
