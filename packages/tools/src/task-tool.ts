import { CodeError, defineTool } from '@a3s-lab/code-core';
import { describeSubagentAuthority, isSubagentService } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, Tool, ToolContext, ToolParametersSchema, ToolServices } from '@a3s-lab/code-core';
import type { SubagentService } from '@a3s-lab/code-core/kernel';
import { renderTaskResult, taskSummary } from './task-render.js';
import { invalidArgument } from './tool-support.js';

/** The JSON Schema of one task: `task`'s arguments and the items of `parallel_task`'s `tasks`. */
export const TASK_ITEM_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'description', 'prompt'],
  properties: {
    agent: { type: 'string', minLength: 1, maxLength: 64, description: 'An agent of the Subagents list.' },
    description: { type: 'string', minLength: 1, maxLength: 200, description: 'Short label.' },
    prompt: { type: 'string', minLength: 1, maxLength: 65_536, description: 'All it needs: it does not see this conversation.' },
    max_steps: { type: 'integer', minimum: 1, maximum: 200 },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `task` (one task), read from {@link TASK_ITEM_SCHEMA}. */
export type TaskArgs = FromJsonSchema<typeof TASK_ITEM_SCHEMA>;

/** The session's subagent service, or a typed failure when the session has none. */
export function subagentsOf(context: ToolContext): SubagentService {
  const service = context.services['subagents'];
  if (!isSubagentService(service)) throw new CodeError('TOOL_ERROR', 'subagents are not available in this session', { details: { errorKind: { type: 'unsupported', message: 'subagents are not available in this session' } } });
  return service;
}

/**
 * What approving a delegation to `agents` unlocks, one line per distinct agent: its
 * `confirmationInheritance` and what its child may run without asking. `undefined` without a
 * subagent service; an unknown agent is left out (the call fails on it anyway).
 */
export function delegationNotice(agents: readonly string[], services: ToolServices): string | undefined {
  const service = services['subagents'];
  if (!isSubagentService(service)) return undefined;
  const known = new Set(service.agents().map((a) => a.name));
  const lines = [...new Set(agents)].filter((name) => known.has(name)).map((name) => describeSubagentAuthority(service.authority(name)));
  return lines.length === 0 ? undefined : `Approving starts ${lines.join('; ')}.`;
}

/**
 * `task`: delegates a self-contained piece of work to a subagent — a child session with its own
 * context, tools and prompt on the same workspace, governed by the same kernel and never allowed
 * more than this session. The result is the child's final answer (bounded); the full transcript
 * stays in the session's task snapshots.
 */
export function createTaskTool(): Tool<TaskArgs> {
  return defineTool({
    name: 'task',
    description: 'Delegate a self-contained task to a subagent with its own context; returns its final answer. Keeps bulky exploration, review or verification out of your context.',
    parameters: TASK_ITEM_SCHEMA,
    confirmationNotice: (args, services) => delegationNotice([args.agent], services),
    async execute(args, context) {
      const service = subagentsOf(context);
      if (!service.agents().some((a) => a.name === args.agent)) {
        return invalidArgument(`unknown agent '${args.agent}'; available: ${service.agents().map((a) => a.name).join(', ')}`);
      }
      const result = await service.run(
        { agent: args.agent, description: args.description, prompt: args.prompt, ...(args.max_steps === undefined ? {} : { maxSteps: args.max_steps }) },
        { signal: context.abortSignal, parentToolId: context.toolId },
      );
      const output = renderTaskResult(result);
      const metadata = { task: taskSummary(result) };
      if (result.status === 'completed') return { output, metadata };
      if (result.status === 'cancelled') return { output, exitCode: 1, metadata, errorKind: { type: 'cancelled', op: 'task' } };
      return { output, exitCode: 1, metadata, errorKind: { type: 'partial_failure', failed: [0], total: 1 } };
    },
  });
}
