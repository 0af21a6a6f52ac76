import type { ErrorObject } from 'ajv/dist/2020.js';
import type { ConfirmationLane } from '../confirmation/confirmation-lane.js';
import { CodeError } from '../errors/code-error.js';
import type { FromJsonSchema } from '../tools/from-json-schema.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { NON_JSON_SESSION_OPTIONS, sessionOptionsJsonSchema } from './session-options-schema.js';
import { sessionOptionsValidator } from './session-options-validator.generated.js';
import { validatePermissionPolicy } from '../permission/permission-policy.js';
import type { RetentionLimits } from './run-store.js';
import { isSessionStore } from './session-store.js';
import type { SessionStore } from './session-store.js';
import type { InlineSkill } from '../skills/inline-skills.js';
import type { WorkspaceBackend, WorkspaceOverlay } from '../workspace/workspace-backend.js';
import { checkTelemetryProviders, TELEMETRY_PROVIDER_KEYS } from '../telemetry/telemetry-options.js';
import type { TelemetryOptions } from '../telemetry/telemetry-options.js';
import type { SandboxOptions } from '../workspace/sandbox-options.js';

/** Kinds of worker agents (subagents). */
export type WorkerKind = 'read_only' | 'planner' | 'implementer' | 'verifier' | 'reviewer' | 'custom';

/** A reproducible worker-agent spec, registered on a session and delegated to by name. */
export interface WorkerAgentSpec {
  readonly name: string;
  readonly description: string;
  readonly kind: WorkerKind;
  readonly model?: string;
  readonly maxSteps?: number;
  readonly prompt?: string;
  readonly permissions?: Readonly<Record<string, unknown>>;
  /**
   * How the child resolves `ask` decisions: `auto_approve` (default) approves them,
   * `deny_on_ask` fails the child run at its first ask (the task is `failed` with a
   * `SECURITY_ERROR`, details `reason: 'deny_on_ask'`), `inherit_parent` asks the parent's human.
   */
  readonly confirmationInheritance?: 'auto_approve' | 'deny_on_ask' | 'inherit_parent';
}

/**
 * Session options (camelCase), as accepted by `agent.sessionAsync(workspace, options)`.
 * Defaults are those of REFERENCE.md. Every field is validated; a bad value is a
 * SESSION_CONFIGURATION_ERROR naming the field.
 */
