import { CodeError } from '../errors/code-error.js';
import { DEFAULT_TOOL_CAPABILITIES } from '../tools/tool-capabilities.js';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';
import type { ToolResult } from '../tools/tool-result.js';

/** Options of a nested call. */
export interface NestedInvokeOptions {
  /** Aborts only this nested call (the parent's signal aborts it too). */
  readonly abortSignal?: AbortSignal;
  /** Caller-chosen id suffix, for correlation in events. */
  readonly id?: string;
}

/**
 * The governed gateway a session's kernel installs for one running tool invocation. It runs a
 * nested call through the full pipeline with origin `nested` and the parent's id.
 */
export interface NestedInvocationGateway {
  invokeNested(toolName: string, args: unknown, options: NestedInvokeOptions): Promise<ToolResult>;
  /** Names of the tools on the session surface. */
  toolNames(): readonly string[];
  /**
   * Scheduling capabilities of a call of `toolName` with `args` (the tool's own declaration,
   * conservative default for a tool not on the surface). Optional: a gateway without it makes
   * every call look conservative (serial).
   */
  capabilities?(toolName: string, args: unknown): ToolCapabilities;
}

/**
 * The ONLY way for extension code (a custom tool, `program`, `batch`) to call other tools.
 * Every call it makes has origin `nested` and goes through the whole governed pipeline:
 * validation, permission, confirmation, hooks, budget, timeouts, sanitisation and events.
 * Without an installed gateway it fails closed with a SECURITY_ERROR; there is no fallback to
 * a raw registry.
 */
export class InvocationRuntime {
  readonly #gateway: NestedInvocationGateway | null;

  /** @param gateway the governed gateway; `null` builds a runtime that refuses every call. */
  constructor(gateway: NestedInvocationGateway | null) {
    this.#gateway = gateway;
  }

  /** True when a governed gateway is installed. */
  get governed(): boolean {
    return this.#gateway !== null;
  }

  /** Invokes `toolName` with `args` as a governed nested call. */
  async invoke(toolName: string, args: unknown, options: NestedInvokeOptions = {}): Promise<ToolResult> {
    if (this.#gateway === null) {
      throw new CodeError('SECURITY_ERROR', `nested call to '${toolName}' refused: no governed invocation gateway is installed`, { details: { tool: toolName } });
    }
    return this.#gateway.invokeNested(toolName, args, options);
  }

  /** Names of the tools a nested call can target (before allow-lists and policy). */
  toolNames(): readonly string[] {
    return this.#gateway === null ? [] : this.#gateway.toolNames();
  }

  /**
   * Scheduling capabilities of a nested call of `toolName` with `args`, as the kernel would
   * compute them — for orchestrators (`batch`) deciding whether children may fan out. Never
   * throws: no gateway, a gateway that cannot tell, an unknown tool or a tool whose
   * declaration throws all give {@link DEFAULT_TOOL_CAPABILITIES} (serial). It grants nothing:
   * the call itself is still governed by {@link invoke}.
   */
  capabilities(toolName: string, args: unknown): ToolCapabilities {
    const gateway = this.#gateway;
    if (gateway === null || gateway.capabilities === undefined) return DEFAULT_TOOL_CAPABILITIES;
    try {
      return gateway.capabilities(toolName, args);
    } catch {
      return DEFAULT_TOOL_CAPABILITIES;
    }
  }
}
