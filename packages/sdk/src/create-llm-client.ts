import { createAnthropicClient } from '@a3s-lab/code-anthropic';
import { resolveModel } from '@a3s-lab/code-config';
import type { AgentConfig } from '@a3s-lab/code-config';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient } from '@a3s-lab/code-core';
import { createOpenAIClient } from '@a3s-lab/code-openai';

/**
 * Builds the model client for `provider/model` (default: the config's default model). `env` is
 * the agent's environment (`AgentCreateOptions.env`, default `process.env`).
 */
export type LlmClientFactory = (config: AgentConfig, model: string, env: Readonly<Record<string, string | undefined>>) => LlmClient;

/**
 * The default factory: Anthropic providers use @anthropic-ai/sdk, every other provider the
 * OpenAI Chat Completions protocol (OpenAI, vLLM, Ollama...). API keys and base URLs come from
 * the config; a missing key falls back to the provider's usual environment variable.
 */
export const createLlmClient: LlmClientFactory = (config, model, env = process.env) => {
  const resolved = resolveModel(config, model);
  const provider = resolved.providerConfig;
  const output = resolved.modelConfig.limit?.output;
  if (provider.kind === 'anthropic') {
    const apiKey = provider.apiKey ?? env['ANTHROPIC_API_KEY'];
    // Against the real API a missing key can only fail later, after retries: say so now. A custom
    // base_url (a proxy, a gateway, the scripted server) may not need one.
    if (apiKey === undefined && provider.baseUrl === undefined) {
      const where = config.configFile === undefined ? 'the inline config' : config.configFile;
      throw new CodeError('CONFIG_ERROR', `provider '${provider.name}' has no API key: set api_key in ${where} or the ANTHROPIC_API_KEY environment variable`, {
        details: { provider: provider.name, ...(config.configFile === undefined ? {} : { file: config.configFile }) },
      });
    }
    return createAnthropicClient({
      model: resolved.modelConfig.id,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(provider.baseUrl === undefined ? {} : { baseURL: provider.baseUrl }),
      ...(output === undefined ? {} : { maxTokens: output }),
    });
  }
  if (provider.kind === 'openai') {
    const apiKey = provider.apiKey ?? env['OPENAI_API_KEY'];
    return createOpenAIClient({
      model: resolved.modelConfig.id,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(provider.baseUrl === undefined ? {} : { baseURL: openAiBaseUrl(provider.baseUrl) }),
      ...(output === undefined ? {} : { maxTokens: output }),
    });
  }
  throw new CodeError('CONFIG_ERROR', `provider '${provider.name}' has an unsupported kind`, { details: { provider: provider.name } });
};

/**
 * The OpenAI-compatible base URL as the client needs it: a `base_url` without a path
 * (`http://host:8000`, the original package's convention) gets `/v1`; any other path is used as
 * written (`http://host:8000/v1`, `https://gateway/openai/v1`).
 */
export function openAiBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.pathname === '' || url.pathname === '/') return `${url.origin}/v1`;
  } catch {
    // Not a URL: the client reports it.
  }
  return baseUrl;
}