export interface SessionOptions {
  /** `provider/model`; default: the config's default model. */
  readonly model?: string;
  /** Planning: `auto` (default) | `enabled` | `disabled`. */
  readonly planningMode?: 'auto' | 'enabled' | 'disabled';
  /** Legacy planning switch: true = `enabled`, false = `disabled`. */
  readonly planning?: boolean;
  /** Deadline of one tool call, ms (default 600000; a tool may ask for its own, e.g. bash `timeout`). */
  readonly toolTimeoutMs?: number;
  /** Deadline of one model call including retries, ms (default none). */
  readonly llmApiTimeoutMs?: number;
  /** Consecutive all-failed tool rounds before the run stops (default 3). */
  readonly circuitBreakerThreshold?: number;
  /** Identical consecutive tool calls allowed before refusal (default 3). */
  readonly duplicateToolCallThreshold?: number;
  /** Model turns requesting tools per run (default 50). */
  readonly maxToolRounds?: number;
  readonly manualDelegationEnabled?: boolean;
  /**
   * Rolling auto-compaction (default false): before a model request estimated above
   * `autoCompactThreshold x maxContextTokens`, the oldest messages are replaced by a model-written
   * summary (`context_compacted` event); a context-overflow refusal compacts once and retries.
   */
  readonly autoCompact?: boolean;
  /** Fraction of maxContextTokens that triggers compaction (default 0.8). */
  readonly autoCompactThreshold?: number;
  /** Context window of the model in tokens (default: the model's declared `limit.context` in the SDK, else 200000; 0 is rejected). */
  readonly maxContextTokens?: number;
  /**
   * MCP tool schemas on demand (default true): when the definitions of the session's MCP tools
   * would take more than `deferMcpToolsThreshold` of `maxContextTokens`, requests carry a compact
   * catalogue (names and one-line descriptions) and one `tool_search` tool instead; a tool it
   * loads joins every following request with its full schema. Calls are governed as always.
   * false sends every definition with every request. ACL `defer_mcp_tools`.
   */
  readonly deferMcpTools?: boolean;
  /** Share of `maxContextTokens` the MCP tool definitions may take before they are deferred (default 0.1; 0 defers always). ACL `defer_mcp_tools_threshold`. */
  readonly deferMcpToolsThreshold?: number;
  readonly autoDelegation?: { readonly enabled?: boolean; readonly maxTasks?: number };
  /** Bound of `parallel_task` (default 8). */
  readonly maxParallelTasks?: number;
  readonly autoParallel?: boolean;
  readonly workerAgents?: readonly WorkerAgentSpec[];
  /**
   * How subagents answer `ask` decisions when their agent does not say (the built-in agents, and
   * worker specs without `confirmationInheritance`): `auto_approve` (default: approving a `task`
   * lets its child run every tool it has that policy asks about, deny rules still holding),
   * `deny_on_ask` (the child fails closed on every ask) or `inherit_parent` (each ask goes to this
   * session's human as a `confirmation_required` of its own). ACL key
   * `subagent_confirmation_inheritance`; the reference hosts (`a3s-code run`/`serve`, the web
   * server) use `inherit_parent` unless their config sets it.
   */
  readonly subagentConfirmationInheritance?: 'auto_approve' | 'deny_on_ask' | 'inherit_parent';
  /** Which tools are allowed, asked about or denied. */
  readonly permissionPolicy?: {
    readonly allow?: readonly string[];
    readonly ask?: readonly string[];
    readonly deny?: readonly string[];
    readonly defaultDecision?: 'allow' | 'ask' | 'deny';
    /** false = no policy at all: every call is allowed (default true). */
    readonly enabled?: boolean;
  };
  /** Human confirmation behaviour. */
  readonly confirmationPolicy?: {
    readonly enabled?: boolean;
    readonly defaultTimeoutMs?: number;
    readonly timeoutAction?: 'reject' | 'auto_approve';
    /** Lanes whose calls need no confirmation. */
    readonly yoloLanes?: readonly ConfirmationLane[];
  };
  /** Workspace backend (`LocalWorkspaceBackend`, `S3WorkspaceBackend`...); default a local backend rooted at the session workspace. */
  readonly workspaceBackend?: WorkspaceBackend;
  /**
   * Wraps the session's workspace backend (see {@link WorkspaceOverlay}): the tools call what it
   * returns, behind the kernel and after path confinement, deny-read and protected-path checks
   * of the wrapped backend. Host-only, not saved in snapshots (pass it again on resume).
   */
  readonly workspaceOverlay?: WorkspaceOverlay;
  /** Where `save()` and `autoSave` publish snapshots (`MemorySessionStore`, `FileSessionStore`, `S3SessionStore`...). */
  readonly sessionStore?: SessionStore;
  /** Session id; default generated. */
  readonly sessionId?: string;
  /** Save after every completed operation (send, stream, direct tool call, confirmation); needs a store. */
  readonly autoSave?: boolean;
  /** Artifact retention (default 256 artifacts / 16 MiB). */
  readonly artifactStoreLimits?: { readonly maxArtifacts?: number; readonly maxBytes?: number };
  /** Run and run-event retention. */
  readonly retentionLimits?: RetentionLimits;
  /** Replaces the built-in system prompt. */
  readonly systemPrompt?: string;
  /** Appended to the system prompt (project conventions, house rules). */
  readonly instructions?: string;
  /**
   * Add the workspace's `AGENTS.md` (or `CLAUDE.md`) and those of its parent directories up to
   * the repository root to the system prompt (default true; local workspaces; not with `systemPrompt`).
   */
  readonly projectInstructions?: boolean;
  /** Directories of Markdown skills (frontmatter `name`, `description`, `allowed-tools`, `tags`). */
  readonly skillDirs?: readonly string[];
  /** Skills given inline: `instruction` skills run with `Skill`, `persona` skills join the system prompt. */
  readonly inlineSkills?: readonly InlineSkill[];
  /** Hard limits on tool calls, tokens and wall time for the session. */
  readonly budget?: { readonly maxToolCalls?: number; readonly maxTokens?: number; readonly maxWallTimeMs?: number; readonly softThresholds?: readonly number[] };
  /** Response token cap per model call. */
  readonly maxOutputTokens?: number;
  /** Malformed tool-call turns answered for the model to retry before the run stops (default 2). */
  readonly maxParseRetries?: number;
  /** Continue a reply cut at the output-token limit (default true). */
  readonly continuationEnabled?: boolean;
  /** How many times one reply is continued (default 3). */
  readonly maxContinuationTurns?: number;
  /** Wall-clock bound of one run, ms; the run is cancelled past it (default none). */
  readonly maxExecutionTimeMs?: number;
  /** Network reach and caps of `web_fetch` / `web_search` (see {@link WebFetchOptions}). */
  readonly webFetch?: WebFetchOptions;
  /**
   * OpenTelemetry traces and metrics in the GenAI semantic conventions (`invoke_agent`, `chat`,
   * `execute_tool` spans; token usage, operation and tool duration histograms). Default: on, with
   * the global providers the host registered (nothing is built while it registered none); content
   * is recorded only with `captureContent`, redacted. ACL block `telemetry { enabled  capture_content }`.
   */
  readonly telemetry?: TelemetryOptions;
  /**
   * The OS sandbox (bubblewrap on Linux) of every subprocess the session starts: `bash`,
   * `verifyCommands`, the `git` tool's processes. Host-only: no tool argument, hook patch or model
   * output changes it. Default `{ mode: 'auto', network: 'none' }`. `required` fails session
   * creation with `SANDBOX_UNAVAILABLE` when no sandbox can start; `auto` runs unsandboxed with a
   * warning (`onWarning`) and `session.sandboxStatus()`. ACL block `sandbox { mode = "required" ... }`.
   */
  readonly sandbox?: SandboxOptions;
}

