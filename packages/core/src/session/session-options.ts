import { CONFIRMATION_LANES } from '../confirmation/confirmation-lane.js';
import { CodeError } from '../errors/code-error.js';
import { validatePermissionPolicy } from '../permission/permission-policy.js';
import type { RetentionLimits } from './run-store.js';
import { isSessionStore } from './session-store.js';
import type { SessionStore } from './session-store.js';
import type { InlineSkill } from '../skills/inline-skills.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';

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
  /** How the child resolves `ask` decisions. Default `auto_approve`. */
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
  readonly autoDelegation?: { readonly enabled?: boolean; readonly maxTasks?: number };
  /** Bound of `parallel_task` (default 8). */
  readonly maxParallelTasks?: number;
  readonly autoParallel?: boolean;
  readonly workerAgents?: readonly WorkerAgentSpec[];
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
    readonly yoloLanes?: readonly string[];
  };
  /** Workspace backend (`LocalWorkspaceBackend`, `S3WorkspaceBackend`...); default a local backend rooted at the session workspace. */
  readonly workspaceBackend?: WorkspaceBackend;
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
});

type Check = (value: unknown, field: string) => void;

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
const bool: Check = (v, f) => {
  if (typeof v !== 'boolean') fail(f, 'a boolean', v);
};
const str: Check = (v, f) => {
  if (typeof v !== 'string' || v.length === 0) fail(f, 'a non-empty string', v);
};
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v, f) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(f, `an integer in ${min}..${max}`, v);
  };
const stringListAllowEmpty: Check = (v, f) => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(f, 'an array of strings', v);
};
const fraction: Check = (v, f) => {
  if (typeof v !== 'number' || !(v > 0 && v <= 1)) fail(f, 'a number in (0, 1]', v);
};
const oneOf =
  (...values: string[]): Check =>
  (v, f) => {
    if (typeof v !== 'string' || !values.includes(v)) fail(f, `one of ${values.map((x) => `'${x}'`).join(', ')}`, v);
  };
const stringList: Check = (v, f) => {
  if (!Array.isArray(v)) fail(f, 'an array of strings', v);
  (v as unknown[]).forEach((item, i) => str(item, `${f}[${i}]`));
};
const object =
  (fields: Record<string, Check>): Check =>
  (v, f) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(f, 'an object', v);
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      const check = fields[key];
      if (check === undefined) {
        throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${f}.${key}' (known: ${Object.keys(fields).join(', ')})`, {
          details: { field: `${f}.${key}` },
        });
      }
      if (value !== undefined) check(value, `${f}.${key}`);
    }
  };
const anyObject: Check = (v, f) => {
  if (typeof v !== 'object' || v === null) fail(f, 'an object', v);
};
const workerList: Check = (v, f) => {
  if (!Array.isArray(v)) fail(f, 'an array of worker specs', v);
  const names = new Set<string>();
  (v as unknown[]).forEach((item, i) => {
    const field = `${f}[${i}]`;
    object(WORKER_FIELDS)(item, field);
    const spec = item as Record<string, unknown>;
    str(spec['name'], `${field}.name`);
    str(spec['description'], `${field}.description`);
    oneOf('read_only', 'planner', 'implementer', 'verifier', 'reviewer', 'custom')(spec['kind'], `${field}.kind`);
    if (names.has(spec['name'] as string)) fail(`${field}.name`, 'a unique worker name', spec['name']);
    names.add(spec['name'] as string);
  });
};

const WORKER_FIELDS: Record<string, Check> = {
  name: str,
  description: str,
  kind: oneOf('read_only', 'planner', 'implementer', 'verifier', 'reviewer', 'custom'),
  model: str,
  maxSteps: int(1, 10_000),
  prompt: (v, f) => {
    if (typeof v !== 'string') fail(f, 'a string', v);
  },
  permissions: (v, f) => {
    try {
      validatePermissionPolicy(v);
    } catch (error) {
      fail(f, `a permission policy (${error instanceof Error ? error.message : String(error)})`, v);
    }
  },
  confirmationInheritance: oneOf('auto_approve', 'deny_on_ask', 'inherit_parent'),
};

