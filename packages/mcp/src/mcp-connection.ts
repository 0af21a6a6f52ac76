import { CodeError } from '@a3s-lab/code-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { mcpError } from './mcp-error.js';
import type { ResolvedMcpServerConfig } from './mcp-server-config.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

/** Most `tools/list` pages followed for one listing (a server that never ends its cursor chain stops here). */
export const MAX_TOOL_LIST_PAGES = 100;
/** How many times one connection reconnects after dropping, over its whole life. */
export const MAX_MCP_RECONNECTS = 3;

/** Where a connection is in its life. */
export type McpConnectionState = 'connecting' | 'connected' | 'disconnected' | 'failed' | 'closed';

/** The status of one server, as `mcps()` reports it. */
export interface McpConnectionStatus {
  /** Server name. */
  readonly name: string;
  /** Whether the connection is up. */
  readonly connected: boolean;
  /** Tools of the last successful listing. */
  readonly toolCount: number;
  /** Why it is not connected (or why it dropped last). */
  readonly error?: string;
}

const CLIENT_INFO = { name: 'a3s-code', version: '0.1.0' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One client connection to one MCP server (the real `@modelcontextprotocol/sdk` `Client`): connects
 * and lists tools (following `nextCursor`), refreshes the list on `notifications/tools/list_changed`,
 * calls tools with cancellation (an abort sends `notifications/cancelled`), and after a drop
 * reconnects once on the next call — or fails fast with `MCP_ERROR` when that fails.
 */
export class McpConnection {
  /** The validated config it connects with. */
  readonly config: ResolvedMcpServerConfig;
  readonly #onToolsChanged: () => void;
  #client: Client | null = null;
  #transport: Transport | null = null;
  #state: McpConnectionState = 'connecting';
  #error: string | undefined;
  #tools: readonly McpToolDefinition[] = [];
  #firstTools: readonly McpToolDefinition[] | null = null;
  #reconnects = 0;
  #connecting: Promise<void> | null = null;
  #refreshing: Promise<void> = Promise.resolve();

  /** `onToolsChanged` runs after the tool list changed (a server notification or a reconnect). */
  constructor(config: ResolvedMcpServerConfig, onToolsChanged: () => void = () => undefined) {
    this.config = config;
    this.#onToolsChanged = onToolsChanged;
  }

  /** The server's name. */
  get name(): string {
    return this.config.name;
  }

  /** Where the connection is in its life. */
  get state(): McpConnectionState {
    return this.#state;
  }

  /** The tools of the last successful listing, in the server's order. */
  get tools(): readonly McpToolDefinition[] {
    return this.#tools;
  }

  /**
   * The underlying `@modelcontextprotocol/sdk` Client while connected, else `null`. For
   * diagnostics and benchmarks: calls made on it bypass the kernel (no permission, hooks,
   * timeouts or redaction).
   */
  get client(): Client | null {
    return this.#client;
  }

  /**
   * The tools of the first successful listing (`null` before one): the definitions accepted
   * when the server was added, against which later listings are compared.
   */
  get firstTools(): readonly McpToolDefinition[] | null {
    return this.#firstTools;
  }

  /** Pid of a stdio server process, while it runs. */
  get pid(): number | undefined {
    return this.#transport instanceof StdioProcessTransport ? this.#transport.pid : undefined;
  }

  /** Name, whether connected, how many tools it listed, and the last error. */
  status(): McpConnectionStatus {
    return { name: this.name, connected: this.#state === 'connected', toolCount: this.#tools.length, ...(this.#error === undefined ? {} : { error: this.#error }) };
  }

  /**
   * Connects and lists the tools. Rejects with `MCP_ERROR` (`connect_failed`, `list_failed`,
   * `timeout`) and leaves the connection `failed` with the error in {@link status}.
   */
  connect(): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(mcpError('closed', this.name, 'connection is closed'));
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    this.#state = 'connecting';
    const transport = this.#createTransport();
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onerror = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#refreshing = this.#refreshing.then(() => this.#refreshTools(client)).catch(() => undefined);
    });
    const timeout = this.config.timeoutMs;
    try {
      await client.connect(transport, { timeout });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw this.#fail(mcpError(this.#isTimeout(error) ? 'timeout' : 'connect_failed', this.name, `cannot connect: ${this.#describe(error, transport)}`, { cause: error }));
    }
    let tools: McpToolDefinition[];
    try {
      tools = await this.#listAll(client);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw this.#fail(mcpError(this.#isTimeout(error) ? 'timeout' : 'list_failed', this.name, `tools/list failed: ${this.#describe(error, transport)}`, { cause: error }));
    }
    if ((this.#state as McpConnectionState) === 'closed') {
      await client.close().catch(() => undefined);
      throw mcpError('closed', this.name, 'connection was closed while connecting');
    }
    this.#client = client;
    this.#transport = transport;
    this.#tools = tools;
    this.#firstTools ??= tools;
    this.#state = 'connected';
    this.#error = undefined;
    client.onclose = () => {
      if (this.#client !== client || this.#state === 'closed') return;
      this.#client = null;
      this.#state = 'disconnected';
      this.#error = `disconnected: ${this.#describe(new Error('connection closed'), transport)}`;
    };
  }

  #createTransport(): Transport {
    const transport = this.config.transport;
    if (transport.type === 'stdio') {
      return new StdioProcessTransport({ command: transport.command, args: transport.args ?? [], ...(transport.cwd === undefined ? {} : { cwd: transport.cwd }), env: this.config.env });
    }
    return new StreamableHTTPClientTransport(new URL(transport.url), {
      requestInit: { headers: { ...transport.headers } },
      // Never follow a redirect to another origin: it would carry our headers (tokens) away.
      redirectPolicy: 'same-origin',
    });
  }

  async #listAll(client: Client): Promise<McpToolDefinition[]> {
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_LIST_PAGES; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.config.timeoutMs });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
    }
    throw new Error(`the server kept returning a nextCursor after ${MAX_TOOL_LIST_PAGES} pages`);
  }

  async #refreshTools(client: Client): Promise<void> {
    if (this.#client !== client) return;
    const tools = await this.#listAll(client);
    if (this.#client !== client) return;
    this.#tools = tools;
    this.#onToolsChanged();
  }

  /**
   * Calls `tool`. Resolves with the server's result (also when it has `isError`); rejects with
   * `MCP_ERROR` whose `details.errorKind` says how the call failed (`transport` when the server
   * dropped, `timeout`), or with the abort when `signal` aborted (the server is sent
   * `notifications/cancelled`).
   */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    // The connected case skips the async readiness path (one call's worth of extra ticks).
    const client = this.#state === 'connected' && this.#client !== null && this.#connecting === null ? this.#client : await this.#ready(tool);
    const transport = this.#transport;
    try {
      // The SDK's own timeout sits just past the kernel's deadline, which should fire first.
      return (await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, { signal, timeout: this.config.timeoutMs + 1000 })) as CallToolResult;
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        throw mcpError('disconnected', this.name, `connection lost during '${tool}': ${this.#describe(error, transport)}`, { cause: error, errorKind: { type: 'transport', op: `mcp:${this.name}/${tool}`, message: 'connection lost' } });
      }
      if (this.#isTimeout(error)) {
        throw mcpError('timeout', this.name, `'${tool}' did not answer within ${this.config.timeoutMs} ms`, { cause: error, errorKind: { type: 'timeout', op: `mcp:${this.name}/${tool}`, duration_ms: this.config.timeoutMs } });
      }
      if (error instanceof McpError) {
        const kind = error.code === ErrorCode.InvalidParams ? { type: 'invalid_argument' as const, message: error.message } : error.code === ErrorCode.MethodNotFound ? { type: 'unsupported' as const, message: error.message } : undefined;
        throw mcpError('protocol', this.name, `'${tool}' failed: ${error.message}`, { cause: error, ...(kind === undefined ? {} : { errorKind: kind }), details: { rpcCode: error.code } });
      }
      // Anything else failed below JSON-RPC: the pipe, or an HTTP request (refused connection, a
      // lost HTTP session). An HTTP transport does not close itself on such failures, so the
      // connection is dropped here and the next call reconnects once.
      if (this.#state === 'connected' && this.#client === client) this.#drop(client, `disconnected: ${messageOf(error)}`);
      throw mcpError('disconnected', this.name, `connection lost during '${tool}': ${this.#describe(error, transport)}`, { cause: error, errorKind: { type: 'transport', op: `mcp:${this.name}/${tool}`, message: 'connection lost' } });
    }
  }

  #drop(client: Client, error: string): void {
    this.#client = null;
    this.#state = 'disconnected';
    this.#error = error;
    void client.close().catch(() => undefined);
  }

  async #ready(tool: string): Promise<Client> {
    if (this.#connecting !== null) await this.#connecting.catch(() => undefined);
    if (this.#state === 'connected' && this.#client !== null) return this.#client;
    const op = `mcp:${this.name}/${tool}`;
    if (this.#state === 'closed') throw mcpError('closed', this.name, 'connection is closed', { errorKind: { type: 'transport', op, message: 'closed' } });
    if (this.#state === 'disconnected' && this.#reconnects < MAX_MCP_RECONNECTS) {
      this.#reconnects += 1;
      const before = this.#tools;
      try {
        await this.connect();
      } catch (error) {
        throw mcpError('unavailable', this.name, `reconnecting failed: ${CodeError.isInstance(error) ? error.message : messageOf(error)}`, { cause: error, errorKind: { type: 'transport', op, message: 'reconnect failed' } });
      }
      if (before !== this.#tools) this.#onToolsChanged();
      if (this.#client !== null) return this.#client;
    }
    throw mcpError('unavailable', this.name, `server is unavailable (${this.#error ?? 'not connected'}); remove it and add it again`, { errorKind: { type: 'transport', op, message: 'unavailable' } });
  }

  /** Closes the client and ends a stdio server's process group. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const client = this.#client;
    this.#client = null;
    await this.#connecting?.catch(() => undefined);
    await client?.close().catch(() => undefined);
    await this.#transport?.close().catch(() => undefined);
  }

  #fail(error: CodeError): CodeError {
    if (this.#state !== 'closed') this.#state = 'failed';
    this.#error = error.message;
    return error;
  }

  #isTimeout(error: unknown): boolean {
    return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
  }

  #describe(error: unknown, transport: Transport | null): string {
    let message = messageOf(error);
    if (transport instanceof StdioProcessTransport) {
      const exit = transport.exit;
      if (exit !== null) message += ` (server process exited with ${exit.signal ?? `code ${String(exit.code)}`})`;
      const stderr = transport.stderrTail.trim();
      if (stderr.length > 0) message += `; stderr: ${stderr.slice(-512)}`;
    }
    return message;
  }
}
