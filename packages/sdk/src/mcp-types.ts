// The MCP config and status data types as @a3s-lab/code declares them: its own copies, so that its
// published typings never name the optional @a3s-lab/code-mcp (which owns them; see
// docs/architecture/README.md section 6). src/index.test.ts fails the typecheck
// when a copy and the package's type stop being assignable to each other in both directions.

/** Starts the server as a child process and speaks MCP over its stdin/stdout. */
export interface McpStdioTransportConfig {
  /** Transport kind. */
  readonly type: 'stdio';
  /** Program to run (looked up on `PATH`). */
  readonly command: string;
  /** Arguments. Default `[]`. */
  readonly args?: readonly string[];
  /** Working directory of the server process. Default: the host process's. */
  readonly cwd?: string;
  /**
   * Host-only, `session.addMcp()`: run the server inside the OS sandbox (bubblewrap): the system
   * read-only, a private `/tmp`, the host's secrets hidden, its own user/pid/ipc namespaces, no
   * network unless `network: 'full'`, nothing writable but `allowWrite`. An unavailable sandbox
   * fails the call with `SANDBOX_UNAVAILABLE`. Default: not sandboxed.
   */
  readonly sandbox?: boolean | McpServerSandbox;
}

/** {@link McpStdioTransportConfig.sandbox} with settings. */
export interface McpServerSandbox {
  /** Default `none`. */
  readonly network?: 'none' | 'full';
  /** Absolute paths (or `~/...`) the server may write. Default none. */
  readonly allowWrite?: readonly string[];
  /** Paths hidden from the server besides the default deny-read list. */
  readonly denyRead?: readonly string[];
}

/** Speaks MCP Streamable HTTP to a URL (`http` is accepted as a synonym). */
export interface McpHttpTransportConfig {
  /** Transport kind (`http` is a synonym of `streamable-http`). */
  readonly type: 'http' | 'streamable-http';
  /** The MCP endpoint, `http://` or `https://`. */
  readonly url: string;
  /** Extra request headers (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How to reach an MCP server. */
export type McpTransportConfig = McpStdioTransportConfig | McpHttpTransportConfig;

/**
 * One MCP server, as given to `session.addMcp()` or declared as `mcp_servers "name" { ... }`.
 * Plain data; `@a3s-lab/code-mcp`, loaded on first use, validates it (`resolveMcpServerConfig`).
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
 * One MCP server of a session, as `session.mcps()` reports it. Plain data. The optional lists
 * are present only when not empty.
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
