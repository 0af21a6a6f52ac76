import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient } from '@a3s-lab/code-core';
import { LLM_PROVIDERS } from './llm-providers.js';

/**
 * Builds the model client for `provider/model` (default: the config's default model). `env` is
 * the agent's environment (`AgentCreateOptions.env`, default `process.env`).
 */
export type LlmClientFactory = (config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>) => LlmClient;

/**
 * The default factory: the provider of the model's `kind` in {@link LLM_PROVIDERS} (Anthropic
 * through @anthropic-ai/sdk, OpenAI and compatible servers through Chat Completions). API keys
 * and base URLs come from the config; a missing key falls back to the provider's usual variable
 * in the agent's environment, and without one and without a `base_url` it is a CONFIG_ERROR
 * naming the config before any request (against the real API it could only fail later, after
 * retries; a custom `base_url` — a proxy, a gateway, the scripted server — may not need one).
 */
export const createLlmClient: LlmClientFactory = (config, model, env = process.env) => {
  const resolved = resolveModel(config, model);
  const provider = resolved.providerConfig;
  const kind = LLM_PROVIDERS.get(provider.kind);
  if (kind === undefined) throw new CodeError('CONFIG_ERROR', `provider '${provider.name}' has an unsupported kind`, { details: { provider: provider.name } });
  const apiKey = provider.apiKey ?? env[kind.apiKeyEnv];
  if (apiKey === undefined && provider.baseUrl === undefined) {
    const where = config.configFile === undefined ? 'the inline config' : config.configFile;
    throw new CodeError('CONFIG_ERROR', `provider '${provider.name}' has no API key: set api_key in ${where} or the ${kind.apiKeyEnv} environment variable`, {
      details: { provider: provider.name, ...(config.configFile === undefined ? {} : { file: config.configFile }) },
    });
  }
  const output = resolved.modelConfig.limit?.output;
  return kind.createClient({
    model: resolved.modelConfig.id,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(provider.baseUrl === undefined ? {} : { baseUrl: provider.baseUrl }),
    ...(output === undefined ? {} : { maxTokens: output }),
  });
};

