import type { FromJsonSchema } from './from-json-schema.js';
import type { JsonSchema } from './json-schema.js';
import type { ToolCapabilities } from './tool-capabilities.js';
import type { PermissionTarget, Tool, ToolContext } from './tool.js';
import type { ToolOutput } from './tool-result.js';

/** The JSON Schema of a tool's arguments: an object schema, declared inline or `as const`. */
export type ToolParametersSchema = JsonSchema & { readonly type: 'object' };

/**
 * What {@link defineTool} takes: a {@link Tool} whose `parameters` is a literal JSON Schema and
 * whose argument-taking members are typed with the arguments that schema accepts. They are
 * function-typed properties (not methods), so a handler annotated with another argument type
 * is a compile error rather than a bivariant match.
 */
export type ToolDefinitionInput<S extends ToolParametersSchema> = Omit<Tool<FromJsonSchema<S>>, 'parameters' | 'execute' | 'capabilities' | 'permissionTarget' | 'escalate' | 'timeoutMs'> & {
  /** JSON Schema of the arguments object; the kernel validates every call against it before `execute`. */
  readonly parameters: S;
  /** Runs the call with arguments typed from `parameters`. */
  readonly execute: (args: FromJsonSchema<S>, context: ToolContext) => Promise<ToolOutput>;
  readonly capabilities?: (args: FromJsonSchema<S>) => Partial<ToolCapabilities>;
  readonly permissionTarget?: (args: FromJsonSchema<S>) => PermissionTarget;
  readonly escalate?: (args: FromJsonSchema<S>) => string | undefined;
  readonly timeoutMs?: (args: FromJsonSchema<S>) => number | undefined;
};

/**
 * Defines a custom tool whose handler's argument type is read from its JSON Schema, so the two
 * cannot disagree (the schema is what the model sees and what the kernel validates against).
 *
 * ```ts
 * const wordCount = defineTool({
 *   name: 'word_count',
 *   description: 'Counts the words of a workspace file.',
 *   parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } }, additionalProperties: false },
 *   async execute({ path }, context) { // path: string
 *     const file = await context.workspace.readFile({ path, abortSignal: context.abortSignal });
 *     const text = file === null ? '' : new TextDecoder().decode(file.content);
 *     return { output: String(text.split(/\s+/).filter(Boolean).length) };
 *   },
 * });
 * session.registerTool(wordCount);
 * ```
 *
 * Returns the tool unchanged: the helper exists only for the types.
 */
export function defineTool<const S extends ToolParametersSchema>(tool: ToolDefinitionInput<S>): Tool<FromJsonSchema<S>> {
  return tool;
}
