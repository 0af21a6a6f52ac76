import { createPathDenyFilter } from '../permission/path-deny-filter.js';
import { DeltaRedactor } from './delta-redactor.js';
import type { ToolContext, ToolServices } from '../tools/tool.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import type { InvocationCall } from './invocation-call.js';
import type { InvocationOrigin } from './invocation-origin.js';
import { InvocationRuntime } from './invocation-runtime.js';
import type { NestedInvocationGateway, NestedInvokeOptions } from './invocation-runtime.js';
import type { KernelDeps } from './kernel-deps.js';
import { emitCallEvent } from './kernel-deps.js';
import { createAgentEvent } from '../events/agent-event.js';
import { capabilitiesByName } from './stages/permission-target.js';

/** How the kernel runs a governed nested call on behalf of `parent`. */
export type NestedInvoker = (parent: InvocationCall, toolName: string, args: unknown, options: NestedInvokeOptions) => Promise<ToolResult>;

/**
 * The {@link ToolContext} of one running call. The abort signal and the nested
 * {@link InvocationRuntime} are created on first use, so a tool that needs neither costs
 * neither.
 */
export class KernelToolContext implements ToolContext {
  readonly #deps: KernelDeps;
  readonly #call: InvocationCall;
  readonly #invokeNested: NestedInvoker;
  #runtime: InvocationRuntime | null = null;
  #pathDenied: ((path: string) => boolean) | null | undefined = undefined;
  #deltas: DeltaRedactor | undefined;

  constructor(deps: KernelDeps, call: InvocationCall, invokeNested: NestedInvoker) {
    this.#deps = deps;
    this.#call = call;
    this.#invokeNested = invokeNested;
  }

  get toolId(): string {
    return this.#call.toolId;
  }

  get toolName(): string {
    return this.#call.toolName;
  }

  get origin(): InvocationOrigin {
    return this.#call.origin;
  }

  get sessionId(): string {
    return this.#deps.sessionId;
  }

  get abortSignal(): AbortSignal {
    return this.#call.signal;
  }

  get workspace(): WorkspaceBackend {
    return this.#deps.workspace;
  }

  get ancestry(): readonly string[] {
    return this.#call.ancestry;
  }

  get services(): ToolServices {
    return this.#deps.services;
  }

  /** See {@link ToolContext.isPathDenied}: deny rules of this tool and of `read`; host-direct calls skip policy. */
  isPathDenied(path: string): boolean {
    if (this.#pathDenied === undefined) {
      this.#pathDenied = this.#call.origin === 'host-direct' ? null : createPathDenyFilter(this.#deps.policy, [this.#call.toolName, 'read']);
    }
    return this.#pathDenied === null ? false : this.#pathDenied(path);
  }

  /** See {@link ToolContext.redact}: the session's security provider. */
  redact(text: string): string {
    return this.#deps.security.redact(text);
  }

  /** Governed nested calls (origin `nested`, this call as parent). */
  get runtime(): InvocationRuntime {
    if (this.#runtime === null) {
      const call = this.#call;
      const invoke = this.#invokeNested;
      const registry = this.#deps.registry;
      const gateway: NestedInvocationGateway = {
        invokeNested: (toolName, args, options) => invoke(call, toolName, args, options),
        toolNames: () => registry.names(),
        capabilities: (toolName, args) => capabilitiesByName(registry, toolName, args),
      };
      this.#runtime = new InvocationRuntime(gateway);
    }
    return this.#runtime;
  }

  /**
   * Streams redacted partial output as `tool_output_delta`; ignored once the call has ended. The
   * deltas are redacted as one text (see {@link DeltaRedactor}), not chunk by chunk.
   */
  emitOutputDelta(text: string): void {
    const call = this.#call;
    if (call.lifecycle.state !== 'running' || typeof text !== 'string' || text.length === 0) return;
    this.#deltas ??= new DeltaRedactor(this.#deps.security);
    const delta = this.#deltas.push(text);
    if (delta.length === 0) return;
    emitCallEvent(this.#deps, call, createAgentEvent('tool_output_delta', { tool_id: call.toolId, tool_name: call.toolName, delta }));
  }

  /**
   * Stores redacted `content` as an artifact of this tool and returns its URI. Content larger
   * than the store's `maxBytes` is kept as a head+tail copy marked `truncated` (with
   * `originalBytes`) rather than failing the tool.
   */
  storeArtifact(content: string, options: { readonly mediaType?: string } = {}): string {
    return this.#deps.artifacts.putBounded(this.#call.toolName, this.#deps.security.redact(content), options).uri;
  }
}
