import { CodeError } from '../errors/code-error.js';
import type { Tool, ToolDefinition } from './tool.js';
import { toToolDefinition } from './tool.js';
import { describeUnsafePatterns, unsafeSchemaPatterns } from '../validation/safe-pattern.js';

/** A tool of any argument type, as stored in a registry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds tools of every argument type
export type AnyTool = Tool<any>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Parameter schemas already found free of unsafe patterns (shared tool objects are checked once). */
const safeSchemas = new WeakSet<object>();

/** Throws CONFIG_ERROR when `tool`'s parameter schema has a pattern that can backtrack without bound. */
function checkSchemaPatterns(tool: AnyTool): void {
  const schema = tool.parameters as unknown;
  if (typeof schema !== 'object' || schema === null || safeSchemas.has(schema)) return;
  const unsafe = unsafeSchemaPatterns(schema);
  if (unsafe.length > 0) {
    throw new CodeError('CONFIG_ERROR', `tool '${tool.name}' cannot be registered: ${describeUnsafePatterns(unsafe)}`, { details: { tool: tool.name, reason: 'unsafe_pattern', patterns: unsafe.map((entry) => ({ ...entry })) } });
  }
  safeSchemas.add(schema);
}

/**
 * The tools of one session surface, in registration order. Names are unique; registering a
 * name twice is a CONFIG_ERROR unless `replace` is set.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds `tool`; throws CONFIG_ERROR on an invalid or duplicate name (unless `replace`), and on a
   * parameter schema with a `pattern` that can backtrack without bound (`details.reason`
   * `unsafe_pattern`; see `unsafePatternReason`).
   */
  register(tool: AnyTool, options: { readonly replace?: boolean } = {}): void {
    if (!TOOL_NAME.test(tool.name)) {
      throw new CodeError('CONFIG_ERROR', `invalid tool name '${tool.name}': use 1-64 letters, digits, '_' or '-'`, { details: { tool: tool.name } });
    }
    if (this.#tools.has(tool.name) && options.replace !== true) {
      throw new CodeError('CONFIG_ERROR', `a tool named '${tool.name}' is already registered`, { details: { tool: tool.name } });
    }
    checkSchemaPatterns(tool);
    this.#tools.set(tool.name, tool);
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** The tool called `name`, or `null`. */
  get(name: string): AnyTool | null {
    return this.#tools.get(name) ?? null;
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Tool names in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** Tools in registration order. */
  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** Model-facing definitions in registration order. */
  definitions(): ToolDefinition[] {
    return this.list().map((tool) => toToolDefinition(tool));
  }

  get size(): number {
    return this.#tools.size;
  }
}
