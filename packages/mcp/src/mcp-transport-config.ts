// The transports of an MCP server config: plain data. `@a3s-lab/code` declares its own copies (its
// typings never name this optional package); a typecheck keeps the two assignable.

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
