/**
 * The tools a server added, changed or removed since its definitions were last accepted (by
 * name, as the server calls them). Plain data, declared here like {@link McpServerStatus}.
 */
export interface McpToolChanges {
  /** Tools that were not in the accepted listing. */
  readonly added: readonly string[];
  /** Tools whose name, description, input schema or annotations differ from the accepted ones. */
  readonly changed: readonly string[];
  /** Tools of the accepted listing the server no longer lists. */
  readonly removed: readonly string[];
}

/**
 * A tool a server lists that is not on the session's surface, and why:
 * - `unusable_schema`: its input schema is not an object schema, too large, or has a pattern that
 *   can backtrack without bound;
 * - `name_clash`: its model-facing name is taken by another MCP tool (of this server or of
 *   another one, named in `clashesWith`) or by a tool of the session;
 * - `pending_change`: it is new or changed since the server's tools were accepted, and waits for
 *   `session.acceptMcpToolChanges(server)`.
 */
export interface McpLeftOutTool {
  /** The tool's name on the server. */
  readonly tool: string;
  /** Why it is left out. */
  readonly reason: 'unusable_schema' | 'name_clash' | 'pending_change';
  /** What happened, in words. */
  readonly message: string;
  /** For `name_clash`: the tool that holds the name (`server` null for a non-MCP session tool). */
  readonly clashesWith?: { readonly server: string | null; readonly tool: string };
}

/** A tool whose description had invisible characters (zero-width, bidi controls, Unicode tags) removed. */
export interface McpSanitizedTool {
  /** The tool's name on the server. */
  readonly tool: string;
  /** How many characters (code points) were removed. */
  readonly removedCharacters: number;
}

/**
 * One MCP server of a session, as `session.mcps()` reports it. Plain data (`@a3s-lab/code`
 * declares its own copy). The optional lists are present only when not empty.
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
  /** Tools of the server that are not offered, each with its reason. */
  readonly leftOut?: readonly McpLeftOutTool[];
  /** Changes since the accepted listing that wait for `session.acceptMcpToolChanges(name)`. */
  readonly pendingToolChanges?: McpToolChanges;
  /** Tools whose descriptions had invisible characters removed before the model saw them. */
  readonly sanitizedTools?: readonly McpSanitizedTool[];
}
