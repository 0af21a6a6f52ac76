import { CodeError } from '../errors/code-error.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';
import type { SecurityProvider } from '../security/security-provider.js';
import { globToRegExp } from '../glob/glob-to-regexp.js';
import { commandPatternToRegExp } from './command-pattern-regexp.js';

/** Hook events, in the order of REFERENCE.md. */
export const HOOK_EVENTS = [
  'pre_tool_use',
  'post_tool_use',
  'generate_start',
  'generate_end',
  'session_start',
  'session_end',
  'pre_prompt',
  'post_response',
  'on_error',
  'pre_planning',
  'post_planning',
] as const;

/** One of {@link HOOK_EVENTS}. */
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** What a handler decides. */
export type HookAction = 'continue' | 'block' | 'skip' | 'retry';

/** Narrows which calls a hook sees. Every field given must match; `null` matches everything. */
export interface HookMatcher {
  /** Glob on the tool name (`bash`, `mcp__*`). */
  readonly tool?: string;
  /** Glob on the call's RESOLVED workspace-relative paths; matches when any path matches. */
  readonly pathPattern?: string;
  /** Glob (where `*` spans spaces) or `/regex/flags` on the bash command. */
  readonly commandPattern?: string;
}

/** Per-hook settings. */
export interface HookConfig {
  /** Lower runs first; ties keep registration order. Default 100. */
  readonly priority?: number;
  /** A handler still running after this many ms counts as failed. Default 30000. */
  readonly timeoutMs?: number;
}

/** What a handler receives. The payload is already redacted. */
export interface HookInvocation {
  readonly event: HookEventName;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** What a handler returns (`undefined` means continue). */
export interface HookResult {
  readonly action: HookAction;
  readonly reason?: string;
  /**
   * Fields to change; only these keys act (docs/hooks.md lists every event's payload):
   * `pre_tool_use`: `args` replaces the arguments, `argsPatch` changes the fields it names (both
   * validated again); `post_tool_use`: `output` (string) replaces the output (still redacted and
   * bounded afterwards); `pre_prompt`: `prompt` (string) replaces the prompt; `pre_planning`:
   * `modified_task`, `selected_strategy`, `hints` (string[]). Any other key, and `modified` of the
   * observational events (`post_response`, `generate_start`, `generate_end`, `post_planning`,
   * `session_start`, `session_end`, `on_error`), only reaches later hooks of the same event.
   */
  readonly modified?: Readonly<Record<string, unknown>>;
  /** For `retry`: when the caller may try again. */
  readonly retryAfterMs?: number;
}

/** A hook handler, sync or async. */
export type HookHandler = (event: HookInvocation) => HookResult | undefined | void | Promise<HookResult | undefined | void>;

/** What the call being hooked targets, for {@link HookMatcher}. */
export interface HookMatchTarget {
  readonly toolName?: string;
  readonly paths?: readonly string[];
  readonly command?: string;
}

/** Outcome of {@link HookRegistry.run}. */
export interface HookRunResult {
  /** `continue` when every matching hook continued (or none matched). */
  readonly action: HookAction;
  readonly reason?: string;
  readonly retryAfterMs?: number;
  /** Merged `modified` objects of the hooks that ran, in order; absent when none modified. */
  readonly modified?: Readonly<Record<string, unknown>>;
  /** The payload after modifications (what the last hook saw, merged with its changes). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** Id of the hook that decided a non-continue action. */
  readonly hookId?: string;
  /** True when the decision comes from a hook that threw, timed out or returned garbage. */
  readonly failed?: boolean;
}

/** Default {@link HookConfig.priority}. */
export const DEFAULT_HOOK_PRIORITY = 100;
/** Default {@link HookConfig.timeoutMs}. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

interface HookEntry {
  readonly id: string;
  readonly event: HookEventName;
  readonly order: number;
  readonly priority: number;
  readonly timeoutMs: number;
  readonly tool: RegExp | null;
  readonly path: RegExp | null;
  readonly command: RegExp | null;
  readonly handler: HookHandler;
}

const EVENT_SET: ReadonlySet<string> = new Set(HOOK_EVENTS);
const ACTIONS: ReadonlySet<string> = new Set(['continue', 'block', 'skip', 'retry']);
const EMPTY: readonly HookEntry[] = Object.freeze([]);

function configError(message: string, details: Record<string, unknown>): CodeError {
  return new CodeError('CONFIG_ERROR', message, { details });
}

/**
 * Session hooks. The kernel runs `pre_tool_use` / `post_tool_use` around every tool call; the
 * session loop calls {@link run} for the other events. Hook payloads are redacted with the
 * registry's {@link SecurityProvider} before any handler sees them.
 *
 * A handler that throws, times out or returns an unknown action yields `block` with
 * `failed: true`: for gate events (`pre_*`) that fails closed; callers of observational
 * events decide what a failed hook means for them.
 */
export class HookRegistry {
  readonly #security: SecurityProvider;
  readonly #byEvent = new Map<HookEventName, HookEntry[]>();
  readonly #byId = new Map<string, HookEntry>();
  #order = 0;