/** Session option `webFetch`; the ACL block `web_fetch { allow_hosts = [...] }` sets its default. */
export interface WebFetchOptions {
  /**
   * Hosts that may be reached although they are private, loopback or link-local: `127.0.0.1`,
   * `docs.internal`, `docs.internal:8443`, `[::1]:8080`. A name matches the URL's host; an IP
   * matches the URL's host or any address a name resolves to. Default none.
   */
  readonly allowHosts?: readonly string[];
  /** Most body bytes (decompressed) read per response; the rest is cut. Default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** Deadline of one fetch (all redirects included), ms. Default 30000. */
  readonly timeoutMs?: number;
  /** Most redirects followed per fetch. Default 5. */
  readonly maxRedirects?: number;
}

/** Options with defaults applied. */
export interface ResolvedSessionOptions extends SessionOptions {
  readonly planningMode: 'auto' | 'enabled' | 'disabled';
  readonly toolTimeoutMs: number;
  readonly circuitBreakerThreshold: number;
  readonly duplicateToolCallThreshold: number;
  readonly maxToolRounds: number;
  readonly autoCompact: boolean;
  readonly autoCompactThreshold: number;
  readonly maxContextTokens: number;
  readonly maxParallelTasks: number;
  readonly autoParallel: boolean;
  readonly maxParseRetries: number;
  readonly maxContinuationTurns: number;
}

/** Defaults of REFERENCE.md. */
export const SESSION_OPTION_DEFAULTS = Object.freeze({
  planningMode: 'auto' as const,
  toolTimeoutMs: 600_000,
  circuitBreakerThreshold: 3,
  duplicateToolCallThreshold: 3,
  maxToolRounds: 50,
  autoCompact: false,
  autoCompactThreshold: 0.8,
  maxContextTokens: 200_000,
  maxParallelTasks: 8,
  autoParallel: true,
  maxParseRetries: 2,
  maxContinuationTurns: 3,
});

const fail = (field: string, expected: string, value: unknown): never => {
  throw new CodeError('SESSION_CONFIGURATION_ERROR', `invalid session option '${field}': expected ${expected}, got ${describe(value)}`, {
    details: { field, expected },
  });
};
const describe = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
};