const FIELDS: Record<string, Check> = {
  model: (v, f) => {
    if (typeof v !== 'string' || !/^[^/\s]+\/\S+$/.test(v)) fail(f, "'provider/model'", v);
  },
  planningMode: oneOf('auto', 'enabled', 'disabled'),
  planning: bool,
  toolTimeoutMs: int(1, 86_400_000),
  llmApiTimeoutMs: int(1, 86_400_000),
  circuitBreakerThreshold: int(1, 1000),
  duplicateToolCallThreshold: int(1, 1000),
  maxToolRounds: int(1, 10_000),
  manualDelegationEnabled: bool,
  autoCompact: bool,
  autoCompactThreshold: fraction,
  maxContextTokens: int(1, 100_000_000),
  autoDelegation: object({ enabled: bool, maxTasks: int(1, 32) }),
  maxParallelTasks: int(1, 32),
  autoParallel: bool,
  workerAgents: workerList,
  permissionPolicy: (v, f) => {
    object({ allow: stringList, ask: stringList, deny: stringList, defaultDecision: oneOf('allow', 'ask', 'deny'), enabled: bool })(v, f);
    // Rule syntax (`bash(git *)`) is checked here too, so a bad rule fails at session creation
    // naming `permissionPolicy.deny[0]`, not later inside the kernel.
    const { enabled: _enabled, ...rules } = v as Record<string, unknown>;
    validatePermissionPolicy(rules);
  },
  confirmationPolicy: object({
    enabled: bool,
    defaultTimeoutMs: int(1, 86_400_000),
    timeoutAction: oneOf('reject', 'auto_approve'),
    yoloLanes: (v, f) => {
      if (!Array.isArray(v)) fail(f, 'an array of lanes', v);
      (v as unknown[]).forEach((lane, i) => oneOf(...CONFIRMATION_LANES)(lane, `${f}[${i}]`));
    },
  }),
  workspaceBackend: (v, f) => {
    const b = v as Record<string, unknown> | null;
    if (typeof b !== 'object' || b === null || typeof b['readFile'] !== 'function' || typeof b['resolvePath'] !== 'function' || typeof b['capabilities'] !== 'object') {
      fail(f, 'a WorkspaceBackend (capabilities, resolvePath, readFile...)', v);
    }
  },
  sessionStore: (v, f) => {
    if (!isSessionStore(v)) fail(f, 'a SessionStore (name, capabilities, save, load, delete, list)', v);
  },
  sessionId: (v, f) => {
    if (typeof v !== 'string' || !/^[A-Za-z0-9._:@-]{1,128}$/.test(v)) fail(f, 'an id of 1-128 letters, digits or . _ : @ -', v);
  },
  autoSave: bool,
  artifactStoreLimits: object({ maxArtifacts: int(1, 1_000_000), maxBytes: int(1024, Number.MAX_SAFE_INTEGER) }),
  retentionLimits: object({ maxRuns: int(1, 100_000), maxEventsPerRun: int(16, 10_000_000) }),
  systemPrompt: str,
  instructions: (v, f) => {
    if (typeof v !== 'string') fail(f, 'a string', v);
  },
  projectInstructions: bool,
  skillDirs: stringList,
  inlineSkills: (v, f) => {
    if (!Array.isArray(v)) fail(f, 'an array of skills', v);
    (v as unknown[]).forEach((item, i) => {
      const field = `${f}[${i}]`;
      object({ name: str, description: str, content: str, kind: oneOf('instruction', 'persona'), allowedTools: stringListAllowEmpty, tags: stringListAllowEmpty })(item, field);
      const skill = item as Record<string, unknown>;
      for (const key of ['name', 'description', 'content']) str(skill[key], `${field}.${key}`);
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(skill['name'] as string)) fail(`${field}.name`, 'a name of 1-64 letters, digits, _ or -', skill['name']);
    });
  },
  budget: object({
    maxToolCalls: int(1),
    maxTokens: int(1),
    maxWallTimeMs: int(1),
    softThresholds: (v, f) => {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && x > 0 && x < 1)) fail(f, 'an array of fractions in (0, 1)', v);
    },
  }),
  maxOutputTokens: int(1, 1_000_000),
  maxParseRetries: int(0, 100),
  continuationEnabled: bool,
  maxContinuationTurns: int(0, 100),
  maxExecutionTimeMs: int(1, 86_400_000),
  webFetch: object({ allowHosts: stringList, maxResponseBytes: int(1024, 256 * 1024 * 1024), timeoutMs: int(1, 600_000), maxRedirects: int(0, 20) }),
};

/** Names of every accepted session option. */
export const SESSION_OPTION_NAMES: readonly string[] = Object.freeze(Object.keys(FIELDS));

/**
 * Validates `options` and applies defaults. Throws SESSION_CONFIGURATION_ERROR naming the
 * first bad field (unknown fields included, so typos are caught).
 */
export function resolveSessionOptions(options: unknown = {}): ResolvedSessionOptions {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) fail('options', 'an object', options);
  const input = options as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) {
    const check = FIELDS[key];
    if (check === undefined) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `unknown session option '${key}'`, { details: { field: key, known: SESSION_OPTION_NAMES } });
    }
    if (value !== undefined) check(value, key);
  }
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
  };
}
