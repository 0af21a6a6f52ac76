import type OpenAI from 'openai';
import { CodeError } from '@a3s-lab/code-core';
import type { LlmClient, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { classifyOpenAIError } from './classify-openai-error.js';
import { loadOpenAISdk } from './load-openai-sdk.js';
import type { OpenAISdkModule } from './load-openai-sdk.js';
import { OpenAIChunkMapper } from './openai-chunk-mapper.js';
import { createRetryingLlmClient, StreamInterruptedError } from '@a3s-lab/code-core/provider';
import type { OpenAIMaxTokensField } from './to-openai-request.js';
import { toOpenAIRequest } from './to-openai-request.js';

/** Options of {@link createOpenAIClient}. */
export interface OpenAIClientOptions {
  /**
   * API key. Required for api.openai.com: the client reads no environment variable itself (the
   * SDK's `createLlmClient` resolves `OPENAI_API_KEY` from the agent's environment). With a
   * custom `baseURL` and no key, a placeholder is sent (local servers such as vLLM or Ollama
   * ignore it).
   */
  readonly apiKey?: string;
  /** Base URL of an OpenAI-compatible server, e.g. `http://127.0.0.1:8000/v1`. Default: `https://api.openai.com/v1` (`OPENAI_BASE_URL` is not read). */
  readonly baseURL?: string;
  /** Model id, e.g. `gpt-4o`. */
  readonly model: string;
  /** Output limit for requests that do not set `maxTokens`. Default: not sent (the server decides). */
  readonly maxTokens?: number;
  /**
   * Body field carrying the output limit. Default: `max_completion_tokens` for api.openai.com
   * (required by reasoning models), `max_tokens` when `baseURL` is set (understood by every
   * compatible server).
   */
  readonly maxTokensField?: OpenAIMaxTokensField;
  /**
   * Retries after the first attempt for transient failures (408/409/429/5xx, network errors,
   * streams cut mid-way). Default 4. The SDK's own retries are disabled so every attempt is
   * visible as `attempt_start` and `retry-after` is honoured.
   */
  readonly maxRetries?: number;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** OpenAI organization id (`OpenAI-Organization` header). Default: `OPENAI_ORG_ID` if set. */
  readonly organization?: string;
  /** Custom `fetch` implementation (proxies, instrumentation). Default: global `fetch`. */
  readonly fetch?: typeof fetch;
}

const PROVIDER = 'openai';
// Sent instead of a key to keyless local servers: the SDK refuses to start without one.
const PLACEHOLDER_KEY = 'no-api-key';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

async function* runAttempt(sdk: OpenAI, body: ChatCompletionCreateParamsStreaming, signal: AbortSignal, bill: (usage: LlmUsage) => void): AsyncGenerator<LlmStreamEvent, void, undefined> {
  const stream = await sdk.chat.completions.create(body, { signal, maxRetries: 0 });
  const mapper = new OpenAIChunkMapper();
  try {
    try {
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        for (const event of mapper.push(chunk)) yield event;
      }
    } catch (error) {
      // After finish_reason the content is complete; only the trailing usage chunk may be lost.
      if (!mapper.completed) throw error;
    }
    // The SDK ends quietly when the body closes early (or on abort): the response is incomplete.
    if (!mapper.completed) throw new StreamInterruptedError('stream ended before finish_reason');
  } finally {
    // Usage a server reported before the attempt failed (vLLM's continuous usage stats) was
    // billed; the retry wrapper adds it to the final usage.
    const reported = mapper.reportedUsage();
    if (!mapper.completed && reported !== undefined) bill(reported);
  }
  yield* mapper.finish();
}

/**
 * Creates an {@link LlmClient} for the OpenAI Chat Completions protocol (OpenAI, vLLM, Ollama,
 * DeepSeek...) over the `openai` SDK: streaming text, reasoning (`reasoning_content` /
 * `reasoning`), tool calls reassembled by index, usage with cached tokens, retries that emit
 * `attempt_start`.
 *
 * Usage semantics follow core's convention: `inputTokens` excludes cached tokens
 * (`prompt_tokens - cached_tokens`), `cacheReadTokens` is `prompt_tokens_details.cached_tokens`.
 */
export function createOpenAIClient(options: OpenAIClientOptions): LlmClient {
  // No environment lookup here: the SDK layer resolves keys from the agent's environment, a
  // direct caller passes apiKey (the same for every provider).
  const apiKey = options.apiKey ?? (options.baseURL === undefined ? undefined : PLACEHOLDER_KEY);
  if (apiKey === undefined) {
    throw new CodeError('CONFIG_ERROR', 'OpenAI API key missing: pass apiKey (or a baseURL of a keyless server)', { details: { provider: PROVIDER, field: 'apiKey' } });
  }
  // The SDK is loaded (and its client built) on the first request, so importing this package or
  // configuring an unused provider costs nothing.
  let loaded: Promise<{ readonly module: OpenAISdkModule; readonly sdk: OpenAI }> | undefined;
  const load = () =>
    (loaded ??= loadOpenAISdk().then((module) => ({
      module,
      sdk: new module.default({
        apiKey,
        // Explicit values close the vendor SDK's own fallbacks to OPENAI_BASE_URL, OPENAI_ORG_ID
        // and OPENAI_PROJECT_ID: the client reads no environment variable.
        baseURL: options.baseURL ?? DEFAULT_BASE_URL,
        organization: options.organization ?? null,
        project: null,
        ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        maxRetries: 0,
      }),
    })));
  const secrets = [apiKey];
  const settings = {
    model: options.model,
    maxTokens: options.maxTokens,
    maxTokensField: options.maxTokensField ?? (options.baseURL === undefined ? 'max_completion_tokens' : 'max_tokens'),
  } as const;
  return createRetryingLlmClient({
    provider: PROVIDER,
    model: options.model,
    maxRetries: options.maxRetries,
    async prepareCall(request) {
      // Mapping errors (misplaced parts) surface here, before any request.
      const body = toOpenAIRequest(request, settings);
      const { module, sdk } = await load();
      return { attempt: (signal, _attempt, bill) => runAttempt(sdk, body, signal, bill), classify: (error) => classifyOpenAIError(error, secrets, module) };
    },
    // runAttempt reads the stream to `[DONE]` (the SDK then closes the body) or to its end before
    // it yields message_end: a consumer stopping there needs no abort, as with Anthropic.
    attemptsEndTheirRequest: true,
  });
}

