import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient } from '@a3s-lab/code-core';
import type { LlmProvider, LlmProviderClientOptions } from '@a3s-lab/code-core/provider';
import { LLM_PROVIDERS } from './llm-providers.js';

/**
 * Builds the model client for `provider/model` (default: the config's default model). `env` is
 * the agent's environment (`AgentCreateOptions.env`, default `process.env`).
 */
export type LlmClientFactory = (config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>) => LlmClient;

/** A built-in provider and what its client of one model is built from. */
export interface ResolvedProviderClient {
  readonly provider: LlmProvider;
  readonly options: LlmProviderClientOptions;
}

/**
 * The built-in provider of `model` and its client's options: the key from the config, else from
 * the provider's usual variable in `env`. CONFIG_ERROR for an unsupported kind, or for a missing
 * key without a `base_url` (see {@link createLlmClient}).
 */
export function resolveProviderClient(config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>): ResolvedProviderClient {
  const resolved = resolveModel(config, model);
  const providerConfig = resolved.providerConfig;
  const provider = LLM_PROVIDERS.get(providerConfig.kind);
  if (provider === undefined) throw new CodeError('CONFIG_ERROR', `provider '${providerConfig.name}' has an unsupported kind`, { details: { provider: providerConfig.name } });
  const apiKey = providerConfig.apiKey ?? env[provider.apiKeyEnv];
  if (apiKey === undefined && providerConfig.baseUrl === undefined) {
    const where = config.configFile === undefined ? 'the inline config' : config.configFile;
    throw new CodeError('CONFIG_ERROR', `provider '${providerConfig.name}' has no API key: set api_key in ${where} or the ${provider.apiKeyEnv} environment variable`, {
      details: { provider: providerConfig.name, ...(config.configFile === undefined ? {} : { file: config.configFile }) },
    });
  }
  const output = resolved.modelConfig.limit?.output;
  return {
    provider,
    options: {
      model: resolved.modelConfig.id,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(providerConfig.baseUrl === undefined ? {} : { baseUrl: providerConfig.baseUrl }),
      ...(output === undefined ? {} : { maxTokens: output }),
    },
  };
}

/**
 * The default factory: the provider of the model's `kind` in {@link LLM_PROVIDERS} (Anthropic
 * through @anthropic-ai/sdk, OpenAI and compatible servers through Chat Completions). API keys
 * and base URLs come from the config; a missing key falls back to the provider's usual variable
 * in the agent's environment, and without one and without a `base_url` it is a CONFIG_ERROR
 * naming the config before any request (against the real API it could only fail later, after
 * retries; a custom `base_url` — a proxy, a gateway, the scripted server — may not need one).
 *
 * An `Agent` using this factory (no `llmClientFactory`, or this one) builds one client per
 * provider settings and model and shares it among its sessions; a host's own factory is called
 * for every session (and every subagent child).
 */
export const createLlmClient: LlmClientFactory = (config, model, env = process.env) => {
  const { provider, options } = resolveProviderClient(config, model, env);
  return provider.createClient(options);
};
