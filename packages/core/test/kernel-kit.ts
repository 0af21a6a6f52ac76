// Test helpers for the invocation kernel: a kernel over an in-memory workspace that records
// every event, and tools that record what reached them.
import type { AgentEvent } from '../src/events/agent-event.js';
import { InvocationKernel } from '../src/kernel/invocation-kernel.js';
import type { InvocationKernelOptions } from '../src/kernel/invocation-kernel.js';
import { MemoryWorkspaceBackend } from '../src/testing/memory-workspace-backend.js';
import type { Tool, ToolContext } from '../src/tools/tool.js';
import type { AnyTool } from '../src/tools/tool-registry.js';
import { ToolRegistry } from '../src/tools/tool-registry.js';
import type { ToolOutput } from '../src/tools/tool-result.js';

export interface KernelKit {
  readonly kernel: InvocationKernel;
  readonly events: AgentEvent[];
  readonly workspace: MemoryWorkspaceBackend;
  readonly registry: ToolRegistry;
  /** Event types, optionally only those of one tool id. */
  types(toolId?: string): string[];
}

export function makeKernel(tools: readonly AnyTool[], options: Partial<InvocationKernelOptions> = {}): KernelKit {
  const events: AgentEvent[] = [];
  const workspace = (options.workspace as MemoryWorkspaceBackend | undefined) ?? new MemoryWorkspaceBackend();
  const registry = options.registry ?? new ToolRegistry(tools);
  const kernel = new InvocationKernel({ sessionId: 'session-1', ...options, registry, workspace, emit: (e) => events.push(e) });
  return {
    kernel,
    events,
    workspace,
    registry,
    types: (toolId) => events.filter((e) => toolId === undefined || e.payload['tool_id'] === toolId).map((e) => e.type),
  };
}

export interface RecordingTool extends Tool<Record<string, unknown>> {
  readonly calls: Record<string, unknown>[];
}

/** A tool with schema `{ text: string }` (required, no extra properties) that records its calls. */
export function recordingTool(
  name: string,
  run: (args: Record<string, unknown>, context: ToolContext) => Promise<ToolOutput> = async (args) => ({ output: `ran ${String(args['text'])}` }),
  extra: Partial<Tool<Record<string, unknown>>> = {},
): RecordingTool {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: `test tool ${name}`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    ...extra,
    calls,
    execute: async (args, context) => {
      calls.push(args);
      return run(args, context);
    },
  };
}

/** A tool that writes `args.path` with `args.content` to the workspace (a real side effect). */
export function writeTool(extra: Partial<Tool<Record<string, unknown>>> = {}): RecordingTool {
  const calls: Record<string, unknown>[] = [];
  return {
    name: 'write',
    description: 'writes a file',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
    permissionTarget: (args) => ({ kind: 'paths', paths: [String(args['path'])] }),
    ...extra,
    calls,
    execute: async (args, context) => {
      calls.push(args);
      await context.workspace.writeFile!({ path: String(args['path']), content: String(args['content']) });
      return { output: `wrote ${String(args['path'])}` };
    },
  };
}

/** Resolves after `ms` real milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` until true (bounded), for waiting on asynchronous state in tests. */
export async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await sleep(2);
  }
}
