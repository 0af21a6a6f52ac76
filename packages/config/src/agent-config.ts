import type { SessionOptions, WebFetchOptions } from '@a3s-lab/code-core';
import type { SESSION_DEFAULT_KEYS } from './agent-config-schema.js';

/**
 * Wire protocol of a provider. `anthropic` speaks the Anthropic Messages API; `openai` speaks
 * OpenAI Chat Completions (OpenAI itself, vLLM, Ollama and every other compatible server).
 */
export type ProviderKind = 'anthropic' | 'openai';

/** Token limits of a model. */
export interface ModelLimitConfig {
  /** Context window in tokens. */
  readonly context?: number;
  /** Maximum output tokens per response. */
  readonly output?: number;
}

/**
 * A model declared under a provider: `models "gpt-4o" { tool_call = true }`. Keys the schema does
 * not know are kept (camelCased) for forward compatibility.
 */
export interface ModelConfig {
  /** Model id as the provider API expects it (the block label). */
  readonly id: string;
  /** Display name. */
  readonly name?: string;
  /** Whether the model supports tool calls. */
  readonly toolCall?: boolean;
  /** Token limits. */
  readonly limit?: ModelLimitConfig;
  readonly [key: string]: unknown;
}

/**
 * A provider: `providers "anthropic" { api_key = env("ANTHROPIC_API_KEY") ... }`. Keys the schema
 * does not know are kept (camelCased) for forward compatibility.
 */
export interface ProviderConfig {
  /** Provider name (the block label); the `provider` part of `provider/model`. */
  readonly name: string;
  /**
   * Wire protocol. Taken from an explicit `kind = "..."`, else from the name (`anthropic`,
   * `openai`), else `openai` when `base_url` is set (an OpenAI-compatible server).
   */
  readonly kind: ProviderKind;
  /** API key (`api_key` or `apiKey`). Absent when unset or when `env()` found nothing. */
  readonly apiKey?: string;
  /** Base URL of the API (`base_url` or `baseUrl`). Default: the provider's public endpoint. */
  readonly baseUrl?: string;
  /** Declared models, in source order. */
  readonly models: readonly ModelConfig[];
  readonly [key: string]: unknown;
}

/** `permission_policy { ... }`: default permission rules for sessions. */
export interface PermissionPolicyConfig {
  /** Rules that allow without asking, e.g. `read`, `bash(git *)`. */
  readonly allow?: readonly string[];
  /** Rules that ask for confirmation. */
  readonly ask?: readonly string[];
  /** Rules that deny. */
  readonly deny?: readonly string[];
  /** Decision when no rule matches. */
  readonly defaultDecision?: 'allow' | 'ask' | 'deny';
}

/** `confirmation_policy { ... }`: human-in-the-loop behaviour (the session option `confirmationPolicy`). */
export type ConfirmationPolicyConfig = NonNullable<SessionOptions['confirmationPolicy']>;

/** `worker_agents "name" { ... }`: a reproducible worker spec. */
export interface WorkerAgentConfig {
  /** Name used by the `task` tool (the block label). */
  readonly name: string;
  /** What the worker is for. */
  readonly description?: string;
  /** Role of the worker. */
  readonly kind?: 'read_only' | 'planner' | 'implementer' | 'verifier' | 'reviewer' | 'custom';
  /** `provider/model`; default: the session's model. */
  readonly model?: string;
  /** Step limit of a child run. */
  readonly maxSteps?: number;
  /** Extra system prompt. */
  readonly prompt?: string;
  /** Permission policy of the worker. */
  readonly permissions?: PermissionPolicyConfig;
  /** How child runs resolve Ask decisions (session default `auto_approve`). */
  readonly confirmationInheritance?: 'auto_approve' | 'deny_on_ask' | 'inherit_parent';
  readonly [key: string]: unknown;
}

/**
 * Session options that an `agent.acl` may set as defaults for every session (snake_case in the
 * file, camelCase here). A session's own options override them. Absent means "session default".
 */
export interface AgentSessionDefaults extends Pick<SessionOptions, (typeof SESSION_DEFAULT_KEYS)[number]> {
  /** Reasoning budget in tokens for models that support it. */
  readonly thinkingBudget?: number;
  /** Worker agents registered on every session. */
  readonly workerAgents?: readonly WorkerAgentConfig[];
}

/** `web_fetch { ... }`: defaults of the session option `webFetch`. */
export type WebFetchConfig = WebFetchOptions;

/** Kinds of `web_search` engines: two keyless (HTML, RSS) and one API engine. */
export type SearchEngineKind = 'duckduckgo' | 'bing' | 'brave';

/** `engines "name" { ... }` inside `web_search`. */
export interface SearchEngineConfig {
  /** Engine kind; default the block name when it is a kind. */
  readonly kind?: SearchEngineKind;
  /** API key (`brave`), e.g. `env("BRAVE_API_KEY")`. Sent in a header, never in the URL. */
  readonly apiKey?: string;
  /** Endpoint; default the engine's public one. */
  readonly baseUrl?: string;
}

