import { sessionOptionsJsonSchema } from '@a3s-lab/code-core';

/** Session options an `agent.acl` may set as defaults for every session. */
export const SESSION_DEFAULT_KEYS = [
  'maxToolRounds',
  'toolTimeoutMs',
  'llmApiTimeoutMs',
  'circuitBreakerThreshold',
  'duplicateToolCallThreshold',
  'manualDelegationEnabled',
  'autoCompact',
  'autoCompactThreshold',
  'maxContextTokens',
  'deferMcpTools',
  'deferMcpToolsThreshold',
  'autoDelegation',
  'maxParallelTasks',
  'autoParallel',
  'subagentConfirmationInheritance',
  'planningMode',
  'confirmationPolicy',
  'artifactStoreLimits',
  'retentionLimits',
  'autoSave',
  'webFetch',
  'telemetry',
  'sandbox',
  'skillDirs',
  'permissionPolicy',
] as const;

const pick = <T extends object, const K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> => Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;

/**
 * JSON Schema (draft 2020-12) of an agent config AFTER key normalisation: the camelCase object
 * that `agent.acl` denotes (`api_key` -> `apiKey`, `providers "x" {}` -> `providers: [{ name: "x" }]`,
 * `models "m" {}` -> `models: [{ id: "m" }]`), before defaults and path resolution.
 *
 * Hosts can use it to validate the same config written as JSON. Providers, models and workers
 * accept extra keys for forward compatibility; the top level accepts only the keys below
 * (`loadAgentConfig` moves unknown top-level keys to `extensions` before validating).
 */
export const agentConfigJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://a3s-lab.dev/schemas/code/agent-config.json',
  title: 'A3S Code agent configuration',
  type: 'object',
  required: ['defaultModel', 'providers'],
  additionalProperties: false,
  properties: {
    defaultModel: { type: 'string', pattern: '^[^/]+/.+$', description: 'provider/model' },
    providers: { type: 'array', minItems: 1, items: { $ref: '#/$defs/provider' } },
    storageBackend: { enum: ['memory', 'file', 's3', 'postgres'] },
    sessionsDir: { type: 'string', minLength: 1 },
    agentDirs: { type: 'array', items: { type: 'string', minLength: 1 } },
    thinkingBudget: { type: 'integer', minimum: 0 },
    workerAgents: { type: 'array', items: { $ref: '#/$defs/workerAgent' } },
    mcpServers: { type: 'array', items: { $ref: '#/$defs/mcpServer' } },
    s3: {
      type: 'object',
      additionalProperties: false,
      required: ['region'],
      properties: {
        region: { type: 'string', minLength: 1 },
        endpoint: { type: 'string', pattern: '^https?://' },
        accessKeyId: { type: 'string', minLength: 1 },
        secretAccessKey: { type: 'string', minLength: 1 },
        sessionToken: { type: 'string', minLength: 1 },
        forcePathStyle: { type: 'boolean' },
        bucket: { type: 'string', minLength: 3 },
        prefix: { type: 'string' },
      },
    },
    postgres: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', pattern: '^postgres(ql)?://' },
      },
    },
    webSearch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultEngines: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        engines: { type: 'object', additionalProperties: { $ref: '#/$defs/searchEngine' } },
      },
    },
    // Session defaults: the session-options schema of core, the one declaration of their bounds.
    ...pick(sessionOptionsJsonSchema.properties, SESSION_DEFAULT_KEYS),
  },
  $defs: {
    searchEngine: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: { enum: ['duckduckgo', 'bing', 'brave'] },
        apiKey: { type: 'string' },
        baseUrl: { type: 'string', pattern: '^https?://' },
      },
    },
    provider: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, pattern: '^[^/]+$' },
        kind: { enum: ['anthropic', 'openai'] },
        apiKey: { type: 'string' },
        baseUrl: { type: 'string', pattern: '^https?://' },
        models: { type: 'array', items: { $ref: '#/$defs/model' } },
      },
    },
    model: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string' },
        toolCall: { type: 'boolean' },
        limit: {
          type: 'object',
          additionalProperties: false,
          properties: { context: { type: 'integer', minimum: 1 }, output: { type: 'integer', minimum: 1 } },
        },
      },
    },
    permissionPolicy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        allow: { type: 'array', items: { type: 'string' } },
        ask: { type: 'array', items: { type: 'string' } },
        deny: { type: 'array', items: { type: 'string' } },
        defaultDecision: { enum: ['allow', 'ask', 'deny'] },
      },
    },
    mcpServer: {
      type: 'object',
      required: ['name', 'transport'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,32}$' },
        transport: {
          type: 'object',
          required: ['type'],
          additionalProperties: false,
          properties: {
            type: { enum: ['stdio', 'http', 'streamable-http'] },
            command: { type: 'string', minLength: 1 },
            args: { type: 'array', items: { type: 'string' } },
            cwd: { type: 'string', minLength: 1 },
            // stdio only: run the server inside the OS sandbox (see McpStdioTransportConfig.sandbox).
            sandbox: {
              oneOf: [
                { type: 'boolean' },
                {
                  type: 'object',
                  additionalProperties: false,
                  properties: { network: { enum: ['none', 'full'] }, allowWrite: { type: 'array', items: { type: 'string', minLength: 1 } }, denyRead: { type: 'array', items: { type: 'string', minLength: 1 } } },
                },
              ],
            },
            url: { type: 'string', pattern: '^https?://' },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        timeoutMs: { type: 'integer', minimum: 1, maximum: 3600000 },
      },
    },
    workerAgent: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        kind: { enum: ['read_only', 'planner', 'implementer', 'verifier', 'reviewer', 'custom'] },
        model: { type: 'string', pattern: '^[^/]+/.+$' },
        maxSteps: { type: 'integer', minimum: 1 },
        prompt: { type: 'string' },
        permissions: { $ref: '#/$defs/permissionPolicy' },
        confirmationInheritance: { enum: ['auto_approve', 'deny_on_ask', 'inherit_parent'] },
      },
    },
  },
} as const;

/** Top-level keys {@link agentConfigJsonSchema} knows; others go to `AgentConfig.extensions`. */
export const AGENT_CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(agentConfigJsonSchema.properties));
