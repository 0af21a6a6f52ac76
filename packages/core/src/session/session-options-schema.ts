import { CONFIRMATION_LANES } from '../confirmation/confirmation-lane.js';
import type { JsonSchema } from '../tools/json-schema.js';

// The one declaration of the session options a value can carry as JSON: bounds, enums and
// patterns. `resolveSessionOptions` validates with it (Ajv), `@a3s-lab/code-config` builds the
// session-default part of its `agent.acl` schema from it, and session-options.ts checks at compile
// time that the `SessionOptions` interface accepts exactly what it describes.
// `workspaceBackend` and `sessionStore` are objects with methods, not JSON: they are checked apart.

const bool = { type: 'boolean' } as const;
const text = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const nonEmptyList = { type: 'array', items: nonEmpty } as const;
const anyStringList = { type: 'array', items: text } as const;
const int = <const Min extends number, const Max extends number = typeof Number.MAX_SAFE_INTEGER>(minimum: Min, maximum?: Max) =>
  ({ type: 'integer', minimum, maximum: maximum ?? Number.MAX_SAFE_INTEGER }) as { readonly type: 'integer'; readonly minimum: Min; readonly maximum: Max };
const timeoutMs = int(1, 86_400_000);
const object = <const P extends Readonly<Record<string, JsonSchema>>>(properties: P) => ({ type: 'object', additionalProperties: false, properties }) as const;

/** JSON Schema (draft 2020-12) of the JSON-representable session options. */
export const sessionOptionsJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://a3s-lab.dev/schemas/code/session-options.json',
  title: 'A3S Code session options',
  type: 'object',
  additionalProperties: false,
  properties: {
    model: { type: 'string', pattern: '^[^/\\s]+/\\S+$', description: "'provider/model'" },
    planningMode: { enum: ['auto', 'enabled', 'disabled'] },
    planning: bool,
    toolTimeoutMs: timeoutMs,
    llmApiTimeoutMs: timeoutMs,
    circuitBreakerThreshold: int(1, 1000),
    duplicateToolCallThreshold: int(1, 1000),
    maxToolRounds: int(1, 10_000),
    manualDelegationEnabled: bool,
    autoCompact: bool,
    autoCompactThreshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    maxContextTokens: int(1, 100_000_000),
    deferMcpTools: bool,
    deferMcpToolsThreshold: { type: 'number', minimum: 0, maximum: 1 },
    autoDelegation: object({ enabled: bool, maxTasks: int(1, 32) }),
    maxParallelTasks: int(1, 32),
    autoParallel: bool,
    workerAgents: { type: 'array', items: { $ref: '#/$defs/workerAgent' } },
    subagentConfirmationInheritance: { enum: ['auto_approve', 'deny_on_ask', 'inherit_parent'] },
    permissionPolicy: object({ allow: nonEmptyList, ask: nonEmptyList, deny: nonEmptyList, defaultDecision: { enum: ['allow', 'ask', 'deny'] }, enabled: bool }),
    confirmationPolicy: object({ enabled: bool, defaultTimeoutMs: timeoutMs, timeoutAction: { enum: ['reject', 'auto_approve'] }, yoloLanes: { type: 'array', items: { enum: CONFIRMATION_LANES } } }),
    sessionId: { type: 'string', pattern: '^[A-Za-z0-9._:@-]{1,128}$', description: 'an id of 1-128 letters, digits or . _ : @ -' },
    autoSave: bool,
    artifactStoreLimits: object({ maxArtifacts: int(1, 1_000_000), maxBytes: int(1024) }),
    retentionLimits: object({ maxRuns: int(1, 100_000), maxEventsPerRun: int(16, 10_000_000) }),
    systemPrompt: nonEmpty,
    instructions: text,
    projectInstructions: bool,
    skillDirs: nonEmptyList,
    inlineSkills: { type: 'array', items: { $ref: '#/$defs/inlineSkill' } },
    budget: object({ maxToolCalls: int(1), maxTokens: int(1), maxWallTimeMs: int(1), softThresholds: { type: 'array', items: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } } }),
    maxOutputTokens: int(1, 1_000_000),
    maxParseRetries: int(0, 100),
    continuationEnabled: bool,
    maxContinuationTurns: int(0, 100),
    maxExecutionTimeMs: timeoutMs,
    webFetch: object({ allowHosts: nonEmptyList, maxResponseBytes: int(1024, 256 * 1024 * 1024), timeoutMs: int(1, 600_000), maxRedirects: int(0, 20) }),
    // The JSON part of `telemetry`; its `tracerProvider` / `meterProvider` objects are checked apart.
    telemetry: object({ enabled: bool, captureContent: bool }),
    // Host-only: the OS sandbox of every subprocess (bash, verifyCommands, git). Paths are absolute or `~/...`.
    sandbox: object({
      mode: { enum: ['required', 'auto', 'off'] },
      network: { oneOf: [{ enum: ['none', 'full'] }, { type: 'object', additionalProperties: false, required: ['allow'], properties: { allow: { type: 'array', minItems: 1, items: nonEmpty } } }] },
      allowWrite: nonEmptyList,
      denyRead: nonEmptyList,
      autoAllowBash: bool,
    }),
  },
  $defs: {
    workerAgent: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description', 'kind'],
      properties: {
        name: nonEmpty,
        description: nonEmpty,
        kind: { enum: ['read_only', 'planner', 'implementer', 'verifier', 'reviewer', 'custom'] },
        model: nonEmpty,
        maxSteps: int(1, 10_000),
        prompt: text,
        permissions: { type: 'object', description: 'a permission policy' },
        confirmationInheritance: { enum: ['auto_approve', 'deny_on_ask', 'inherit_parent'] },
      },
    },
    inlineSkill: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description', 'content'],
      properties: {
        name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$', description: 'a name of 1-64 letters, digits, _ or -' },
        description: nonEmpty,
        content: nonEmpty,
        kind: { enum: ['instruction', 'persona'] },
        allowedTools: anyStringList,
        tags: anyStringList,
      },
    },
  },
} as const satisfies JsonSchema;

/** Session options that are objects with methods rather than JSON; validated apart from the schema. */
export const NON_JSON_SESSION_OPTIONS = ['workspaceBackend', 'workspaceOverlay', 'sessionStore'] as const;