/**
 * `s3 { region = "us-east-1"  endpoint = "http://127.0.0.1:9000"  access_key_id = env("AWS_ACCESS_KEY_ID")
 * secret_access_key = env("AWS_SECRET_ACCESS_KEY")  force_path_style = true  bucket = "sessions"  prefix = "a3s" }`:
 * the connection used by `storage_backend = "s3"` (sessions under `bucket`/`prefix`) and by
 * `s3://bucket/prefix` workspaces. Credentials omitted: the AWS SDK's default provider chain.
 */
export interface S3StorageConfig {
  readonly region: string;
  /** S3-compatible endpoint; omit for AWS S3. */
  readonly endpoint?: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
  /** Path-style URLs (MinIO, RustFS, R2). */
  readonly forcePathStyle?: boolean;
  /** Bucket of the session store (required with `storage_backend = "s3"`). */
  readonly bucket?: string;
  /** Key prefix of the session documents. Default `sessions`. */
  readonly prefix?: string;
}

/**
 * `postgres { url = env("DATABASE_URL") }`: the PostgreSQL server of `storage_backend = "postgres"`
 * (sessions in its `a3s_sessions` table, through `@a3s-lab/code-postgres`).
 */
export interface PostgresStorageConfig {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). */
  readonly url: string;
}

/** `web_search { default_engines = [...]  engines "duckduckgo" {} ... }`. */
export interface WebSearchConfig {
  /** Engines a call that names none uses. Default: the first configured engine. */
  readonly defaultEngines?: readonly string[];
  /** Engines by name. Default (no block): `duckduckgo` alone. */
  readonly engines?: Readonly<Record<string, SearchEngineConfig>>;
}

/**
 * `mcp_servers "github" { transport = { type = "stdio"  command = "npx"  args = [...] }  env = {...}
 * timeout_ms = 30000 }` (or `type = "streamable-http"  url = "..."  headers = {...}`): an MCP
 * server whose tools every session inherits read-only as `mcp__<name>__<tool>`. Connected by
 * `Agent.create()` through `@a3s-lab/code-mcp`.
 */
export interface McpServerEntryConfig {
  /** Server name (the block label): 1-32 letters, digits, `_` or `-`. */
  readonly name: string;
  /** How to reach the server. `env` and `headers` keys are kept verbatim. */
  readonly transport: {
    readonly type: 'stdio' | 'http' | 'streamable-http';
    /** stdio: program to run. */
    readonly command?: string;
    /** stdio: its arguments. */
    readonly args?: readonly string[];
    /** stdio: its working directory (relative to the config's directory). */
    readonly cwd?: string;
    /** HTTP: the MCP endpoint. */
    readonly url?: string;
    /** HTTP: extra request headers. */
    readonly headers?: Readonly<Record<string, string>>;
  };
  /** stdio: variables passed on purpose on top of the secret-stripped host environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Deadline of connecting, listing and each call in ms (default 60000). */
  readonly timeoutMs?: number;
}

/** The typed result of `loadAgentConfig`. */
export interface AgentConfig extends AgentSessionDefaults {
  /** Default model as `provider/model`; guaranteed to name a declared provider and model. */
  readonly defaultModel: string;
  /** Providers in source order. */
  readonly providers: readonly ProviderConfig[];
  /** Where sessions are stored by default. Default `memory`. `s3` needs an `s3 { bucket ... }` block, `postgres` a `postgres { url }` block. */
  readonly storageBackend: 'memory' | 'file' | 's3' | 'postgres';
  /** Absolute directory of the file session store. Default `.a3s/sessions` under the base directory. */
  readonly sessionsDir: string;
  /** Absolute agent directories. Default `[]`. */
  readonly agentDirs: readonly string[];
  /** Absolute skill directories. Default `[]`. */
  readonly skillDirs: readonly string[];
  /** MCP servers inherited by every session. Default `[]`. */
  readonly mcpServers: readonly McpServerEntryConfig[];
  /** `s3 { ... }`: the S3 connection of `storage_backend = "s3"` and `s3://` workspaces. */
  readonly s3?: S3StorageConfig;
  /** `postgres { ... }`: the PostgreSQL server of `storage_backend = "postgres"`. */
  readonly postgres?: PostgresStorageConfig;
  /** `web_search { ... }`: the search engines of `web_search`. */
  readonly webSearch?: WebSearchConfig;
  /** Absolute path of the config file, when the config came from a file. */
  readonly configFile?: string;
  /**
   * Top-level keys this build does not know (camelCased), kept for hosts and newer packages,
   * e.g. `queue { ... }` or `search { ... }`. Each also produced an `unknown_key` warning.
   */
  readonly extensions: Readonly<Record<string, unknown>>;
}
