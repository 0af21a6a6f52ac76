import { InvocationRuntime } from '@a3s-lab/code-core';
import type { NestedInvokeOptions, ToolContext, ToolOutput, ToolResult, WorkspaceBackend } from '@a3s-lab/code-core';

/** A fake tool body: receives the args and the nested call's abort signal. */
export type FakeTool = (args: Record<string, unknown>, signal: AbortSignal | undefined) => ToolOutput | Promise<ToolOutput>;

/** A nested call seen by the fake gateway. */
export interface SeenCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** A ToolContext whose runtime is a real InvocationRuntime over a small gateway of fake tools. */
export function createFakeContext(tools: Record<string, FakeTool>, options: { files?: Record<string, string>; abortSignal?: AbortSignal; sessionId?: string } = {}) {
  const calls: SeenCall[] = [];
  const artifacts = new Map<string, string>();
  const gateway = {
    async invokeNested(toolName: string, args: unknown, nested: NestedInvokeOptions): Promise<ToolResult> {
      const record = (args ?? {}) as Record<string, unknown>;
      calls.push({ tool: toolName, args: record });
      const tool = tools[toolName];
      if (tool === undefined) return { name: toolName, output: `unknown tool '${toolName}'`, exitCode: 1 };
      const output = await tool(record, nested.abortSignal);
      return { ...output, name: toolName, exitCode: output.exitCode ?? 0 };
    },
    toolNames: () => [...Object.keys(tools), 'program'],
  };
  const files = options.files ?? {};
  const workspace = {
    kind: 'fake',
    root: '/fake',
    capabilities: { read: true, write: false, list: false, search: false, exec: false, git: false, versionedWrites: false },
    resolvePath: async ({ path }: { path: string }) => path,
    stat: async () => null,
    readFile: async ({ path }: { path: string }) => {
      const text = files[path];
      if (text === undefined) return null;
      const content = new TextEncoder().encode(text);
      return { path, content, version: '1', size: content.length };
    },
  } satisfies WorkspaceBackend;
  const context: ToolContext = {
    toolId: 'tool-1',
    toolName: 'program',
    origin: 'agent',
    sessionId: options.sessionId ?? 'session-1',
    abortSignal: options.abortSignal ?? new AbortController().signal,
    workspace,
    runtime: new InvocationRuntime(gateway),
    ancestry: [],
    services: {},
    emitOutputDelta: () => {},
    storeArtifact: (content) => {
      const uri = `a3s://tool-output/program/${artifacts.size + 1}`;
      artifacts.set(uri, content);
      return uri;
    },
  };
  return { context, calls, artifacts };
}
