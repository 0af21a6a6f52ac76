import { CodeError, createAgentEvent } from '@a3s-lab/code-core';
import type { AnyTool, ToolSourceBinding, ToolSurface } from '@a3s-lab/code-core';
import type { McpLeftOutTool, McpSanitizedTool, McpServerStatus, McpToolChanges } from './mcp-server-status.js';
import type { McpServerConfig } from './mcp-server-config.js';
import { mcpError } from './mcp-error.js';
import { McpManager } from './mcp-manager.js';
import type { McpServerTools } from './mcp-manager.js';

/**
 * The MCP part of ONE session's tool surface: the session's own servers (`addMcp`/`removeMcp`)
 * over the agent's global servers, which are inherited read-only. A session server with the same
 * name as a global one shadows it in this session only; removing the shadow brings the global
 * tools back. Sibling sessions and the global manager never change. Tool list changes of any
 * server (`notifications/tools/list_changed`, reconnects) are applied to the surface at once —
 * except new and changed tool definitions, which stay off the surface until accepted
 * ({@link acceptMcpToolChanges}, or a server with `acceptToolChanges: 'auto'`) and are reported
 * as an `mcp_tools_changed` event on the surface's `emit`. Two servers whose tools get the same
 * model-facing name (`x` + `_y` and `x_` + `y` both give `mcp__x___y`) never shadow each other
 * silently: the first keeps the name, the other is left out, and the status names both.
 */
export class SessionMcp implements ToolSourceBinding {
  readonly #surface: ToolSurface;
  readonly #global: McpManager | null;
  readonly #local = new McpManager();
  /** Tools this binding put on the surface, by name. */
  readonly #registered = new Map<string, AnyTool>();
  /** Per server: tools that could not be registered and why. */
  readonly #problems = new Map<string, McpLeftOutTool[]>();
  /** Per server: remarks about tools it keeps (a clash it won). */
  readonly #notes = new Map<string, string[]>();
  /** Per server: what it offers as seen at the last sync. */
  readonly #seen = new Map<string, McpServerTools>();
  /** Per `source/server`: the serial of the last tool change reported as an event. */
  readonly #reported = new Map<string, number>();
  readonly #unsubscribe: (() => void)[] = [];
  #closed = false;

  constructor(surface: ToolSurface, global: McpManager | null = null) {
    this.#surface = surface;
    this.#global = global;
    this.#unsubscribe.push(this.#local.subscribe(() => this.#sync()));
    if (global !== null) this.#unsubscribe.push(global.subscribe(() => this.#sync()));
    // Changes that happened before this session existed are in the statuses, not re-announced.
    this.#sync(false);
  }

  /**
   * Connects a session server, registers its tools as `mcp__<server>__<tool>` and returns how
   * many were registered. A global server of the same name is shadowed in this session.
   *
   * @throws CodeError CONFIG_ERROR (invalid config), MCP_ERROR (cannot connect or list tools; a
   *   session server of that name exists), SESSION_CLOSED (after close).
   */
  async addMcp(config: McpServerConfig): Promise<number> {
    this.#checkOpen();
    const connection = await this.#local.add(config);
    if (this.#closed) {
      await this.#local.close();
      throw new CodeError('SESSION_CLOSED', 'session closed while the MCP server connected');
    }
    return this.#countOf(connection.name);
  }

  /**
   * Disconnects and removes a session server and its tools (a shadowed global server's tools
   * come back). False when the session has no server of that name: global servers are
   * read-only and cannot be removed from a session.
   */
  async removeMcp(name: string): Promise<boolean> {
    this.#checkOpen();
    return this.#local.remove(name);
  }

