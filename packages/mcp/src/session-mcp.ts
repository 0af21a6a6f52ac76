import { CodeError } from '@a3s-lab/code-core';
import type { AnyTool, McpServerConfig, McpServerStatus, ToolSourceBinding, ToolSurface } from '@a3s-lab/code-core';
import { McpManager } from './mcp-manager.js';

/**
 * The MCP part of ONE session's tool surface: the session's own servers (`addMcp`/`removeMcp`)
 * over the agent's global servers, which are inherited read-only. A session server with the same
 * name as a global one shadows it in this session only; removing the shadow brings the global
 * tools back. Sibling sessions and the global manager never change. Tool list changes of any
 * server (`notifications/tools/list_changed`, reconnects) are applied to the surface at once.
 */
export class SessionMcp implements ToolSourceBinding {
  readonly #surface: ToolSurface;
  readonly #global: McpManager | null;
  readonly #local = new McpManager();
  /** Tools this binding put on the surface, by name. */
  readonly #registered = new Map<string, AnyTool>();
  /** Per server: tools that could not be registered and why. */
  readonly #problems = new Map<string, string[]>();
  readonly #unsubscribe: (() => void)[] = [];
  #closed = false;

  constructor(surface: ToolSurface, global: McpManager | null = null) {
    this.#surface = surface;
    this.#global = global;
    this.#unsubscribe.push(this.#local.subscribe(() => this.#sync()));
    if (global !== null) this.#unsubscribe.push(global.subscribe(() => this.#sync()));
    this.#sync();
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
    const problems = this.#problems.get(status.name) ?? [];
    const error = [status.error, ...(problems.length === 0 ? [] : [`tools left out: ${problems.join('; ')}`])].filter((part) => part !== undefined).join('; ');
    return { name: status.name, connected: status.connected, toolCount: this.#countOf(status.name), ...(error.length === 0 ? {} : { error }), source };
  }

  #countOf(server: string): number {
    const prefix = `mcp__${server}__`;
    let count = 0;
    for (const name of this.#registered.keys()) if (name.startsWith(prefix)) count += 1;
    return count;
  }

  /** Brings the surface in line with the servers: the desired tool set, minimal changes. */
  #sync(): void {
    if (this.#closed) return;
    const desired = new Map<string, AnyTool>();
    this.#problems.clear();
    const local = new Set(this.#local.names());
    const servers: [string, McpManager][] = [...this.#local.names().map((name): [string, McpManager] => [name, this.#local])];
    for (const name of this.#global?.names() ?? []) if (!local.has(name)) servers.push([name, this.#global!]);
    for (const [name, manager] of servers) {
      const { tools, skipped } = manager.toolsOf(name);
      const problems = [...skipped];
      for (const tool of tools) {
        if (this.#surface.has(tool.name) && !this.#registered.has(tool.name)) problems.push(`${tool.name}: a tool of that name is already on the session`);
        else desired.set(tool.name, tool);
      }
      if (problems.length > 0) this.#problems.set(name, problems);
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
  }

  #checkOpen(): void {
    if (this.#closed) throw new CodeError('SESSION_CLOSED', 'session is closed; MCP servers cannot be changed');
  }
}
