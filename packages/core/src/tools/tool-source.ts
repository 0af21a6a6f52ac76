import type { AgentEvent } from '../events/agent-event.js';
import type { AnyTool } from './tool-registry.js';

/**
 * The narrow seam through which a {@link ToolSource} reaches ONE live session's tool surface:
 * it can add and remove its own tools, nothing else. Calls of those tools still go through the
 * session's governed kernel like every other call.
 */
export interface ToolSurface {
  /** Id of the session this surface belongs to. */
  readonly sessionId: string;
  /** Adds a tool; throws CONFIG_ERROR on an invalid or already registered name. */
  register(tool: AnyTool): void;
  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean;
  /** True when a tool of that name is on the surface (from any source). */
  has(name: string): boolean;
  /**
   * Emits an event of the source on the session's stream (to the running run, else to the
   * session's subscribers), e.g. `mcp_tools_changed`. Optional: a surface without it drops them.
   */
  emit?(event: AgentEvent): void;
}

/** What a {@link ToolSource} keeps per session; closed when the session closes. */
export interface ToolSourceBinding {
  /** Releases what the source holds for this session (connections, processes). Idempotent. */
  close(): Promise<void>;
}

/**
 * A provider of tools beyond the built-ins (MCP servers, agent-directory tools, skills): the
 * agent attaches every source to each session it opens, and closes the binding with the session.
 */
export interface ToolSource {
  /** Name for diagnostics (`mcp`, `agent-dir`...). */
  readonly name: string;
  /** Registers the source's tools on a new session's surface and keeps them current. */
  attach(surface: ToolSurface): ToolSourceBinding;
}