  /**
   * Accepts the current tool definitions of server `name` (a session server, else the inherited
   * global one: then for every session of the agent): tools held back as new or changed since
   * the last acceptance go on the surface. Resolves with what was accepted, or null when nothing
   * was pending.
   *
   * @throws CodeError MCP_ERROR `unknown_server` (no such server), SESSION_CLOSED (after close).
   */
  acceptMcpToolChanges(name: string): McpToolChanges | null {
    this.#checkOpen();
    if (this.#local.get(name) !== null) return this.#local.acceptToolChanges(name);
    if (this.#global?.get(name) != null) return this.#global.acceptToolChanges(name);
    throw mcpError('unknown_server', name, 'this session has no MCP server of that name');
  }

  /**
   * The MCP tools this binding has on the session's surface, e.g. for a subagent of the session
   * (the objects are shared: calls go to the same connections, which the session owns).
   */
  tools(): AnyTool[] {
    return [...this.#registered.values()];
  }

  /** Every server visible to this session: its own, then the inherited ones it does not shadow. */
  mcps(): McpServerStatus[] {
    const statuses: McpServerStatus[] = [];
    const local = new Set(this.#local.names());
    for (const status of this.#local.statuses()) statuses.push(this.#status(status, 'session'));
    for (const status of this.#global?.statuses() ?? []) {
      if (!local.has(status.name)) statuses.push(this.#status(status, 'global'));
    }
    return statuses;
  }

  /** Closes the session's own servers and stops following the global ones. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.#local.close();
  }

  #status(status: { readonly name: string; readonly connected: boolean; readonly error?: string }, source: 'session' | 'global'): McpServerStatus {
    const leftOut = this.#problems.get(status.name) ?? [];
    const notes = this.#notes.get(status.name) ?? [];
    const seen = this.#seen.get(status.name);
    const sanitized: readonly McpSanitizedTool[] = seen?.sanitized ?? [];
    const pending = seen?.pending ?? null;
    const parts = [status.error, ...(leftOut.length === 0 ? [] : [`tools left out: ${leftOut.map((entry) => `${entry.tool}: ${entry.message}`).join('; ')}`]), ...notes];
    if (sanitized.length > 0) parts.push(`invisible characters removed from the descriptions of: ${sanitized.map((entry) => `${entry.tool} (${entry.removedCharacters})`).join(', ')}`);
    const error = parts.filter((part) => part !== undefined).join('; ');
    return {
      name: status.name,
      connected: status.connected,
      toolCount: this.#countOf(status.name),
      ...(error.length === 0 ? {} : { error }),
      source,
      ...(leftOut.length === 0 ? {} : { leftOut: leftOut.map((entry) => ({ ...entry })) }),
      ...(pending === null ? {} : { pendingToolChanges: { added: [...pending.added], changed: [...pending.changed], removed: [...pending.removed] } }),
      ...(sanitized.length === 0 ? {} : { sanitizedTools: sanitized.map((entry) => ({ ...entry })) }),
    };
  }

  #countOf(server: string): number {
    const prefix = `mcp__${server}__`;
    let count = 0;
    for (const [name, owner] of this.#owners) if (owner.server === server && name.startsWith(prefix)) count += 1;
    return count;
  }

  /** Which server and tool each registered name belongs to. */
  #owners = new Map<string, { readonly server: string; readonly tool: string }>();

  /**
   * Brings the surface in line with the servers: the desired tool set, minimal changes. Reports
   * each new change of a server's tools once, as `mcp_tools_changed` (unless `announce` is false).
   */
  #sync(announce = true): void {
    if (this.#closed) return;
    const desired = new Map<string, AnyTool>();
    const owners = new Map<string, { readonly server: string; readonly tool: string }>();
    this.#problems.clear();
    this.#notes.clear();
    this.#seen.clear();
    const changes: { server: string; source: 'session' | 'global'; added: string[]; changed: string[]; removed: string[]; accepted: boolean }[] = [];
    const local = new Set(this.#local.names());
    const servers: [string, McpManager, 'session' | 'global'][] = [...this.#local.names().map((name): [string, McpManager, 'session'] => [name, this.#local, 'session'])];
    for (const name of this.#global?.names() ?? []) if (!local.has(name)) servers.push([name, this.#global!, 'global']);
    for (const [name, manager, source] of servers) {
      const built = manager.toolsOf(name);
      this.#seen.set(name, built);
      const problems: McpLeftOutTool[] = [...built.leftOut];
      for (const tool of built.tools) {
        const serverTool = built.serverNames.get(tool.name) ?? tool.name;
        const owner = owners.get(tool.name);
        if (owner !== undefined) {
          problems.push({ tool: serverTool, reason: 'name_clash', message: `its name ${tool.name} is already taken by tool '${owner.tool}' of server '${owner.server}'`, clashesWith: { server: owner.server, tool: owner.tool } });
          const notes = this.#notes.get(owner.server) ?? [];
          notes.push(`tool '${owner.tool}' keeps the name ${tool.name}; tool '${serverTool}' of server '${name}' has the same name and is left out`);
          this.#notes.set(owner.server, notes);
        } else if (this.#surface.has(tool.name) && !this.#registered.has(tool.name)) {
          problems.push({ tool: serverTool, reason: 'name_clash', message: `${tool.name}: a tool of that name is already on the session`, clashesWith: { server: null, tool: tool.name } });
        } else {
          desired.set(tool.name, tool);
          owners.set(tool.name, { server: name, tool: serverTool });
        }
      }
      if (problems.length > 0) this.#problems.set(name, problems);
      const change = built.lastChange;
      const key = `${source}/${name}`;
      if (change !== null && change.serial > (this.#reported.get(key) ?? 0)) {
        this.#reported.set(key, change.serial);
        changes.push({ server: name, source, added: [...change.added], changed: [...change.changed], removed: [...change.removed], accepted: change.accepted });
      }
    }
    for (const [name, tool] of [...this.#registered]) {
      if (desired.get(name) === tool) continue;
      this.#surface.unregister(name);
      this.#registered.delete(name);
    }
    for (const [name, tool] of desired) {
      if (this.#registered.has(name)) continue;
      this.#surface.register(tool);
      this.#registered.set(name, tool);
    }
    this.#owners = owners;
    if (!announce) return;
    for (const change of changes) this.#surface.emit?.(createAgentEvent('mcp_tools_changed', change));
  }

  #checkOpen(): void {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'session is closed; MCP servers cannot be changed');
  }
}