/** Names of every accepted session option. */
export const SESSION_OPTION_NAMES: readonly string[] = Object.freeze([...Object.keys(sessionOptionsJsonSchema.properties), ...NON_JSON_SESSION_OPTIONS]);

// The interface above keeps the per-option documentation; this line keeps it equal to the
// schema: a field, type or enum that differs in either fails to compile.
type JsonSessionOptions = FromJsonSchema<typeof sessionOptionsJsonSchema>;
type DeepMutable<T> = T extends readonly (infer I)[] ? DeepMutable<I>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type JsonOnly<T> = Omit<T, (typeof NON_JSON_SESSION_OPTIONS)[number] | 'telemetry'> & { readonly telemetry?: Omit<TelemetryOptions, (typeof TELEMETRY_PROVIDER_KEYS)[number]> };
export type SessionOptionsMatchSchema = Assert<MutuallyAssignable<DeepMutable<JsonOnly<SessionOptions>>, DeepMutable<JsonSessionOptions>>>;

/** `/permissionPolicy/deny/0` -> `permissionPolicy.deny[0]`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** What a value of `schema` is, in words: `an integer in 1..1000`, `one of 'a', 'b'`. */
function expectedOf(schema: JsonSchema | undefined): string {
  if (schema === undefined) return 'a valid value';
  if (typeof schema.description === 'string') return schema.description;
  if (schema.enum !== undefined) return `one of ${schema.enum.map((x) => `'${String(x)}'`).join(', ')}`;
  const bound = (key: string): number | undefined => (typeof schema[key] === 'number' ? schema[key] : undefined);
  switch (schema.type) {
    case 'boolean':
      return 'a boolean';
    case 'string':
      return schema['minLength'] === 1 ? 'a non-empty string' : 'a string';
    case 'integer':
      return `an integer in ${bound('minimum')}..${bound('maximum')}`;
    case 'number': {
      const low = bound('exclusiveMinimum') === undefined ? `[${bound('minimum')}` : `(${bound('exclusiveMinimum')}`;
      const high = bound('exclusiveMaximum') === undefined ? `${bound('maximum')}]` : `${bound('exclusiveMaximum')})`;
      return `a number in ${low}, ${high}`;
    }
    case 'array':
      return schema.items?.type === 'string' ? 'an array of strings' : 'an array';
    default:
      return 'an object';
  }
}

/** The first schema violation as the typed error that names its field. */
function rejectFirst(error: ErrorObject, input: Readonly<Record<string, unknown>>): never {
  const field = fieldOf(error.instancePath);
  const parent = error.parentSchema as JsonSchema | undefined;
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as Record<string, unknown>)['additionalProperty']);
    if (field === '') throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${key}'`, { details: { field: key, known: SESSION_OPTION_NAMES } });
    const known = Object.keys(parent?.properties ?? {}).join(', ');
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${field}.${key}' (known: ${known})`, { details: { field: `${field}.${key}` } });
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as Record<string, unknown>)['missingProperty']);
    return fail(`${field}.${missing}`, expectedOf(parent?.properties?.[missing]), undefined);
  }
  return fail(field, expectedOf(parent), error.keyword === 'required' ? undefined : valueAt(input, error.instancePath));
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const part of pointer.split('/').slice(1)) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** Checks the schema cannot express: objects with methods, rule syntax, unique worker names. */
function checkBeyondSchema(input: Readonly<Record<string, unknown>>): void {
  const backend = input['workspaceBackend'] as Record<string, unknown> | null | undefined;
  if (backend !== undefined && (typeof backend !== 'object' || backend === null || typeof backend['readFile'] !== 'function' || typeof backend['resolvePath'] !== 'function' || typeof backend['capabilities'] !== 'object')) {
    fail('workspaceBackend', 'a WorkspaceBackend (capabilities, resolvePath, readFile...)', backend);
  }
  if (input['workspaceOverlay'] !== undefined && typeof input['workspaceOverlay'] !== 'function') fail('workspaceOverlay', 'a function (backend) => WorkspaceBackend', input['workspaceOverlay']);
  checkTelemetryProviders(input['telemetry'] as Readonly<Record<string, unknown>> | undefined);
  if (input['sessionStore'] !== undefined && !isSessionStore(input['sessionStore'])) fail('sessionStore', 'a SessionStore (name, capabilities, save, load, delete, list)', input['sessionStore']);
  const typed = input as SessionOptions;
  if (typed.permissionPolicy !== undefined) {
    // Rule syntax (`bash(git *)`) is checked here too, so a bad rule fails at session creation
    // naming `permissionPolicy.deny[0]`, not later inside the kernel.
    const { enabled: _enabled, ...rules } = typed.permissionPolicy;
    validatePermissionPolicy(rules);
  }
  const names = new Set<string>();
  typed.workerAgents?.forEach((spec, i) => {
    if (names.has(spec.name)) fail(`workerAgents[${i}].name`, 'a unique worker name', spec.name);
    names.add(spec.name);
    if (spec.permissions === undefined) return;
    try {
      validatePermissionPolicy(spec.permissions);
    } catch (error) {
      fail(`workerAgents[${i}].permissions`, `a permission policy (${error instanceof Error ? error.message : String(error)})`, spec.permissions);
    }
  });
}

