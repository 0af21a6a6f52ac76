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
    storageBackend: { enum: ['memory', 'file', 's3'] },
    sessionsDir: { type: 'string', minLength: 1 },
    agentDirs: { type: 'array', items: { type: 'string', minLength: 1 } },
    skillDirs: { type: 'array', items: { type: 'string', minLength: 1 } },
    maxToolRounds: { type: 'integer', minimum: 1 },
    toolTimeoutMs: { type: 'integer', minimum: 1 },
    llmApiTimeoutMs: { type: 'integer', minimum: 1 },
    circuitBreakerThreshold: { type: 'integer', minimum: 1 },
    duplicateToolCallThreshold: { type: 'integer', minimum: 1 },
    manualDelegationEnabled: { type: 'boolean' },
    autoCompact: { type: 'boolean' },
    autoCompactThreshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    maxContextTokens: { type: 'integer', minimum: 1 },
    autoDelegation: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: { type: 'boolean' }, maxTasks: { type: 'integer', minimum: 1 } },
    },
    maxParallelTasks: { type: 'integer', minimum: 1 },
    autoParallel: { type: 'boolean' },
    planningMode: { enum: ['auto', 'enabled', 'disabled'] },
    permissionPolicy: { $ref: '#/$defs/permissionPolicy' },
    confirmationPolicy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        defaultTimeoutMs: { type: 'integer', minimum: 1 },
        timeoutAction: { enum: ['reject', 'auto_approve'] },
        yoloLanes: { type: 'array', items: { type: 'string' } },
      },
    },
    artifactStoreLimits: {
      type: 'object',
      additionalProperties: false,
      properties: { maxArtifacts: { type: 'integer', minimum: 1 }, maxBytes: { type: 'integer', minimum: 1 } },
    },
    retentionLimits: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    autoSave: { type: 'boolean' },
    thinkingBudget: { type: 'integer', minimum: 0 },
    workerAgents: { type: 'array', items: { $ref: '#/$defs/workerAgent' } },
    mcpServers: { type: 'array', items: { $ref: '#/$defs/mcpServer' } },
    webFetch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        allowHosts: { type: 'array', items: { type: 'string', minLength: 1 } },
        maxResponseBytes: { type: 'integer', minimum: 1024 },
        timeoutMs: { type: 'integer', minimum: 1, maximum: 600000 },
        maxRedirects: { type: 'integer', minimum: 0, maximum: 20 },
      },
    },
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
    webSearch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultEngines: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        engines: { type: 'object', additionalProperties: { $ref: '#/$defs/searchEngine' } },
      },
    },
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
