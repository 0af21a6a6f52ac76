import type { AnyTool, ToolOutput, WorkspaceBackend } from '@a3s-lab/code-core';
import { createTestToolContext } from '@a3s-lab/code-core/testing';
import type { TestToolContext } from '@a3s-lab/code-core/testing';

export type { TestToolContext } from '@a3s-lab/code-core/testing';

/**
 * Builds a ToolContext over `workspace` whose runtime refuses nested calls and whose
 * `storeArtifact` collects into a map (the double of `@a3s-lab/code-core/testing`).
 */
export function createTestContext(workspace: WorkspaceBackend, toolName = 'test'): TestToolContext {
  return createTestToolContext(workspace, { toolName });
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
