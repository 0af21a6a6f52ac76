// One ACP session: our durable session, its permission mode, its confirmation bridge, and the
// prompt turn it runs (events streamed to the client as `session/update`).
import { CodeError } from '@a3s-lab/code';
import type { AgentEventOfType, Session } from '@a3s-lab/code';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ContentBlock, SessionModeState, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { PERMISSION_MODES } from '../permission-modes.js';
import type { PermissionMode } from '../permission-modes.js';
import { EventUpdates } from './event-updates.js';
import type { PermissionBridgeOptions } from './permission-bridge.js';
import { PermissionBridge } from './permission-bridge.js';
import { promptRequest } from './prompt-content.js';

/** Tools the `plan` mode lets run (everything else is blocked before it runs). */
const READ_ONLY_TOOLS = new Set(['read', 'ls', 'glob', 'grep', 'update_plan']);

const MODE_NAMES: Readonly<Record<PermissionMode, [string, string]>> = {
  default: ['Default', 'Read-only tools run; everything else asks'],
  'accept-edits': ['Accept edits', 'File edits run without asking; commands ask'],
  plan: ['Plan', 'Read-only tools only; nothing is changed or executed'],
  yolo: ['Yolo', 'Everything runs without asking'],
};

/** The mode state `session/new` and `session/load` report. */
export function modeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: PERMISSION_MODES.map((id) => ({ id, name: MODE_NAMES[id][0], description: MODE_NAMES[id][1] })) };
}

/** What the session sends to and asks of the client. */
export interface AcpSessionIo {
  readonly notify: (update: SessionUpdate) => Promise<void>;
  readonly ask: PermissionBridgeOptions['ask'];
  readonly log: (line: string) => void;
}

/** A session served over ACP. */
export class AcpSession {
  readonly session: Session;
  #mode: PermissionMode;
  readonly #io: AcpSessionIo;
  readonly #updates: EventUpdates;
  readonly #permissions: PermissionBridge;
  #running: Promise<StopReason> | null = null;
  #cancelled = false;

  constructor(session: Session, mode: PermissionMode, io: AcpSessionIo, allowed: Iterable<string> = []) {
    this.session = session;
    this.#mode = mode;
    this.#io = io;
    this.#updates = new EventUpdates(session.workspace);
    this.#permissions = new PermissionBridge({
      sessionId: session.id,
      workspace: session.workspace,
      confirm: (id, approved, reason) => session.confirmToolUse(id, approved, reason),
      ask: io.ask,
      mode: () => this.#mode,
      log: io.log,
    });
    for (const tool of allowed) this.#permissions.allowed.add(tool);
    // The plan mode is a ceiling: a tool the config's own policy allows is blocked too.
    session.registerHook('acp-permission-mode', 'pre_tool_use', null, { priority: 0 }, (invocation) => {
      const tool = invocation.payload['tool_name'];
      if (this.#mode !== 'plan' || (typeof tool === 'string' && READ_ONLY_TOOLS.has(tool))) return undefined;
      return { action: 'block', reason: `the plan mode runs only read-only tools (${[...READ_ONLY_TOOLS].join(', ')})` };
    });
  }

  get mode(): PermissionMode {
    return this.#mode;
  }

  /** A turn is running. */
  get running(): boolean {
    return this.#running !== null;
  }

  /** Tools the client allowed always in this session. */
  get allowedTools(): string[] {
    return [...this.#permissions.allowed];
  }

  /** The model the session talks to (`provider/model`), or undefined for the config's default. */
  get model(): string | undefined {
    const model = this.session.snapshot().options['model'];
    return typeof model === 'string' ? model : undefined;
  }

  /** `session/set_mode`: one of the permission presets. */
  setMode(modeId: string): void {
    if (!(PERMISSION_MODES as readonly string[]).includes(modeId)) {
      throw RequestError.invalidParams({ modeId, accepted: [...PERMISSION_MODES] }, `unknown mode '${modeId}'; one of ${PERMISSION_MODES.join(', ')}`);
    }
    this.#mode = modeId as PermissionMode;
  }

  /** `session/prompt`: runs one turn; resolves with its stop reason. One turn at a time. */
  prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.#running !== null) throw RequestError.invalidRequest({ sessionId: this.session.id }, 'a prompt is already running in this session');
    const request = promptRequest(blocks);
    this.#cancelled = false;
    const run = this.#run(request).finally(() => {
      this.#running = null;
    });
    this.#running = run;
    return run;
  }

  /** `session/cancel`: ends the running turn (its tool processes are killed); open questions are abandoned. */
  async cancel(): Promise<void> {
    if (this.#running === null) return;
    this.#cancelled = true;
    this.#permissions.cancel();
    await this.session.cancelAsync();
  }

  async #run(request: ReturnType<typeof promptRequest>): Promise<StopReason> {
    const stream = await this.session.stream(request);
    let terminal: AgentEventOfType<'agent_end' | 'error'> | undefined;
    // Updates go out in event order; a slow client slows nothing but its own updates.
    let sent: Promise<void> = Promise.resolve();
    for await (const event of stream) {
      for (const update of this.#updates.map(event)) sent = sent.then(() => this.#io.notify(update)).catch((error: unknown) => this.#io.log(`session/update failed: ${String(error)}`));
      if (event.type === 'confirmation_required') this.#permissions.handle(event);
      if (event.type === 'agent_end' || event.type === 'error') terminal = event;
    }
    await stream.result.catch(() => undefined);
    await sent;
    if (terminal?.type === 'agent_end') return 'end_turn';
    const details = terminal?.payload.details;
    if (this.#cancelled || CodeError.isCancellation({ code: terminal?.code, details })) return 'cancelled';
    const code = terminal?.code ?? 'INTERNAL_ERROR';
    const message = terminal?.text ?? 'the turn ended without a result';
    if (code === 'SESSION_ERROR' && /max.?tool.?rounds/i.test(`${message} ${JSON.stringify(details ?? {})}`)) return 'max_turn_requests';
    throw RequestError.internalError({ code, ...(details === undefined ? {} : { details }) }, message);
  }

  /** Closes the session (a running turn is cancelled first). */
  async close(): Promise<void> {
    await this.cancel().catch(() => undefined);
    await this.session.closeAsync().catch(() => undefined);
  }
}
