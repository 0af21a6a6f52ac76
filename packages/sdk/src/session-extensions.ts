import { CodeError } from '@a3s-lab/code-core';
import type { ToolSourceBinding, ToolSurface } from '@a3s-lab/code-core';
import { loadMcp } from './load-mcp.js';
import type { SessionMcpBinding } from './session-mcp-binding.js';

/**
 * What the agent's tool sources keep for one SDK session: their bindings (closed with the
 * session) and the session's MCP binding — attached at open when the agent has global MCP
 * servers, else created on the first `addMcp()`, which is when `@a3s-lab/code-mcp` loads.
 */
export class SessionExtensions {
  readonly #surface: ToolSurface;
  readonly #bindings: ToolSourceBinding[];
  #mcp: SessionMcpBinding | null;
  #mcpLoading: Promise<SessionMcpBinding> | null = null;
  #closing: Promise<void> | null = null;

  constructor(surface: ToolSurface, bindings: readonly ToolSourceBinding[] = [], mcp: SessionMcpBinding | null = null) {
    this.#surface = surface;
    this.#bindings = [...bindings];
    this.#mcp = mcp;
  }

  /** The session's MCP binding, loading the MCP package and creating it when needed. */
  mcp(): Promise<SessionMcpBinding> {
    if (this.#closing !== null) return Promise.reject(new CodeError('SESSION_CLOSED', 'session is closed; MCP servers cannot be changed'));
    if (this.#mcp !== null) return Promise.resolve(this.#mcp);
    this.#mcpLoading ??= loadMcp().then((module) => {
      if (this.#closing !== null) throw new CodeError('SESSION_CLOSED', 'session is closed; MCP servers cannot be changed');
      const mcp = new module.SessionMcp(this.#surface);
      this.#mcp = mcp;
      this.#bindings.push(mcp);
      return mcp;
    });
    return this.#mcpLoading;
  }

  /** The MCP binding if one exists (no loading). */
  get currentMcp(): SessionMcpBinding | null {
    return this.#mcp;
  }

  /** Closes every binding (MCP clients, stdio server processes). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#mcpLoading?.catch(() => undefined);
      await Promise.all(this.#bindings.map((binding) => binding.close().catch(() => undefined)));
    })();
    return this.#closing;
  }
}
