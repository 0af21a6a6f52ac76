import { CodeError } from '@a3s-lab/code-core';
import type { ToolSource, ToolSourceBinding, ToolSurface } from '@a3s-lab/code-core';
import type { AgentSession } from '@a3s-lab/code-runtime';
import { loadMcp } from './load-mcp.js';
import type { McpServerConfig, McpServerStatus, McpToolChanges } from './mcp-types.js';
import type { McpToolSourceHandle } from './mcp-tool-source-handle.js';
import type { SessionMcpBinding } from './session-mcp-binding.js';
import { sandboxMcpTransport } from './session-sandbox.js';
import { sessionToolSurface } from './session-tool-surface.js';

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

  /** Connects a session MCP server (`Session.addMcp`); a stdio server with `transport.sandbox` starts inside bubblewrap (host-only). */
  async addMcp(config: McpServerConfig): Promise<number> {
    return (await this.mcp()).addMcp(await sandboxMcpTransport(config));
  }

  /** Disconnects a session MCP server (`Session.removeMcp`): false without one; SESSION_CLOSED when there is no binding and the session is closed. */
  removeMcp(name: string, sessionClosed: boolean): Promise<boolean> {
    if (this.#mcp === null) {
      if (sessionClosed) throw closedError();
      return Promise.resolve(false);
    }
    return this.#mcp.removeMcp(name);
  }

  /** Every MCP server the session sees (`Session.mcps`); none before a binding exists. */
  mcps(): McpServerStatus[] {
    return this.#mcp?.mcps() ?? [];
  }

  /** Accepts a server's pending tool changes (`Session.acceptMcpToolChanges`): MCP_ERROR `unknown_server` without a binding, SESSION_CLOSED when the session is closed. */
  acceptMcpToolChanges(name: string, sessionClosed: boolean): McpToolChanges | null {
    if (this.#mcp === null) {
      if (sessionClosed) throw closedError();
      throw new CodeError('MCP_ERROR', `MCP server '${name}': this session has no MCP server of that name`, { details: { reason: 'unknown_server', server: name } });
    }
    return this.#mcp.acceptMcpToolChanges(name);
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

function closedError(): CodeError {
  return new CodeError('SESSION_CLOSED', 'session is closed; MCP servers cannot be changed');
}

/**
 * Attaches an agent's tool sources to a new session's surface: the host's `sources`, then the
 * config's global MCP servers (`mcp`, null when the session does not inherit them). A source that
 * fails to attach closes what was attached and the core session, then rethrows.
 */
export function attachToolSources(core: AgentSession, sources: readonly ToolSource[], globalMcp: McpToolSourceHandle | null): SessionExtensions {
  const surface = sessionToolSurface(core);
  const bindings: ToolSourceBinding[] = [];
  try {
    for (const source of sources) bindings.push(source.attach(surface));
    const mcp = globalMcp?.attach(surface) ?? null;
    if (mcp !== null) bindings.push(mcp);
    return new SessionExtensions(surface, bindings, mcp);
  } catch (error) {
    // A source that fails to attach must not leave a half-built session (or its servers) behind.
    for (const binding of bindings) void binding.close().catch(() => undefined);
    void core.close();
    throw error;
  }
}
