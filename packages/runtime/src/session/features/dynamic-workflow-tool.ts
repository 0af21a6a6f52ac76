import { defineTool } from '@a3s-lab/code-core';
import type { FromJsonSchema, Tool, ToolParametersSchema } from '@a3s-lab/code-core';

/** The name of the opt-in workflow tool. */
export const DYNAMIC_WORKFLOW_TOOL = 'dynamic_workflow';

const PARAMETERS = {
  type: 'object',
  additionalProperties: false,
  required: ['source'],
  properties: {
    source: { type: 'string', minLength: 1, maxLength: 196_608, description: 'ES module whose default export run(ctx, inputs) returns {type:"complete", output} or {type:"fail", error}.' },
    input: { description: 'The workflow input (inputs.input).' },
    allowed_tools: { type: 'array', items: { type: 'string' } },
    limits: { type: 'object', additionalProperties: false, properties: { timeoutMs: { type: 'integer', minimum: 1 }, maxToolCalls: { type: 'integer', minimum: 0 }, maxOutputBytes: { type: 'integer', minimum: 1 } } },
  },
} as const satisfies ToolParametersSchema;

/** Arguments of `dynamic_workflow`, read from its schema. */
type DynamicWorkflowArgs = FromJsonSchema<typeof PARAMETERS>;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `dynamic_workflow`: runs the workflow module in the PTC sandbox as a nested `program` call (same
 * limits, every `ctx` call governed) with `inputs = { kind: 'workflow', input }`. The module
 * returns `{ type: 'complete', output }` (exit 0, output as JSON) or `{ type: 'fail', error }` (a
 * failed result); anything else is a failed result that says what came back.
 */
export function createDynamicWorkflowTool(): Tool<DynamicWorkflowArgs> {
  return defineTool({
    name: DYNAMIC_WORKFLOW_TOOL,
    description: 'Run a workflow module in the sandbox: run(ctx, inputs) returns {type:"complete", output} or {type:"fail", error}.',
    parameters: PARAMETERS,
    async execute(args, context) {
      const result = await context.runtime.invoke('program', {
        type: 'script',
        language: 'javascript',
        source: args.source,
        inputs: { kind: 'workflow', input: args.input ?? null },
        ...(args.allowed_tools === undefined ? {} : { allowed_tools: [...args.allowed_tools] }),
        ...(args.limits === undefined ? {} : { limits: { ...args.limits } }),
      });
      if (result.exitCode !== 0) return { output: result.output, exitCode: result.exitCode, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }) };
      const value = isRecord(result.metadata) ? result.metadata['script_result'] : undefined;
      const step = isRecord(value) ? value : {};
      if (step['type'] === 'complete') return { output: JSON.stringify({ type: 'complete', output: step['output'] ?? null }), metadata: { workflow: { status: 'complete' } } };
      const message = step['type'] === 'fail' ? `workflow failed: ${typeof step['error'] === 'string' ? step['error'] : JSON.stringify(step['error'])}` : `workflow returned neither {type:"complete"} nor {type:"fail"}: ${JSON.stringify(value)?.slice(0, 500)}`;
      return { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message }, metadata: { workflow: { status: 'fail' } } };
    },
  });
}
