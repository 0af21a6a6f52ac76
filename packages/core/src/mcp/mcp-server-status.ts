/**
 * One MCP server of a session, as `session.mcps()` reports it. Plain data, declared here so
 * that `@a3s-lab/code`'s typings name it without the optional `@a3s-lab/code-mcp` (which
 * re-exports it).
 */
export interface McpServerStatus {
  /** Server name. */
  readonly name: string;
  /** Whether the connection is up. */
  readonly connected: boolean;
  /** Tools of the server on the session's surface. */
  readonly toolCount: number;
  /** Why it is not connected, or which of its tools were left out. */
  readonly error?: string;
  /** `session`: added to this session; `global`: inherited from the agent's configuration. */
  readonly source: 'session' | 'global';
}
