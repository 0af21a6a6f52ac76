import { CodeError } from '../errors/code-error.js';
import { eventArgs } from '../events/event-args.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';
import { CONFIRMATION_LANES } from './confirmation-lane.js';
import type { ConfirmationLane } from './confirmation-lane.js';

/** How confirmations (human-in-the-loop) behave at runtime. */
export interface ConfirmationPolicy {
  /** When false, every `ask` decision is denied (fail closed). Default true. */
  readonly enabled: boolean;
  /** How long a confirmation waits for an answer. Default 30000 ms. */
  readonly defaultTimeoutMs: number;
  /** What an unanswered confirmation becomes. Default `reject`. */
  readonly timeoutAction: 'reject' | 'auto_approve';
  /** Lanes whose calls are approved without asking. Default none. */
  readonly yoloLanes: readonly ConfirmationLane[];
}

/**
 * What hosts pass: every field optional (defaults apply); lanes as plain strings, validated at
 * runtime against {@link CONFIRMATION_LANES}.
 */
export interface ConfirmationPolicyInput {
  readonly enabled?: boolean | undefined;
  readonly defaultTimeoutMs?: number | undefined;
  readonly timeoutAction?: 'reject' | 'auto_approve' | undefined;
  readonly yoloLanes?: readonly string[] | undefined;
}

/** Defaults of {@link ConfirmationPolicy}. */
export const DEFAULT_CONFIRMATION_POLICY: ConfirmationPolicy = Object.freeze({
  enabled: true,
  defaultTimeoutMs: 30_000,
  timeoutAction: 'reject',
  yoloLanes: Object.freeze([]) as readonly ConfirmationLane[],
});

/** One call waiting for an answer. */
export interface PendingConfirmation {
  readonly toolId: string;
  /**
   * Identifies THIS request (also `confirmation_id` of its `confirmation_required` event). Answer
   * with it instead of the tool id to be sure a late answer never approves a later call that
   * reuses the id.
   */
  readonly confirmationId: string;
  readonly toolName: string;
  /** Arguments as shown to the human (redacted by the kernel). */
  readonly args: unknown;
  /** What approving it unlocks beyond the call (e.g. what a `task`'s child may run without asking). */
  readonly notice?: string;
  readonly remainingMs: number;
}

/** What the kernel asks the manager. */
export interface ConfirmationRequest {
  readonly toolId: string;
  readonly toolName: string;
  /** Display form of the arguments (already redacted). */
  readonly args: unknown;
  /** What approving the call unlocks beyond itself (already redacted); shown as `notice`. */
  readonly notice?: string;
  readonly lane: ConfirmationLane;
  /** Aborting it cancels the pending confirmation. */
  readonly abortSignal?: AbortSignal;
  /** Overrides `defaultTimeoutMs` for this call. */
  readonly timeoutMs?: number;
  /** Receives the confirmation_* events of this call. Default: the manager's `emit`, else dropped. */
  readonly emit?: (event: AgentEvent) => void;
}

/** How a confirmation ended. */
export interface ConfirmationOutcome {
  readonly approved: boolean;
  readonly reason: string;
  /** `user` answered, `timeout` applied the timeout action, `yolo` lane, `cancelled` signal. */
  readonly source: 'user' | 'timeout' | 'yolo' | 'cancelled';
}

interface PendingEntry {
  readonly request: ConfirmationRequest;
  readonly confirmationId: string;
  /** The tool id was already used by an earlier, decided request: only `confirmationId` answers it. */
  readonly reusedId: boolean;
  readonly deadlineMs: number;
  readonly settle: (outcome: ConfirmationOutcome) => void;
}

/**
 * An event receiver that cannot throw: a crashing listener must not reject a request (which
 * never rejects), nor leave a confirmation pending with its timer armed after its caller gave up.
 */
function guarded(emit: ((event: AgentEvent) => void) | undefined): (event: AgentEvent) => void {
  if (emit === undefined) return () => {};
  return (event) => {
    try {
      emit(event);
    } catch {
      // Ignored, like the kernel ignores a throwing session listener.
    }
  };
}

