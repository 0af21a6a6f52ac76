import type { AgentConfig } from '@a3s-lab/code-config';
import type { LlmClient } from '@a3s-lab/code-core';
import type { LlmProviderClientOptions } from '@a3s-lab/code-core/provider';
import { resolveProviderClient } from './create-llm-client.js';
import type { ResolvedProviderClient } from './create-llm-client.js';

/** Resolves a model to its built-in provider and client options (default {@link resolveProviderClient}). */
export type ProviderClientResolver = (config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>) => ResolvedProviderClient;

/**
 * The built-in providers' clients of one agent, one per provider kind and resolved client
 * options (model id, key, base URL, output limit), built on first use and shared by every session
 * and subagent child that resolves to the same options. A client holds no session state: each
 * call's attempts, billed usage, abort signal and deadline live in that call; what it keeps is the
 * vendor SDK instance (built on its first request) and the request encoder's caches, which are
 * keyed by object identity through weak references, so sessions never see each other's entries.
 *
 * Resolution runs on every request for a client, so a key that changed in the agent's
 * environment, or a directory agent's merged config, gets a client of its own. A resolution
 * error (CONFIG_ERROR) is thrown each time and nothing is kept. {@link clear} (the agent's close)
 * drops the clients; after it, clients are still built (a child opened while sessions close) but
 * no longer kept.
 */
export class SharedLlmClients {
  readonly #clients = new Map<string, LlmClient>();
  readonly #resolve: ProviderClientResolver;
  #cleared = false;

  constructor(resolve: ProviderClientResolver = resolveProviderClient) {
    this.#resolve = resolve;
  }

  /** The client of `model` under `config` and `env`: the kept one, or a new one kept from now on. */
  client(config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>): LlmClient {
    const { provider, options } = this.#resolve(config, model, env);
    const key = clientKey(provider.kind, options);
    const known = this.#clients.get(key);
    if (known !== undefined) return known;
    const client = provider.createClient(options);
    if (!this.#cleared) this.#clients.set(key, client);
    return client;
  }

  /** Number of clients kept. */
  get size(): number {
    return this.#clients.size;
  }

  /** Drops every client; later ones are built but not kept. */
  clear(): void {
    this.#cleared = true;
    this.#clients.clear();
  }
}

/** One string for the kind and every option a provider's client is built from (`null` for an option not set). */
function clientKey(kind: string, options: LlmProviderClientOptions): string {
  // Every option by name: a new one fails to compile here until it is part of the key.
  const fields: Readonly<Record<keyof LlmProviderClientOptions, string | number | null>> = {
    model: options.model,
    apiKey: options.apiKey ?? null,
    baseUrl: options.baseUrl ?? null,
    maxTokens: options.maxTokens ?? null,
  };
  return JSON.stringify([kind, fields]);
}
