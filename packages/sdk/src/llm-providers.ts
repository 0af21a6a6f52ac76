import { createAnthropicClient } from '@a3s-lab/code-anthropic';
import type { LlmProvider, LlmProviderClientOptions } from '@a3s-lab/code-core/provider';
import { createOpenAIClient } from '@a3s-lab/code-openai';

/**
 * The providers the SDK builds clients for, by kind. Every provider gets the same treatment from
 * `createLlmClient`: the key from the config or the agent's environment (never `process.env`
 * behind the agent's back), and a missing key without a `base_url` refused before any request.
 * A new provider is one adapter package and one entry here (and its kind in the config schema).
 */
export const LLM_PROVIDERS: ReadonlyMap<string, LlmProvider> = new Map(
  [
    {
      kind: 'anthropic',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      createClient: (o: LlmProviderClientOptions) =>
        createAnthropicClient({ model: o.model, ...(o.apiKey === undefined ? {} : { apiKey: o.apiKey }), ...(o.baseUrl === undefined ? {} : { baseURL: o.baseUrl }), ...(o.maxTokens === undefined ? {} : { maxTokens: o.maxTokens }) }),
    },
    {
      // OpenAI and every Chat Completions server (vLLM, Ollama...).
      kind: 'openai',
      apiKeyEnv: 'OPENAI_API_KEY',
      createClient: (o: LlmProviderClientOptions) =>
        createOpenAIClient({ model: o.model, ...(o.apiKey === undefined ? {} : { apiKey: o.apiKey }), ...(o.baseUrl === undefined ? {} : { baseURL: openAiBaseUrl(o.baseUrl) }), ...(o.maxTokens === undefined ? {} : { maxTokens: o.maxTokens }) }),
    },
  ].map((provider) => [provider.kind, provider] as const),
);

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
