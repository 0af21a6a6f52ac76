import type { AnyTool, ToolSourceBinding } from '@a3s-lab/code-core';
import type { McpServerConfig, McpServerStatus, McpToolChanges } from './mcp-types.js';

/**
 * What the SDK uses of a session's MCP binding (`SessionMcp` of the optional
 * `@a3s-lab/code-mcp`), typed structurally so that no declaration of this package names the
 * optional package: its own servers over the agent's global ones.
 */
export interface SessionMcpBinding extends ToolSourceBinding {
  /** Connects a server for this session; resolves with how many of its tools were registered. */
  addMcp(config: McpServerConfig): Promise<number>;
  /** Disconnects a server this session added; false when it has none of that name. */
  removeMcp(name: string): Promise<boolean>;
  /** The MCP tools on the session's surface. */
  tools(): AnyTool[];
  /** The session's servers, then the inherited global ones it does not shadow. */
  mcps(): McpServerStatus[];
  /** Accepts the current tool definitions of a server; what was accepted, or null when nothing was pending. */
  acceptMcpToolChanges(name: string): McpToolChanges | null;
}