/**
 * Validates a (partial) confirmation policy and fills defaults. Throws
 * SESSION_CONFIGURATION_ERROR naming the bad field.
 */
export function validateConfirmationPolicy(value: unknown): ConfirmationPolicy {
  const fail = (field: string, why: string, got: unknown): never => {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `confirmationPolicy.${field} ${why}, got ${JSON.stringify(got)}`, { details: { field: `confirmationPolicy.${field}`, value: got } });
  };
  if (value === undefined) return DEFAULT_CONFIRMATION_POLICY;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('', 'must be an object', value);
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!(key in DEFAULT_CONFIRMATION_POLICY)) fail(key, 'is not a known field (enabled, defaultTimeoutMs, timeoutAction, yoloLanes)', input[key]);
  }
  const enabled = input['enabled'] ?? true;
  const defaultTimeoutMs = input['defaultTimeoutMs'] ?? 30_000;
  const timeoutAction = input['timeoutAction'] ?? 'reject';
  const yoloLanes = input['yoloLanes'] ?? [];
  if (typeof enabled !== 'boolean') fail('enabled', 'must be a boolean', enabled);
  if (typeof defaultTimeoutMs !== 'number' || !Number.isSafeInteger(defaultTimeoutMs) || defaultTimeoutMs < 1 || defaultTimeoutMs > 2_147_483_647) {
    fail('defaultTimeoutMs', 'must be an integer between 1 and 2147483647', defaultTimeoutMs);
  }
  if (timeoutAction !== 'reject' && timeoutAction !== 'auto_approve') fail('timeoutAction', "must be 'reject' or 'auto_approve'", timeoutAction);
  if (!Array.isArray(yoloLanes)) return fail('yoloLanes', 'must be an array of lanes', yoloLanes);
  for (const lane of yoloLanes) {
    if (!(CONFIRMATION_LANES as readonly unknown[]).includes(lane)) fail('yoloLanes', `must only hold ${CONFIRMATION_LANES.join(', ')}`, lane);
  }
  return Object.freeze({
    enabled: enabled as boolean,
    defaultTimeoutMs: defaultTimeoutMs as number,
    timeoutAction: timeoutAction as ConfirmationPolicy['timeoutAction'],
    yoloLanes: Object.freeze([...(yoloLanes as ConfirmationLane[])]),
  });
}

/** Decided tool ids remembered to recognise a reused id. */
const MAX_REMEMBERED_DECIDED_IDS = 4096;

/**
 * Human-in-the-loop confirmations of `ask` decisions. The kernel calls {@link request}; a host
 * lists {@link pending} calls and answers with {@link confirm}. Each call is decided exactly
 * once: by the human, by its timeout, by a YOLO lane, or by its signal aborting.
 */
export class ConfirmationManager {
  /** The validated policy. */
  readonly policy: ConfirmationPolicy;
  readonly #pending = new Map<string, PendingEntry>();
  readonly #byConfirmationId = new Map<string, PendingEntry>();
  /** Tool ids of decided requests (bounded): a request reusing one is answerable by confirmation id only. */
  readonly #decided = new Set<string>();
  #sequence = 0;
  readonly #emit: ((event: AgentEvent) => void) | undefined;

  /**
   * @param policy partial policy; validated (SESSION_CONFIGURATION_ERROR on a bad field).
   * @param options.emit default receiver of confirmation_* events (a request's own `emit` wins).
   */
  constructor(policy?: ConfirmationPolicyInput, options: { readonly emit?: (event: AgentEvent) => void } = {}) {
    this.policy = validateConfirmationPolicy(policy);
    this.#emit = options.emit;
  }

  /** True when confirmations can be asked (`policy.enabled`). */
  get enabled(): boolean {
    return this.policy.enabled;
  }

  /** True when calls of `lane` are auto-approved. */
  isYolo(lane: ConfirmationLane): boolean {
    return this.policy.yoloLanes.includes(lane);
  }