  constructor(options: { readonly security?: SecurityProvider } = {}) {
    this.#security = options.security ?? new DefaultSecurityProvider();
  }

  /**
   * Registers `handler` for `event` under `id` (unique; CONFIG_ERROR when taken, when the event
   * is unknown, or when the matcher or config is malformed).
   */
  register(id: string, event: HookEventName, matcher: HookMatcher | null, config: HookConfig | null, handler: HookHandler): void {
    if (typeof id !== 'string' || id.length === 0) throw configError('hook id must be a non-empty string', { field: 'id' });
    if (this.#byId.has(id)) throw configError(`a hook with id '${id}' is already registered`, { field: 'id', id });
    if (!EVENT_SET.has(event)) throw configError(`unknown hook event '${String(event)}'; expected one of ${HOOK_EVENTS.join(', ')}`, { field: 'event', event });
    if (typeof handler !== 'function') throw configError(`hook '${id}': handler must be a function`, { field: 'handler', id });
    const priority = config?.priority ?? DEFAULT_HOOK_PRIORITY;
    if (typeof priority !== 'number' || !Number.isFinite(priority)) throw configError(`hook '${id}': config.priority must be a finite number`, { field: 'config.priority', id });
    const timeoutMs = config?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
      throw configError(`hook '${id}': config.timeoutMs must be a positive integer`, { field: 'config.timeoutMs', id });
    }
    const compile = (field: keyof HookMatcher, make: (p: string) => RegExp): RegExp | null => {
      const value = matcher?.[field];
      if (value === undefined) return null;
      if (typeof value !== 'string' || value.length === 0) throw configError(`hook '${id}': matcher.${field} must be a non-empty string`, { field: `matcher.${field}`, id });
      try {
        return make(value);
      } catch (error) {
        throw new CodeError('CONFIG_ERROR', `hook '${id}': matcher.${field} is not a valid pattern`, { details: { field: `matcher.${field}`, id }, cause: error });
      }
    };
    const entry: HookEntry = {
      id,
      event,
      order: (this.#order += 1),
      priority,
      timeoutMs,
      tool: compile('tool', (p) => globToRegExp(p, { pathMode: false })),
      path: compile('pathPattern', (p) => globToRegExp(p)),
      command: compile('commandPattern', commandPatternToRegExp),
      handler,
    };
    const list = [...(this.#byEvent.get(event) ?? []), entry].sort((a, b) => a.priority - b.priority || a.order - b.order);
    this.#byEvent.set(event, list);
    this.#byId.set(id, entry);
  }

  /** Removes the hook `id`; returns whether it existed. */
  unregister(id: string): boolean {
    const entry = this.#byId.get(id);
    if (entry === undefined) return false;
    this.#byId.delete(id);
    const list = (this.#byEvent.get(entry.event) ?? []).filter((e) => e !== entry);
    if (list.length === 0) this.#byEvent.delete(entry.event);
    else this.#byEvent.set(entry.event, list);
    return true;
  }

  /** True when at least one hook listens to `event` (the kernel skips the stage otherwise). */
  has(event: HookEventName): boolean {
    return this.#byEvent.has(event);
  }

  /** True when a hook of `event` matches on paths or commands (the caller must resolve them). */
  needsTarget(event: HookEventName): boolean {
    return (this.#byEvent.get(event) ?? EMPTY).some((e) => e.path !== null || e.command !== null);
  }

  /** Ids of the registered hooks, by event then run order. */
  list(): { readonly id: string; readonly event: HookEventName; readonly priority: number }[] {
    return HOOK_EVENTS.flatMap((event) => (this.#byEvent.get(event) ?? EMPTY).map((e) => ({ id: e.id, event, priority: e.priority })));
  }

  /**
   * Runs the hooks of `event` matching `target` (default: `tool_name`, `paths`, `command` read
   * from the payload), lowest priority first, until one does not continue. After a hook modified
   * the payload, later hooks are matched against the modified call: `retarget` (given the merged
   * modifications so far) tells what it targets; without it the default target is read again
   * from the modified payload. Later hooks see the modifications redacted.
   */
  async run(
    event: HookEventName,
    payload: Readonly<Record<string, unknown>>,
    options: { readonly target?: HookMatchTarget; readonly retarget?: (modified: Readonly<Record<string, unknown>>) => HookMatchTarget | Promise<HookMatchTarget> } = {},
  ): Promise<HookRunResult> {
    const entries = this.#byEvent.get(event);
    let current = this.#security.redactValue(payload) as Readonly<Record<string, unknown>>;
    if (entries === undefined) return { action: 'continue', payload: current };
    let target = options.target ?? targetFromPayload(payload);
    let modified: Record<string, unknown> | undefined;
    for (const entry of entries) {
      if (!matches(entry, target)) continue;
      const outcome = await invokeHandler(entry, { event, payload: current });
      if (outcome.failed !== undefined) return { action: 'block', reason: outcome.failed, payload: current, hookId: entry.id, failed: true, ...(modified === undefined ? {} : { modified }) };
      const result = outcome.result;
      if (result.modified !== undefined) {
        modified = { ...modified, ...result.modified };
        // Handlers only ever see redacted payloads, a hook's own additions included.
        current = { ...current, ...(this.#security.redactValue(result.modified) as Record<string, unknown>) };
        try {
          target = options.retarget !== undefined ? await options.retarget(modified) : options.target ?? targetFromPayload({ ...payload, ...modified });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return { action: 'block', reason: `${event} hook '${entry.id}' modified the call into one that cannot be matched: ${message}`, payload: current, hookId: entry.id, failed: true, modified };
        }
      }
      if (result.action !== 'continue') {
        return {
          action: result.action,
          reason: result.reason ?? `${event} hook '${entry.id}' returned ${result.action}`,
          payload: current,
          hookId: entry.id,
          ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }),
          ...(modified === undefined ? {} : { modified }),
        };
      }
    }
    return { action: 'continue', payload: current, ...(modified === undefined ? {} : { modified }) };
  }
}

function targetFromPayload(payload: Readonly<Record<string, unknown>>): HookMatchTarget {
  const toolName = payload['tool_name'];
  const paths = payload['paths'];
  const command = payload['command'];
  return {
    ...(typeof toolName === 'string' ? { toolName } : {}),
    ...(Array.isArray(paths) ? { paths: paths.filter((p): p is string => typeof p === 'string') } : {}),
    ...(typeof command === 'string' ? { command } : {}),
  };
}

function matches(entry: HookEntry, target: HookMatchTarget): boolean {
  if (entry.tool !== null && (target.toolName === undefined || !entry.tool.test(target.toolName))) return false;
  if (entry.path !== null && (target.paths === undefined || !target.paths.some((p) => entry.path!.test(p)))) return false;
  if (entry.command !== null && (target.command === undefined || !entry.command.test(target.command))) return false;
  return true;
}

type HandlerOutcome = { readonly result: HookResult; readonly failed?: undefined } | { readonly failed: string };

async function invokeHandler(entry: HookEntry, invocation: HookInvocation): Promise<HandlerOutcome> {
  let raw: unknown;
  try {
    raw = entry.handler(invocation);
    if (typeof (raw as PromiseLike<unknown> | null)?.then === 'function') raw = await withTimeout(raw as PromiseLike<unknown>, entry);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { failed: `${invocation.event} hook '${entry.id}' failed: ${message}` };
  }
  if (raw === undefined || raw === null) return { result: { action: 'continue' } };
  const result = raw as Partial<HookResult>;
  if (typeof raw !== 'object' || typeof result.action !== 'string' || !ACTIONS.has(result.action)) {
    return { failed: `${invocation.event} hook '${entry.id}' returned an invalid result (expected { action: continue|block|skip|retry })` };
  }
  if (result.modified !== undefined && (typeof result.modified !== 'object' || result.modified === null || Array.isArray(result.modified))) {
    return { failed: `${invocation.event} hook '${entry.id}' returned a non-object 'modified'` };
  }
  return { result: result as HookResult };
}

const TIMED_OUT = Symbol('timed out');

async function withTimeout(promise: PromiseLike<unknown>, entry: HookEntry): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), entry.timeoutMs);
  });
  try {
    const value = await Promise.race([promise, deadline]);
    if (value === TIMED_OUT) throw new Error(`timed out after ${entry.timeoutMs} ms`);
    return value;
  } finally {
    clearTimeout(timer);
  }
}
