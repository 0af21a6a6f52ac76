import type { AnyTool, JsonSchema, ToolContext, ToolOutput } from '@a3s-lab/code-core';
import type { AgentScriptTool } from '@a3s-lab/code-config';

/**
 * A `kind: script` tool of an agent directory: a PTC program run through the kernel as a nested
 * `program` call, with the tool's arguments as the program's `inputs`, its `allowed_tools` as the
 * program's allow-list (none when the list is empty) and its `limits`. Everything the script
 * does is governed like any other call.
 */
export function createScriptTool(spec: AgentScriptTool): AnyTool {
  return {
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters as JsonSchema,
    async execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutput> {
      const result = await context.runtime.invoke('program', {
        type: 'script',
        language: 'javascript',
        source: spec.source,
        inputs: args,
        allowed_tools: [...spec.allowedTools],
        ...(Object.keys(spec.limits).length === 0 ? {} : { limits: { ...spec.limits } }),
      });
      return {
        output: result.output,
        exitCode: result.exitCode,
        ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }),
        ...(result.metadata === undefined ? {} : { metadata: { script: spec.path, ...result.metadata } }),
      };
    },
  } as AnyTool;
}
