import type { McpTransportConfig } from './mcp-transport-config.js';

/**
 * One MCP server, as given to `session.addMcp()` or declared as `mcp_servers "name" { ... }`.
 * Plain data, declared here so that `@a3s-lab/code`'s typings name it without the optional
 * `@a3s-lab/code-mcp`, which validates it (`resolveMcpServerConfig`) and re-exports it.
 */
export interface McpServerConfig {
  /**
   * Server name: the `<server>` of `mcp__<server>__<tool>`. 1-32 letters, digits, `_` or `-`,
   * without `__` (which separates the parts of a tool name).
   */
  readonly name: string;
  /** How to reach the server. */
  readonly transport: McpTransportConfig;
  /**
   * Environment variables of a stdio server, on top of the host's environment stripped of
   * secret-bearing names (like `bash`); pass secrets here on purpose. Rejected for HTTP.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Deadline in ms of connecting, of listing tools and of each tool call (the kernel ends a hung
   * call at it and cancels the request on the server). Default 60000 (`DEFAULT_MCP_TIMEOUT_MS`
   * of `@a3s-lab/code-mcp`); at most 3600000 (`MAX_MCP_TIMEOUT_MS`).
   */
  readonly timeoutMs?: number;
}
