import { defineTool } from '@a3s-lab/code-core';
import type { FromJsonSchema, JsonSchema, Tool, ToolParametersSchema } from '@a3s-lab/code-core';
import { renderTaskResult, taskSummary } from './task-render.js';
import { delegationNotice, subagentsOf, TASK_ITEM_SCHEMA } from './task-tool.js';
import { invalidArgument } from './tool-support.js';

/** Fewest and most tasks of one `parallel_task` call. */
export const MIN_PARALLEL_TASKS = 2;
export const MAX_PARALLEL_TASKS = 32;
/** Byte budget of the whole rendered fan-out (shared by the tasks). */
export const PARALLEL_TASK_MAX_OUTPUT_BYTES = 65_536;

/** The JSON Schema of `parallel_task`'s arguments: what the model sees and the kernel validates. */
const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['tasks'],
  properties: {
    tasks: { type: 'array', minItems: MIN_PARALLEL_TASKS, maxItems: MAX_PARALLEL_TASKS, items: withoutDescriptions(TASK_ITEM_SCHEMA), description: 'Independent tasks, each as for `task`.' },
    allow_partial_failure: { type: 'boolean' },
    timeout_ms: { type: 'integer', minimum: 1000, maximum: 3_600_000 },
    min_success_count: { type: 'integer', minimum: 1, maximum: MAX_PARALLEL_TASKS, description: 'Default: all (1 with allow_partial_failure).' },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `parallel_task`, read from its schema. */
type ParallelTaskArgs = FromJsonSchema<typeof PARAMETERS>;

/**
 * `parallel_task`: runs 2-32 independent subagent tasks concurrently (bounded by the session's
 * `maxParallelTasks`). Cancelled children settle before the result is published; the output
 * shares one byte budget between the tasks, in request order.
 */
export function createParallelTaskTool(): Tool<ParallelTaskArgs> {
  return defineTool({
    name: 'parallel_task',
    description: 'Run 2-32 independent `task`s at the same time; returns every answer in order.',
    parameters: PARAMETERS,
    confirmationNotice: (args, services) => delegationNotice(args.tasks.map((t) => t.agent), services),
    async execute(args, context) {
      const service = subagentsOf(context);
      const known = new Set(service.agents().map((a) => a.name));
      const unknown = args.tasks.findIndex((t) => !known.has(t.agent));
      if (unknown !== -1) return invalidArgument(`tasks[${unknown}]: unknown agent '${args.tasks[unknown]?.agent}'; available: ${[...known].join(', ')}`);
      const required = args.min_success_count ?? (args.allow_partial_failure === true ? 1 : args.tasks.length);
      if (required > args.tasks.length) return invalidArgument(`min_success_count (${required}) exceeds the number of tasks (${args.tasks.length})`);
      const results = await service.runAll(
        args.tasks.map((t) => ({ agent: t.agent, description: t.description, prompt: t.prompt, ...(t.max_steps === undefined ? {} : { maxSteps: t.max_steps }) })),
        {
          signal: context.abortSignal,
          parentToolId: context.toolId,
          ...(args.allow_partial_failure === undefined ? {} : { allowPartialFailure: args.allow_partial_failure }),
          minSuccessCount: required,
          ...(args.timeout_ms === undefined ? {} : { timeoutMs: args.timeout_ms }),
        },
      );
      const share = Math.floor(PARALLEL_TASK_MAX_OUTPUT_BYTES / results.length);
      const failed = results.flatMap((r, i) => (r.status === 'completed' ? [] : [i]));
      const succeeded = results.length - failed.length;
      const summary = `${succeeded}/${results.length} task(s) completed${failed.length === 0 ? '' : `; failed: ${failed.join(', ')}`}`;
      const output = [summary, ...results.map((r, i) => `--- task ${i} ---\n${renderTaskResult(r, share)}`)].join('\n');
      const metadata = { parallel_task: { succeeded, total: results.length, min_success_count: required, tasks: results.map(taskSummary) } };
      if (failed.length === 0) return { output, metadata };
      const errorKind = { type: 'partial_failure' as const, failed, total: results.length };
      return succeeded >= required ? { output, metadata, errorKind } : { output, exitCode: 1, metadata, errorKind };
    },
  });
}

/** `schema` with its properties' descriptions left out: the same arguments, fewer bytes. */
type WithoutDescriptions<S extends { readonly properties: Readonly<Record<string, JsonSchema>> }> = Omit<S, 'properties'> & {
  readonly properties: { readonly [K in keyof S['properties']]: Omit<S['properties'][K], 'description'> };
};

/** The item schema without its property descriptions (they are on `task` already). */
function withoutDescriptions<const S extends { readonly properties: Readonly<Record<string, JsonSchema>> }>(schema: S): WithoutDescriptions<S> {
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([k, { description: _d, ...rest }]) => [k, rest]));
  return { ...schema, properties } as WithoutDescriptions<S>;
}
