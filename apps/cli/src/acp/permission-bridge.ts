// The kernel's confirmation path over ACP: every `confirmation_required` of a session becomes a
// `session/request_permission` to the client (unless the session's mode or an "always" rule
// already decides), and the answer goes back through `session.confirmToolUse`.
import type { AgentEventOfType } from '@a3s-lab/code';
import type { PermissionOption, RequestPermissionResponse, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../permission-modes.js';
import { toolKind, toolLocations, toolTitle } from './tool-updates.js';

/** The options offered with every question. */
export const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow this tool in this session', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];

/** Tools `accept-edits` approves without asking. */
const EDIT_TOOLS = new Set(['write', 'edit', 'patch']);

/** What the bridge needs from its session and connection. */
export interface PermissionBridgeOptions {
  readonly sessionId: string;
  readonly workspace: string;
  readonly confirm: (confirmationId: string, approved: boolean, reason: string) => Promise<unknown>;
  /** Asks the client; rejects when the connection is gone. */
  readonly ask: (toolCall: ToolCallUpdate, options: readonly PermissionOption[], signal: AbortSignal) => Promise<RequestPermissionResponse>;
  /** The session's current mode. */
  readonly mode: () => PermissionMode;
  /** Writes a log line (stderr). */
  readonly log: (line: string) => void;
}

/**
 * Answers asks one at a time, in arrival order. "Allow always" is a session rule: later asks
 * for the same tool are approved without a question. A client that cannot answer (it
 * disconnected, the request failed, the turn was cancelled) rejects: nothing runs.
 */
export class PermissionBridge {
  /** Tools the client allowed for the rest of the session. */
  readonly allowed = new Set<string>();
  readonly #options: PermissionBridgeOptions;
  #queue: Promise<void> = Promise.resolve();
  #abort = new AbortController();

  constructor(options: PermissionBridgeOptions) {
    this.#options = options;
  }

  /** Queues the answer to a `confirmation_required` event. */
  handle(event: AgentEventOfType<'confirmation_required'>): void {
    this.#queue = this.#queue.then(() => this.#answer(event)).catch((error: unknown) => this.#options.log(`permission: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Abandons open questions (the turn was cancelled); later asks are asked again. */
  cancel(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** Resolves when every queued ask is answered. */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #answer(event: AgentEventOfType<'confirmation_required'>): Promise<void> {
    const { confirm } = this.#options;
    const confirmationId = event.payload.confirmation_id !== undefined && event.payload.confirmation_id.length > 0 ? event.payload.confirmation_id : event.toolId;
    const toolName = event.toolName;
    const mode = this.#options.mode();
    if (mode === 'yolo') return void (await confirm(confirmationId, true, 'approved by the yolo mode'));
    if (mode === 'plan') return void (await confirm(confirmationId, false, 'the plan mode runs only read-only tools'));
    if (mode === 'accept-edits' && EDIT_TOOLS.has(toolName)) return void (await confirm(confirmationId, true, 'approved by the accept-edits mode'));
    if (this.allowed.has(toolName)) return void (await confirm(confirmationId, true, `'${toolName}' is always allowed in this session`));
    const args = event.payload.args;
    const locations = toolLocations(this.#options.workspace, args);
    const toolCall: ToolCallUpdate = {
      toolCallId: event.toolId,
      title: toolTitle(toolName, args),
      kind: toolKind(toolName),
      status: 'pending',
      rawInput: args,
      ...(locations.length === 0 ? {} : { locations }),
    };
    let response: RequestPermissionResponse;
    try {
      response = await this.#options.ask(toolCall, PERMISSION_OPTIONS, this.#abort.signal);
    } catch (error) {
      this.#options.log(`permission request failed, rejecting ${toolName}: ${error instanceof Error ? error.message : String(error)}`);
      return void (await confirm(confirmationId, false, 'the client did not answer the permission request'));
    }
    const outcome = response.outcome;
    if (outcome.outcome !== 'selected') return void (await confirm(confirmationId, false, 'the permission request was cancelled'));
    if (outcome.optionId === 'allow_always') {
      this.allowed.add(toolName);
      return void (await confirm(confirmationId, true, `'${toolName}' allowed for this session`));
    }
    if (outcome.optionId === 'allow_once') return void (await confirm(confirmationId, true, 'approved by the user'));
    await confirm(confirmationId, false, 'rejected by the user');
  }
}
