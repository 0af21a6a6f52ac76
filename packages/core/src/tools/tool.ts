import type { InvocationOrigin } from '../kernel/invocation-origin.js';
import type { InvocationRuntime } from '../kernel/invocation-runtime.js';
import type { WorkspaceBackend, WorkspaceCapability } from '../workspace/workspace-backend.js';
import type { JsonSchema } from './json-schema.js';
import type { ToolCapabilities } from './tool-capabilities.js';
import type { ToolOutput } from './tool-result.js';

/**
 * What a permission rule's specifier is matched against for one call:
 * `bash(git status)` matches a `command`, `write(**\/.env*)` matches `paths`,
 * `web_fetch(domain:docs.rs)` matches a `url`'s host.
 */
export type PermissionTarget =
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'paths'; readonly paths: readonly string[] }
  /** A network target: `web_fetch(domain:docs.rs)` matches `host`, `web_fetch(https://x.dev/*)` the `url`. */
  | { readonly kind: 'url'; readonly url: string; readonly host: string }
  | { readonly kind: 'none' };

/** Session-level services a tool may use (model access for `generate_object`, subagents...). */
export interface ToolServices {
  readonly [service: string]: unknown;
}

/** Everything a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Id of this invocation (same id on `tool_start` and `tool_end`). */
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: InvocationOrigin;
  readonly sessionId: string;
  /** Aborted on timeout, cancellation or session close. Tools must honour it. */
  readonly abortSignal: AbortSignal;
  /** The session's workspace. Tools never touch `node:fs` or processes directly. */
  readonly workspace: WorkspaceBackend;
  /** Governed nested calls: the only way to call another tool from inside a tool. */
  readonly runtime: InvocationRuntime;
  /** Names of the enclosing tool invocations, outermost first (recursion guard input). */
  readonly ancestry: readonly string[];
  /** Session services; empty unless the host wired some. */
  readonly services: ToolServices;
  /** Streams partial output to hosts as a `tool_output_delta` event. */
  emitOutputDelta(text: string): void;
  /** Stores content as a session artifact and returns its URI (`a3s://tool-output/<tool>/<id>`). */
  storeArtifact(content: string, options?: { readonly mediaType?: string }): string;
  /**
   * True when the session's path deny rules (of this tool, or of `read`) refuse the
   * workspace-relative `path`. Tools that touch many files (search) drop such files from their
   * results. Absent, or always false, when nothing is denied (and for host-direct calls).
   */
  isPathDenied?(path: string): boolean;
  /**
   * The session's redaction of secrets. The kernel redacts every output again, but a tool that
   * CUTS text (a long line, a byte budget, a head/tail window) redacts first and cuts after, so a
   * secret straddling the cut cannot leak its visible half. Absent: no redaction.
   */
  redact?(text: string): string;
}

/**
 * A tool the model (or host, or a program) can call. Arguments are validated against
 * `parameters` by the kernel BEFORE anything else runs, so `execute` receives valid input.
 */
export interface Tool<TArgs = Record<string, unknown>> {
  /** Model-facing name (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  /** Model-facing description: what the tool does and when to use it. */
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  /** Workspace capabilities the tool needs; it is left off the surface when one is missing. */
  readonly requires?: readonly WorkspaceCapability[];
  /**
   * Marks orchestrating tools. The recursion guard rejects a `program` inside a `program` and a
   * `batch` inside a `batch`.
   */
  readonly orchestration?: 'program' | 'batch';
  /** Scheduling capabilities for these args; missing fields take the conservative default. */
  capabilities?(args: TArgs): Partial<ToolCapabilities>;
  /** What permission rule specifiers match against for these args. Default: `none`. */
  permissionTarget?(args: TArgs): PermissionTarget;
  /**
   * Tool-owned escalation: a reason to require confirmation even when policy allows.
   * A tool can only escalate to confirmation, never relax a decision.
   */
  escalate?(args: TArgs): string | undefined;
  /**
   * What approving this call unlocks beyond the call itself, in words, shown to the human with its
   * confirmation (`confirmation_required.notice`, `PendingConfirmation.notice`): `task` says which
   * subagent it starts and what that child may run without asking. Absent: nothing beyond the call.
   */
  confirmationNotice?(args: TArgs, services: ToolServices): string | undefined;
  /**
   * The deadline (ms) this call needs, e.g. `bash`: its `timeout` argument plus a drain margin.
   * `undefined` (or no method) means the session's `toolTimeoutMs` applies.
   */
  timeoutMs?(args: TArgs): number | undefined;
  /** Runs the call. Throwing is allowed: the kernel turns it into a typed failed result. */
  execute(args: TArgs, context: ToolContext): Promise<ToolOutput>;
}

/** The model-facing definition of a tool, as sent to providers. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** The model-facing definition of `tool`. */
export function toToolDefinition(tool: Tool<never>): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