  /**
   * Asks for a confirmation and resolves when it is decided. Never rejects. A disabled policy
   * resolves to a denial (fail closed); a duplicate pending `toolId` is a QUEUE_ERROR.
   */
  request(request: ConfirmationRequest): Promise<ConfirmationOutcome> {
    if (!this.policy.enabled) {
      return Promise.resolve({ approved: false, reason: 'confirmations are disabled (confirmationPolicy.enabled is false)', source: 'cancelled' });
    }
    if (this.isYolo(request.lane)) return Promise.resolve({ approved: true, reason: `auto-approved: '${request.lane}' is a YOLO lane`, source: 'yolo' });
    if (this.#pending.has(request.toolId)) {
      return Promise.reject(new CodeError('QUEUE_ERROR', `a confirmation for tool call '${request.toolId}' is already pending`, { details: { toolId: request.toolId } }));
    }
    const emit = guarded(request.emit ?? this.#emit);
    const timeoutMs = request.timeoutMs ?? this.policy.defaultTimeoutMs;
    const signal = request.abortSignal;
    if (signal?.aborted === true) return Promise.resolve({ approved: false, reason: 'cancelled before confirmation', source: 'cancelled' });
    return new Promise<ConfirmationOutcome>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => settle({ approved: false, reason: 'cancelled while waiting for confirmation', source: 'cancelled' });
      const settle = (outcome: ConfirmationOutcome): void => {
        // Only the first decision counts; the entry is gone afterwards so late answers are refused.
        if (this.#pending.get(request.toolId) !== entry) return;
        this.#pending.delete(request.toolId);
        this.#byConfirmationId.delete(entry.confirmationId);
        this.#decided.add(request.toolId);
        if (this.#decided.size > MAX_REMEMBERED_DECIDED_IDS) this.#decided.delete(this.#decided.values().next().value as string);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.#sequence += 1;
      const entry: PendingEntry = { request, confirmationId: `${request.toolId}#${this.#sequence}`, reusedId: this.#decided.has(request.toolId), deadlineMs: Date.now() + timeoutMs, settle };
      this.#pending.set(request.toolId, entry);
      this.#byConfirmationId.set(entry.confirmationId, entry);
      timer = setTimeout(() => {
        const action = this.policy.timeoutAction;
        emit(createAgentEvent('confirmation_timeout', { tool_id: request.toolId, tool_name: request.toolName, action }));
        settle({ approved: action === 'auto_approve', reason: `no answer within ${timeoutMs} ms (timeoutAction: ${action})`, source: 'timeout' });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      emit(
        createAgentEvent('confirmation_required', {
          tool_id: request.toolId,
          tool_name: request.toolName,
          args: eventArgs(request.args),
          timeout_ms: timeoutMs,
          confirmation_id: entry.confirmationId,
          ...(request.notice === undefined ? {} : { notice: request.notice }),
        }),
      );
    });
  }

  /** Calls waiting for an answer, oldest first. */
  pending(): PendingConfirmation[] {
    const now = Date.now();
    return [...this.#pending.values()].map((e) => ({
      toolId: e.request.toolId,
      confirmationId: e.confirmationId,
      toolName: e.request.toolName,
      args: e.request.args,
      ...(e.request.notice === undefined ? {} : { notice: e.request.notice }),
      remainingMs: Math.max(0, e.deadlineMs - now),
    }));
  }

  /**
   * Answers a pending confirmation, named by its `confirmationId` (exact) or by its tool id.
   * Returns false, changing nothing, when no such confirmation is pending (unknown id, already
   * decided, timed out or cancelled), and when a tool id names a request that REUSES the id of an
   * earlier, decided one: a late answer meant for that earlier call must not approve this one, so
   * it can only be answered by its `confirmationId`.
   */
  confirm(id: string, approved: boolean, reason?: string): boolean {
    const byToolId = this.#pending.get(id);
    const entry = this.#byConfirmationId.get(id) ?? (byToolId !== undefined && !byToolId.reusedId ? byToolId : undefined);
    if (entry === undefined) return false;
    const toolId = entry.request.toolId;
    const text = reason ?? (approved ? 'approved' : 'rejected');
    guarded(entry.request.emit ?? this.#emit)(createAgentEvent('confirmation_received', { tool_id: toolId, tool_name: entry.request.toolName, approved, reason: text }));
    entry.settle({ approved, reason: text, source: 'user' });
    return true;
  }
}
