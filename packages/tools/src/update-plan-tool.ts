import { CodeError, defineTool } from '@a3s-lab/code-core';
import { isPlanService } from '@a3s-lab/code-core/kernel';
import type { FromJsonSchema, Tool, ToolParametersSchema } from '@a3s-lab/code-core';

/** The JSON Schema of `update_plan`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: {
    plan: {
      type: 'array',
      minItems: 1,
      maxItems: 256,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['step', 'status'],
        properties: { step: { type: 'string', minLength: 1, maxLength: 2000 }, status: { enum: ['pending', 'in_progress', 'completed'] } },
      },
    },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `update_plan`, read from its schema. */
type UpdatePlanArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * `update_plan`: replaces the session's task list (the authoritative plan hosts render from
 * `task_updated`). Marking a step `in_progress` emits `step_start`; `completed` emits `step_end`.
 */
export function createUpdatePlanTool(): Tool<UpdatePlanArgs> {
  return defineTool({
    name: 'update_plan',
    description: 'Replace the task plan (every step, in order, with its status). Keep one step in_progress while working.',
    parameters: PARAMETERS,
    capabilities: () => ({ readOnly: true, idempotent: true, cancellationSafe: true, outputKind: 'structured' }),
    async execute(args, context) {
      const service = context.services['plan'];
      if (!isPlanService(service)) throw new CodeError('TOOL_ERROR', 'this session has no plan board', { details: { errorKind: { type: 'unsupported', message: 'no plan board' } } });
      const plan = service.update(args.plan);
      const done = plan.filter((p) => p.status === 'completed').length;
      const lines = plan.map((p, i) => `${i + 1}. [${p.status}] ${p.step}`);
      return { output: `Plan updated (${done}/${plan.length} completed):\n${lines.join('\n')}`, metadata: { plan } };
    },
  });
}
