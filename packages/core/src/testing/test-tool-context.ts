// A ToolContext double for running a tool's `execute` directly (the `/testing` subpath).
import { InvocationRuntime } from '../kernel/invocation-runtime.js';
import type { InvocationOrigin } from '../kernel/invocation-origin.js';
import type { ToolContext, ToolServices } from '../tools/tool.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';

/** A stored artifact of a {@link TestToolContext}. */
export interface TestArtifact {
  readonly content: string;
  readonly mediaType: string | undefined;
}

/** A {@link ToolContext} for tests plus what the tool left behind. */
export interface TestToolContext {
  readonly context: ToolContext;
  /** Artifacts the tool stored, by URI. */
  readonly artifacts: Map<string, TestArtifact>;
  /** Output deltas the tool streamed, in order. */
  readonly deltas: string[];
  /** Aborts `context.abortSignal`. */
  readonly controller: AbortController;
}

/** Options of {@link createTestToolContext}. */
export interface TestToolContextOptions {
  readonly toolName?: string;
  readonly origin?: InvocationOrigin;
  readonly sessionId?: string;
  /** Nested calls; default a runtime that refuses them (`new InvocationRuntime(null)`). */
  readonly runtime?: InvocationRuntime;
  readonly services?: ToolServices;
}

let counter = 0;

/**
 * Builds a {@link ToolContext} over `workspace` whose `storeArtifact` and `emitOutputDelta`
 * collect what the tool produced.
 *
 * @example
 * const { context, artifacts } = createTestToolContext(new MemoryWorkspaceBackend(), { toolName: 'my_tool' });
 * const output = await myTool.execute({ path: 'a.txt' }, context);
 */
export function createTestToolContext(workspace: WorkspaceBackend, options: TestToolContextOptions = {}): TestToolContext {
  const toolName = options.toolName ?? 'test';
  const artifacts = new Map<string, TestArtifact>();
  const deltas: string[] = [];
  const controller = new AbortController();
  counter += 1;
  const context: ToolContext = {
    toolId: `tool-${counter}`,
    toolName,
    origin: options.origin ?? 'host-direct',
    sessionId: options.sessionId ?? 'test-session',
    abortSignal: controller.signal,
    workspace,
    runtime: options.runtime ?? new InvocationRuntime(null),
    ancestry: [],
    services: options.services ?? {},
    emitOutputDelta: (text) => {
      deltas.push(text);
    },
    storeArtifact: (content, artifactOptions) => {
      const uri = `a3s://tool-output/${toolName}/${artifacts.size + 1}`;
      artifacts.set(uri, { content, mediaType: artifactOptions?.mediaType });
      return uri;
    },
  };
  return { context, artifacts, deltas, controller };
}
