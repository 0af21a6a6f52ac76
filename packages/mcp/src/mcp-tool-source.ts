import type { McpServerConfig } from './mcp-server-config.js';
import type { ToolSource, ToolSurface } from '@a3s-lab/code-core';
import { McpManager } from './mcp-manager.js';
import { SessionMcp } from './session-mcp.js';

/**
 * The agent-level MCP tool source: owns the global {@link McpManager} (the ACL's `mcp_servers`)
 * and attaches a {@link SessionMcp} to each session, which inherits the global servers read-only
 * and holds the session's own.
 */
export class McpToolSource implements ToolSource {
  /** Source name for diagnostics. */
  readonly name = 'mcp';
  /** The global servers; sessions never change them. */
  readonly global: McpManager;

  constructor(global: McpManager = new McpManager()) {
    this.global = global;
  }

  /**
   * A source whose global manager has connected every server of `configs` (in parallel). A server
   * that cannot be reached does not fail this: it is kept with `connected: false` and its error.
   */
  static async create(configs: readonly McpServerConfig[]): Promise<McpToolSource> {
    const global = new McpManager();
    await global.addAll(configs);
    return new McpToolSource(global);
  }

  /** A new session's MCP binding: the global tools now, its own servers as it adds them. */
  attach(surface: ToolSurface): SessionMcp {
    return new SessionMcp(surface, this.global);
  }

  /** Closes the global servers. */
  close(): Promise<void> {
    return this.global.close();
  }
}
