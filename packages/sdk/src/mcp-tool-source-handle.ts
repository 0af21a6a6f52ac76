import type { ToolSurface } from '@a3s-lab/code-core';

import type { SessionMcpBinding } from './session-mcp-binding.js';

/**
 * What the SDK uses of the agent-level MCP tool source (`McpToolSource` of the optional
 * `@a3s-lab/code-mcp`), typed structurally: the config's global servers, attached to each session.
 */
export interface McpToolSourceHandle {
  /** A new session's MCP binding: the global tools now, its own servers as it adds them. */
  attach(surface: ToolSurface): SessionMcpBinding;
  /** Closes the global servers. */
  close(): Promise<void>;
}
