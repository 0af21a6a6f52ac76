import type { ConfirmationLane } from '../confirmation/confirmation-lane.js';
import type { FromJsonSchema } from '../tools/from-json-schema.js';
import type { NON_JSON_SESSION_OPTIONS, sessionOptionsJsonSchema } from './session-options-schema.js';
import type { RetentionLimits } from './run-record.js';
import type { SessionStore } from './session-store.js';
import type { InlineSkill } from '../skills/inline-skill.js';
import type { WorkspaceBackend, WorkspaceOverlay } from '../workspace/workspace-backend.js';
import type { TELEMETRY_PROVIDER_KEYS } from '../telemetry/telemetry-options.js';
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

// The interface above keeps the per-option documentation; this line keeps it equal to the
// schema: a field, type or enum that differs in either fails to compile.
type JsonSessionOptions = FromJsonSchema<typeof sessionOptionsJsonSchema>;
type DeepMutable<T> = T extends readonly (infer I)[] ? DeepMutable<I>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type JsonOnly<T> = Omit<T, (typeof NON_JSON_SESSION_OPTIONS)[number] | 'telemetry'> & { readonly telemetry?: Omit<TelemetryOptions, (typeof TELEMETRY_PROVIDER_KEYS)[number]> };
export type SessionOptionsMatchSchema = Assert<MutuallyAssignable<DeepMutable<JsonOnly<SessionOptions>>, DeepMutable<JsonSessionOptions>>>;
