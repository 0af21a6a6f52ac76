import type { AnyTool } from '@a3s-lab/code-core';
import type { McpLeftOutTool, McpSanitizedTool, McpToolChanges } from './mcp-server-status.js';
import type { McpServerConfig } from './mcp-server-config.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { McpConnection } from './mcp-connection.js';
import type { McpConnectionStatus } from './mcp-connection.js';
import { mcpError } from './mcp-error.js';
import { resolveMcpServerConfig } from './mcp-server-config.js';
import { createMcpTool, sanitizeDescription, unusableSchemaReason } from './mcp-tool.js';
import { assignMcpToolNames, mcpToolName } from './mcp-tool-name.js';
import { McpToolPins, hashesOf } from './mcp-tool-pins.js';
import type { McpToolChangeRecord } from './mcp-tool-pins.js';

/** The kernel tools of one server, and the tools it offered that could not be used. */
export interface McpServerTools {
  /** The tools that may be offered (accepted definitions only). */
  readonly tools: readonly AnyTool[];
  /** `tool: reason` for each tool left out (colliding name, unusable schema, change waiting for acceptance). */
  readonly skipped: readonly string[];
  /** The same tools, with typed reasons. */
  readonly leftOut: readonly McpLeftOutTool[];
  /** Model-facing name -> the server's name, for every tool of {@link tools}. */
  readonly serverNames: ReadonlyMap<string, string>;
  /** Tools whose descriptions had invisible characters removed. */
  readonly sanitized: readonly McpSanitizedTool[];
  /** Changes since the accepted listing that wait for {@link McpManager.acceptToolChanges}; null when none. */
  readonly pending: McpToolChanges | null;
  /** The latest change of the server's tools (pending or auto-accepted), for `mcp_tools_changed`; null before any. */
  readonly lastChange: McpToolChangeRecord | null;
}

/** The tools built from one listing: every usable tool, before the acceptance gate. */
interface BuiltListing {
  readonly tools: readonly { readonly tool: AnyTool; readonly serverName: string }[];
  readonly leftOut: readonly McpLeftOutTool[];
  readonly sanitized: readonly McpSanitizedTool[];
  /** The server's name -> hash of its definition, for every tool of the listing. */
  readonly hashes: ReadonlyMap<string, string>;
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
  readonly #toolCache = new WeakMap<readonly McpToolDefinition[], BuiltListing>();
  readonly #pins = new McpToolPins();
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

  /**
   * The kernel tools of server `name` (empty for an unknown or never-connected server). Tools
   * are pinned when first accepted (the first listing; then {@link acceptToolChanges} or a
   * server with `acceptToolChanges: 'auto'`): a tool that is new or whose definition changed
   * since (name, description, input schema, annotations: see `mcpToolDefinitionHash`) is
   * left out as `pending_change` until the change is accepted.
   */
  toolsOf(name: string): McpServerTools {
    const connection = this.#connections.get(name);
    if (connection === undefined) return { tools: [], skipped: [], leftOut: [], serverNames: new Map(), sanitized: [], pending: null, lastChange: null };
    const listing = connection.tools;
    const built = this.#build(connection, listing);
    const state = this.#pins.compare(connection, listing, built.hashes);
    const held = new Set([...(state.pending?.added ?? []), ...(state.pending?.changed ?? [])]);
    const leftOut: McpLeftOutTool[] = [...built.leftOut];
    const tools: AnyTool[] = [];
    const serverNames = new Map<string, string>();
    for (const entry of built.tools) {
      if (held.has(entry.serverName)) {
        const kind = state.pending?.added.includes(entry.serverName) === true ? 'is new' : 'changed';
        leftOut.push({ tool: entry.serverName, reason: 'pending_change', message: `its definition ${kind} since the server's tools were accepted; accept it with session.acceptMcpToolChanges('${name}')` });
        continue;
      }
      tools.push(entry.tool);
      serverNames.set(entry.tool.name, entry.serverName);
    }
    return { tools, skipped: leftOut.map((entry) => `${entry.tool}: ${entry.message}`), leftOut, serverNames, sanitized: built.sanitized, pending: state.pending, lastChange: state.lastChange };
  }

  /**
   * Accepts the current tools of server `name`: they become its pinned definitions and the tools
   * held as `pending_change` are offered (sessions update at once). Resolves with what was
   * accepted (null when nothing was pending). An accepted change of a global server is accepted
   * for every session of the agent.
   *
   * @throws CodeError MCP_ERROR `unknown_server` when there is no server of that name.
   */
  acceptToolChanges(name: string): McpToolChanges | null {
    const connection = this.#connections.get(name);
    if (connection === undefined) throw mcpError('unknown_server', name, 'no MCP server of that name');
    const listing = connection.tools;
    const accepted = this.#pins.accept(connection, listing, this.#build(connection, listing).hashes);
    if (accepted !== null) this.#notify();
    return accepted;
  }

  #build(connection: McpConnection, listing: readonly McpToolDefinition[]): BuiltListing {
    let built = this.#toolCache.get(listing);
    if (built !== undefined) return built;
    const usable: McpToolDefinition[] = [];
    const leftOut: McpLeftOutTool[] = [];
    for (const definition of listing) {
      const reason = unusableSchemaReason(definition);
      if (reason === null) usable.push(definition);
      else leftOut.push({ tool: definition.name, reason: 'unusable_schema', message: reason });
    }
    const naming = assignMcpToolNames(connection.name, usable.map((definition) => definition.name));
    const byName = new Map(usable.map((definition) => [definition.name, definition]));
    for (const tool of naming.collisions) {
      const name = naming.names.get(mcpToolName(connection.name, tool));
      leftOut.push({ tool, reason: 'name_clash', message: `its tool name collides with another tool of the server${name === undefined ? '' : ` ('${name}')`}`, ...(name === undefined ? {} : { clashesWith: { server: connection.name, tool: name } }) });
    }
    const sanitized: McpSanitizedTool[] = [];
    const tools = [...naming.names].map(([toolName, serverName]) => {
      const definition = byName.get(serverName)!;
      const description = sanitizeDescription(definition.description, connection.name, serverName);
      if (description.removed > 0) sanitized.push({ tool: serverName, removedCharacters: description.removed });
      return { tool: createMcpTool(connection, definition, toolName, description.text), serverName };
    });
    built = { tools, leftOut, sanitized, hashes: hashesOf(listing) };
    this.#toolCache.set(listing, built);
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
