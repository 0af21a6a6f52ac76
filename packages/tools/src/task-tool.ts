import { CodeError, isSubagentService } from '@a3s-lab/code-core';
import type { JsonSchema, SubagentService, Tool, ToolContext, ToolOutput } from '@a3s-lab/code-core';
import { renderTaskResult, taskSummary } from './task-render.js';
import { invalidArgument } from './tool-support.js';

/** Arguments of `task`. */
export interface TaskArgs {
  readonly agent: string;
  readonly description: string;
  readonly prompt: string;
  readonly max_steps?: number;
}

/** The JSON Schema of one task (shared with `parallel_task`). */
export const TASK_ITEM_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['agent', 'description', 'prompt'],
  properties: {
    agent: { type: 'string', minLength: 1, maxLength: 64, description: 'Agent to delegate to (see the Subagents section of the system prompt): explore, plan, general, verification, review, or a worker name.' },
    description: { type: 'string', minLength: 1, maxLength: 200, description: 'Short label of the task (3-8 words).' },
    prompt: { type: 'string', minLength: 1, maxLength: 65_536, description: 'Everything the subagent needs to know: it does not see this conversation.' },
    max_steps: { type: 'integer', minimum: 1, maximum: 200, description: "Model turns with tool calls the subagent may take (capped by the agent's own limit)." },
  },
};

/** The session's subagent service, or a typed failure when the session has none. */
export function subagentsOf(context: ToolContext): SubagentService {
  const service = context.services['subagents'];
  if (!isSubagentService(service)) throw new CodeError('TOOL_ERROR', 'subagents are not available in this session', { details: { errorKind: { type: 'unsupported', message: 'subagents are not available in this session' } } });
  return service;
}

/**
 * `task`: delegates a self-contained piece of work to a subagent — a child session with its own
 * context, tools and prompt on the same workspace, governed by the same kernel and never allowed
 * more than this session. The result is the child's final answer (bounded); the full transcript
 * stays in the session's task snapshots.
 */
export function createTaskTool(): Tool<TaskArgs> {
  return {
    name: 'task',
    description:
      'Delegate a self-contained task to a subagent with its own context (it does not see this conversation). Use it for focused exploration, planning, review or verification, or to keep large intermediate output out of your context. Returns the subagent\'s final answer.',
    parameters: TASK_ITEM_SCHEMA,
    async execute(args: TaskArgs, context: ToolContext): Promise<ToolOutput> {
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
  };
}
