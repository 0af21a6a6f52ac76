import { CodeError } from '@a3s-lab/code-core';
import type { Attachment, EventStream, SendRequest, SendResult } from '@a3s-lab/code-core';
import type { McpServerConfig, McpTransportConfig } from './mcp-types.js';
import type { GitOptions } from './session-helper-options.js';
import type { ToolResult } from './tool-result-view.js';

/** The `git` helper's subcommands. */
type GitCommand = GitOptions['command'];

/**
 * The compatibility names the spec keeps (the original package's forms), all in one place: each
 * is one call of the session's own method. `Session` extends this class (through
 * `SessionFeatureCalls`); hosts use `Session`.
 */
export abstract class SessionAliases {
  abstract get id(): string;
  abstract get closed(): boolean;
  abstract send(request: string | SendRequest, attachments?: readonly Attachment[]): Promise<SendResult>;
  abstract stream(request: string | SendRequest, attachments?: readonly Attachment[]): Promise<EventStream<SendResult>>;
  abstract git(command: GitCommand, options?: Record<string, unknown>): Promise<ToolResult>;
  abstract addMcp(config: McpServerConfig): Promise<number>;
  abstract closeAsync(): Promise<void>;
  /** Starts cancelling the running run without waiting; `true` when one was running. */
  protected abstract cancelRunning(): boolean;

  /** Session id (the original package's name for {@link id}). */
  get sessionId(): string {
    return this.id;
  }

  /** Compatibility alias of `send(prompt, attachments)`. */
  sendWithAttachments(prompt: string, attachments: readonly Attachment[]): Promise<SendResult> {
    return this.send(prompt, attachments);
  }

  /** Compatibility alias of `stream(prompt, attachments)`. */
  streamWithAttachments(prompt: string, attachments: readonly Attachment[]): Promise<EventStream<SendResult>> {
    return this.stream(prompt, attachments);
  }

  /** Compatibility alias of `send` with the object form. */
  sendRequest(request: SendRequest): Promise<SendResult> {
    return this.send(request);
  }

  /** Compatibility alias of `stream` with the object form. */
  streamRequest(request: SendRequest): Promise<EventStream<SendResult>> {
    return this.stream(request);
  }

  /** Compatibility alias of the positional `git` form. */
  async gitCommand(command: GitCommand, options: Record<string, unknown> = {}): Promise<ToolResult> {
    return this.git(command, options);
  }

  /**
   * Compatibility form of `addMcp`: `addMcpServer(config)` or positional
   * `addMcpServer(name, transport, env?, timeoutMs?)`.
   */
  async addMcpServer(nameOrConfig: string | McpServerConfig, transport?: McpTransportConfig, env?: Readonly<Record<string, string>>, timeoutMs?: number): Promise<number> {
    if (typeof nameOrConfig !== 'string') return this.addMcp(nameOrConfig);
    if (transport === undefined) throw new CodeError('CONFIG_ERROR', `addMcpServer('${nameOrConfig}', transport, env?, timeoutMs?) needs a transport`, { details: { field: 'transport' } });
    return this.addMcp({ name: nameOrConfig, transport, ...(env === undefined ? {} : { env }), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }

  /** Compatibility alias of `addMcp`. */
  async addMcpServerConfig(config: McpServerConfig): Promise<number> {
    return this.addMcp(config);
  }

  /**
   * Compatibility: starts cancelling the running operation without waiting; `true` when one was
   * running (like `cancelRun`). Prefer `cancelAsync`.
   */
  cancel(): boolean {
    return this.cancelRunning();
  }

  /** Compatibility: starts closing without waiting. Prefer `closeAsync`. */
  close(): void {
    void this.closeAsync();
  }

  /** True once the session is closed (the original package's form of `closed`). */
  isClosed(): boolean {
    return this.closed;
  }
}
