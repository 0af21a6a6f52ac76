import type { AnyTool, JsonSchema, ToolContext, ToolOutput } from '@a3s-lab/code-core';

/** Arguments of `dynamic_workflow`. */
export interface DynamicWorkflowArgs {
  readonly source: string;
  readonly input?: unknown;
  readonly allowed_tools?: readonly string[];
  readonly limits?: { readonly timeoutMs?: number; readonly maxToolCalls?: number; readonly maxOutputBytes?: number };
}

const PARAMETERS: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['source'],
  properties: {
    source: { type: 'string', minLength: 1, maxLength: 196_608, description: 'ES module whose default export run(ctx, inputs) returns {type:"complete", output} or {type:"fail", error}.' },
    input: { description: 'The workflow input (inputs.input).' },
    allowed_tools: { type: 'array', items: { type: 'string' } },
    limits: { type: 'object', additionalProperties: false, properties: { timeoutMs: { type: 'integer', minimum: 1 }, maxToolCalls: { type: 'integer', minimum: 0 }, maxOutputBytes: { type: 'integer', minimum: 1 } } },
  },
};

/**
 * `dynamic_workflow` (opt-in with `session.registerDynamicWorkflowRuntime()`): runs the workflow
 * module in the PTC sandbox as a nested `program` call (same limits, every `ctx` call governed)
 * with `inputs = { kind: 'workflow', input }`. The module returns `{ type: 'complete', output }`
 * (exit 0, output as JSON) or `{ type: 'fail', error }` (a failed result); anything else is a
 * failed result that says what came back.
 */
export function createDynamicWorkflowTool(): AnyTool {
  return {
    name: 'dynamic_workflow',
    description: 'Run a workflow module in the sandbox: run(ctx, inputs) returns {type:"complete", output} or {type:"fail", error}.',
    parameters: PARAMETERS,
    async execute(args: DynamicWorkflowArgs, context: ToolContext): Promise<ToolOutput> {
      const result = await context.runtime.invoke('program', {
        type: 'script',
        language: 'javascript',
        source: args.source,
        inputs: { kind: 'workflow', input: args.input ?? null },
        ...(args.allowed_tools === undefined ? {} : { allowed_tools: [...args.allowed_tools] }),
        ...(args.limits === undefined ? {} : { limits: { ...args.limits } }),
      });
      if (result.exitCode !== 0) return { output: result.output, exitCode: result.exitCode, ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }) };
      const value = (result.metadata as { script_result?: unknown } | undefined)?.script_result;
      const step = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      if (step['type'] === 'complete') return { output: JSON.stringify({ type: 'complete', output: step['output'] ?? null }), metadata: { workflow: { status: 'complete' } } };
      const message = step['type'] === 'fail' ? `workflow failed: ${typeof step['error'] === 'string' ? step['error'] : JSON.stringify(step['error'])}` : `workflow returned neither {type:"complete"} nor {type:"fail"}: ${JSON.stringify(value)?.slice(0, 500)}`;
      return { output: message, exitCode: 1, errorKind: { type: 'invalid_argument', message }, metadata: { workflow: { status: 'fail' } } };
    },
  } as AnyTool;
}
