import type { AnyTool, McpServerConfig } from '@a3s-lab/code-core';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { McpConnection } from './mcp-connection.js';
import type { McpConnectionStatus } from './mcp-connection.js';
import { mcpError } from './mcp-error.js';
import { resolveMcpServerConfig } from './mcp-server-config.js';
import { createMcpTool, unusableSchemaReason } from './mcp-tool.js';
import { assignMcpToolNames } from './mcp-tool-name.js';

/** The kernel tools of one server, and the tools it offered that could not be used. */
export interface McpServerTools {
  readonly tools: readonly AnyTool[];
  /** `tool: reason` for each tool left out (colliding name, unusable schema). */
  readonly skipped: readonly string[];
}

/**
 * A set of MCP server connections by name: the agent's global one (from the ACL's
 * `mcp_servers`, inherited read-only by every session) or a session's own. Builds each server's
 * kernel tools once per tool listing, so sessions share tool objects (and the kernel's compiled
 * validators) and a `tools/list_changed` rebuilds only that server's tools.
 */
export class McpManager {
  readonly #connections = new Map<string, McpConnection>();
  readonly #listeners = new Set<() => void>();
  readonly #toolCache = new WeakMap<readonly McpToolDefinition[], McpServerTools>();
  #closed = false;

  /**
   * Validates `config`, connects and lists the server's tools, then keeps the connection.
   * Rejects with CONFIG_ERROR for a bad config, with MCP_ERROR `duplicate_server` when the name
   * is taken, and with MCP_ERROR when connecting fails (nothing is kept then).
   */
  async add(config: McpServerConfig): Promise<McpConnection> {
    const resolved = resolveMcpServerConfig(config);
    this.#checkOpen(resolved.name);
    if (this.#connections.has(resolved.name)) throw mcpError('duplicate_server', resolved.name, 'a server of that name is already added; remove it first');
    const connection = new McpConnection(resolved, () => this.#notify());
    // Reserved while connecting, so two concurrent adds of one name cannot both succeed.
    this.#connections.set(resolved.name, connection);
    try {
      await connection.connect();
    } catch (error) {
      this.#connections.delete(resolved.name);
      await connection.close();
      throw error;
    }
    if (this.#closed) {
      await connection.close();
      throw mcpError('closed', resolved.name, 'the MCP manager was closed while the server connected');
    }
    this.#notify();
    return connection;
  }

  /**
   * Connects every server of `configs` in parallel and keeps them ALL, also the ones that failed
   * (they report `connected: false` and their error in {@link statuses}; calls to their tools fail
   * with MCP_ERROR). For configured servers, where one server being down must not stop the
   * agent. Rejects only with CONFIG_ERROR for an invalid config or a repeated name.
   */
  async addAll(configs: readonly McpServerConfig[]): Promise<void> {
    const resolved = configs.map((config) => resolveMcpServerConfig(config));
    const names = new Set<string>();
    for (const config of resolved) {
      this.#checkOpen(config.name);
      if (names.has(config.name) || this.#connections.has(config.name)) throw mcpError('duplicate_server', config.name, 'declared twice');
      names.add(config.name);
    }
    const connections = resolved.map((config) => new McpConnection(config, () => this.#notify()));
    for (const connection of connections) this.#connections.set(connection.name, connection);
    await Promise.all(connections.map((connection) => connection.connect().catch(() => undefined)));
    this.#notify();
  }

  /** Disconnects and forgets server `name`; false when there is none. */
  async remove(name: string): Promise<boolean> {
    const connection = this.#connections.get(name);
    if (connection === undefined) return false;
    this.#connections.delete(name);
    await connection.close();
    this.#notify();
    return true;
  }

  /** The connection named `name`, or `null`. */
  get(name: string): McpConnection | null {
    return this.#connections.get(name) ?? null;
  }

  /** Server names in the order they were added. */
  names(): string[] {
    return [...this.#connections.keys()];
  }

  /** Status of every server, in the order they were added. */
  statuses(): McpConnectionStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status());
  }

  /** The kernel tools of server `name` (empty for an unknown or never-connected server). */
  toolsOf(name: string): McpServerTools {
    const connection = this.#connections.get(name);
    if (connection === undefined) return { tools: [], skipped: [] };
    const listing = connection.tools;
    let built = this.#toolCache.get(listing);
    if (built === undefined) {
      const usable: McpToolDefinition[] = [];
      const skipped: string[] = [];
      for (const definition of listing) {
        const reason = unusableSchemaReason(definition);
        if (reason === null) usable.push(definition);
        else skipped.push(`${definition.name}: ${reason}`);
      }
      const naming = assignMcpToolNames(name, usable.map((definition) => definition.name));
      for (const tool of naming.collisions) skipped.push(`${tool}: its tool name collides with another tool of the server`);
      const byName = new Map(usable.map((definition) => [definition.name, definition]));
      const tools = [...naming.names].map(([toolName, mcpName]) => createMcpTool(connection, byName.get(mcpName)!, toolName));
      built = { tools, skipped };
      this.#toolCache.set(listing, built);
    }
    return built;
  }

  /** Runs `listener` after a server is added or removed, or changes its tools. Returns an unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes every connection (stdio servers' process groups end). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
    this.#listeners.clear();
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#closed;
  }

  #checkOpen(name: string): void {
    if (this.#closed) throw mcpError('closed', name, 'the MCP manager is closed');
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // One subscriber's failure must not keep the others stale.
      }
    }
  }
}