/**
 * Validates `options` and applies defaults. Throws SESSION_CONFIGURATION_ERROR naming the
 * first bad field (unknown fields included, so typos are caught).
 */
export function resolveSessionOptions(options: unknown = {}): ResolvedSessionOptions {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options', 'an object', options);
  // A field set to `undefined` means "not set".
  const input = Object.fromEntries(Object.entries(options as Record<string, unknown>).filter(([, value]) => value !== undefined));
  const { workspaceBackend: _backend, workspaceOverlay: _overlay, sessionStore: _store, ...json } = input;
  // The provider objects of `telemetry` are not JSON: checked in checkBeyondSchema.
  if (isPlainRecord(json['telemetry'])) {
    const { tracerProvider: _t, meterProvider: _m, ...telemetry } = json['telemetry'];
    json['telemetry'] = telemetry;
  }
  // Precompiled at development time (scripts/generate-validators.ts): no Ajv compile per process.
  if (!sessionOptionsValidator(json)) rejectFirst(sessionOptionsValidator.errors![0]!, json);
  checkBeyondSchema(input);
  const typed = input as SessionOptions;
  const planningMode = typed.planningMode ?? (typed.planning === undefined ? SESSION_OPTION_DEFAULTS.planningMode : typed.planning ? 'enabled' : 'disabled');
  return {
    ...typed,
    planningMode,
    toolTimeoutMs: typed.toolTimeoutMs ?? SESSION_OPTION_DEFAULTS.toolTimeoutMs,
    circuitBreakerThreshold: typed.circuitBreakerThreshold ?? SESSION_OPTION_DEFAULTS.circuitBreakerThreshold,
    duplicateToolCallThreshold: typed.duplicateToolCallThreshold ?? SESSION_OPTION_DEFAULTS.duplicateToolCallThreshold,
    maxToolRounds: typed.maxToolRounds ?? SESSION_OPTION_DEFAULTS.maxToolRounds,
    autoCompact: typed.autoCompact ?? SESSION_OPTION_DEFAULTS.autoCompact,
    autoCompactThreshold: typed.autoCompactThreshold ?? SESSION_OPTION_DEFAULTS.autoCompactThreshold,
    maxContextTokens: typed.maxContextTokens ?? SESSION_OPTION_DEFAULTS.maxContextTokens,
    maxParallelTasks: typed.maxParallelTasks ?? SESSION_OPTION_DEFAULTS.maxParallelTasks,
    autoParallel: typed.autoParallel ?? SESSION_OPTION_DEFAULTS.autoParallel,
    maxParseRetries: typed.maxParseRetries ?? SESSION_OPTION_DEFAULTS.maxParseRetries,
    maxContinuationTurns: typed.maxContinuationTurns ?? SESSION_OPTION_DEFAULTS.maxContinuationTurns,
  };
}
