import type { LlmClient } from './llm-client.js';

/** What a provider's client is built from (resolved from the config and the agent's environment). */
export interface LlmProviderClientOptions {
  /** The model id the provider knows (`claude-sonnet-4-...`, `gpt-4o`). */
  readonly model: string;
  /** The key of the config, else of the agent environment's `apiKeyEnv`. */
  readonly apiKey?: string;
  /** The config's `base_url` (a proxy, a gateway, a compatible server). */
  readonly baseUrl?: string;
  /** The model's declared output limit. */
  readonly maxTokens?: number;
}

/**
 * A kind of model provider, as the SDK's provider registry holds it: how its clients are built.
 * An adapter package implements `createClient` over its vendor SDK (one attempt per call, run
 * through `createRetryingLlmClient` of this subpath, so that retries, billed usage of failed
 * attempts and hooks behave the same for every provider).
 */
export interface LlmProvider {
  /** The config's `kind` of provider (`providers "x" { kind = "openai" }`). */
  readonly kind: string;
  /** The environment variable its key is read from when the config sets none. */
  readonly apiKeyEnv: string;
  createClient(options: LlmProviderClientOptions): LlmClient;
}
