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
  /**
   * What happens when the server changes its tools after they were accepted (a
   * `notifications/tools/list_changed` or a reconnect that lists a new or changed name,
   * description, input schema or annotations): `manual` (default) keeps the new and changed
   * tools off the surface, emits `mcp_tools_changed` and waits for
   * `session.acceptMcpToolChanges(name)`; `auto` accepts them at once (and still emits the event,
   * with `accepted: true`). The first listing is always accepted.
   */
  readonly acceptToolChanges?: 'auto' | 'manual';
}
