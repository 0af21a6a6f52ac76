import { InvocationRuntime } from '@a3s-lab/code-core';
import type { AnyTool, ToolContext, ToolOutput, WorkspaceBackend } from '@a3s-lab/code-core';

/** A ToolContext for tests plus what the tool left behind (artifacts, output deltas). */
export interface TestToolContext {
  readonly context: ToolContext;
  readonly artifacts: Map<string, { content: string; mediaType: string | undefined }>;
  readonly deltas: string[];
  readonly controller: AbortController;
}

let counter = 0;

/**
 * Builds a ToolContext over `workspace` whose runtime refuses nested calls
 * (`new InvocationRuntime(null)`) and whose `storeArtifact` collects into a map.
 */
export function createTestContext(workspace: WorkspaceBackend, toolName = 'test'): TestToolContext {
  const artifacts = new Map<string, { content: string; mediaType: string | undefined }>();
  const deltas: string[] = [];
  const controller = new AbortController();
  counter += 1;
  const context: ToolContext = {
    toolId: `tool-${counter}`,
    toolName,
    origin: 'host-direct',
    sessionId: 'test-session',
    abortSignal: controller.signal,
    workspace,
    runtime: new InvocationRuntime(null),
    ancestry: [],
    services: {},
    emitOutputDelta: (text) => {
      deltas.push(text);
    },
    storeArtifact: (content, options) => {
      const uri = `a3s://tool-output/${toolName}/${artifacts.size + 1}`;
      artifacts.set(uri, { content, mediaType: options?.mediaType });
      return uri;
    },
  };
  return { context, artifacts, deltas, controller };
}

/** Runs `tool` with `args` over `workspace` in a fresh test context. */
export async function run(tool: AnyTool, workspace: WorkspaceBackend, args: Record<string, unknown>): Promise<ToolOutput & { readonly artifactsStored: TestToolContext['artifacts'] }> {
  const test = createTestContext(workspace, tool.name);
  const output = await tool.execute(args, test.context);
  return { ...output, artifactsStored: test.artifacts };
}

/** Text of a stored file (throws when it is missing). */
export async function fileText(workspace: WorkspaceBackend, path: string): Promise<string> {
  const file = await workspace.readFile({ path });
  if (file === null) throw new Error(`${path} is missing`);
  return new TextDecoder().decode(file.content);
}
