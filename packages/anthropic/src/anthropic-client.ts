import type AnthropicMessagesClient from './anthropic-sdk-entry.js';
import type { LlmClient, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import { CodeError } from '@a3s-lab/code-core';
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import { AnthropicRequestEncoder } from './anthropic-request-encoder.js';
import { AnthropicEventMapper } from './anthropic-event-mapper.js';
import { classifyAnthropicError } from './classify-anthropic-error.js';
import { loadAnthropicSdk } from './load-anthropic-sdk.js';
import type { AnthropicSdkModule } from './load-anthropic-sdk.js';
import { createRetryingLlmClient, StreamInterruptedError } from '@a3s-lab/code-core/provider';
import type { AnthropicThinking } from './to-anthropic-request.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** `max_tokens` sent when neither the request nor the client sets one. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /**
   * API key. Required for api.anthropic.com: the client reads no environment variable itself (the
   * SDK's `createLlmClient` resolves `ANTHROPIC_API_KEY` from the agent's environment, the same
   * way for every provider). With a `baseURL` (a proxy holding the credential, the scripted test
   * server) it may be omitted.
   */
  readonly apiKey?: string;
  /** API base URL, e.g. a proxy or the scripted test server. Default: `https://api.anthropic.com` (`ANTHROPIC_BASE_URL` is not read). */
  readonly baseURL?: string;
  /** Model id, e.g. `claude-sonnet-4-20250514`. */
  readonly model: string;
  /** `max_tokens` for requests that do not set `maxTokens`. Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS} (8192). */
  readonly maxTokens?: number;
  /**
   * Retries after the first attempt for transient failures (408/409/429/5xx/529, network
   * errors, streams cut mid-way). Default 4. The SDK's own retries are disabled so every attempt
   * is visible as `attempt_start` and `retry-after` is honoured.
   */
  readonly maxRetries?: number;
  /** Extra headers sent with every request (e.g. `anthropic-beta`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Custom `fetch` implementation (proxies, instrumentation). Default: global `fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Adds prompt-cache breakpoints (`cache_control: ephemeral`) on the last tool, the system
   * prompt and the last message, so each turn re-reads the previous turn's prefix. Default true.
   */
  readonly promptCaching?: boolean;
  /** Extended thinking sent with every request (`budgetTokens` must be below `maxTokens`). Default: not sent. */
  readonly thinking?: AnthropicThinking;
}

const PROVIDER = 'anthropic';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Sent to a keyless `baseURL` so that the vendor SDK does not look for a credential in the environment. */
const PLACEHOLDER_KEY = 'no-api-key';

/** A request body: pre-encoded JSON text, or the object `messages.create` encodes (see {@link sdkTracingObservable}). */
type RequestBody = { readonly json: string } | { readonly params: MessageCreateParamsStreaming };

const JSON_CONTENT = { 'content-type': 'application/json' } as const;
const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/**
 * Whether the vendor SDK's own OpenTelemetry instrumentation could record anything: an
 * OpenTelemetry API (any version) has registered a tracer provider or a propagator in this
 * process. Only then does a request go through `messages.create`, whose span and `traceparent`
 * header come from that registration; otherwise `create()` adds nothing to the wire that our
 * bodies need (no helper header: our blocks are plain objects), so the body goes, pre-encoded,
 * through the SDK's `post()`, and `create()`'s `JSON.stringify` of the whole conversation and
 * every tool schema (re-walked each turn) is skipped.
 */
function sdkTracingObservable(): boolean {
  const registered = (globalThis as Record<symbol, { readonly trace?: unknown; readonly propagation?: unknown } | undefined>)[OTEL_API_GLOBAL];
  return registered !== undefined && (registered.trace !== undefined || registered.propagation !== undefined);
}

function send(sdk: AnthropicMessagesClient, body: RequestBody, signal: AbortSignal): Promise<Stream<RawMessageStreamEvent>> {
  if ('params' in body) return sdk.messages.create(body.params, { signal, maxRetries: 0 });
  // The same request `messages.create` sends: a string body with a content-type passes through
  // the SDK verbatim; its headers, timeout and abort handling are the client's, as for create().
  return sdk.post<Stream<RawMessageStreamEvent>>('/v1/messages', { body: body.json, headers: JSON_CONTENT, stream: true, signal, maxRetries: 0 });
}

async function* runAttempt(sdk: AnthropicMessagesClient, body: RequestBody, signal: AbortSignal, bill: (usage: LlmUsage) => void): AsyncGenerator<LlmStreamEvent, void, undefined> {
  const stream = await send(sdk, body, signal);
  const events = (stream as AsyncIterable<RawMessageStreamEvent>)[Symbol.asyncIterator]();
  const mapper = new AnthropicEventMapper();
  let completed = false;
  try {
    for (let next = await events.next(); next.done !== true; next = await events.next()) {
      const mapped = mapper.push(next.value);
      if (mapper.completed) {
        completed = true;
        // Stop reading at message_stop: nothing after it matters, and a late socket error must not
        // turn a delivered response into a retry. The request is ended before message_end goes out,
        // so the consumer stopping there needs no abort (see attemptsEndTheirRequest).
        await endBody(events, stream.controller);
        yield* mapped;
        return;
      }
      yield* mapped;
    }
    // The SDK ends quietly when the body closes early (or on abort): the response is incomplete.
    throw new StreamInterruptedError('stream ended before message_stop');
  } finally {
    // An attempt that did not complete was still billed for what message_start reported; the
    // retry wrapper adds it to the final usage.
    if (!completed) bill(mapper.usageSoFar());
  }
}

/**
 * Ends the request after message_stop. Closing the SDK stream early (return()) aborts it: a
 * DOMException and a fetch body cancel on every model call. When the end of the body has already
 * arrived (servers end it right after message_stop, usually in the same read) it is read instead;
 * when it has not arrived by the next macrotask, the request is aborted as before. Never waits on
 * the network, never throws.
 */
async function endBody(events: AsyncIterator<RawMessageStreamEvent>, controller: AbortController): Promise<void> {
  let timer: ReturnType<typeof setImmediate> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setImmediate(() => resolve(true));
  });
  const drained = (async () => {
    try {
      while ((await events.next()).done !== true) {
        // events after message_stop carry nothing we use
      }
    } catch {
      // a late socket error after a delivered response is not a failure
    }
    return false;
  })();
  const isLate = await Promise.race([drained, late]);
  clearImmediate(timer);
  if (isLate) controller.abort();
}

/**
 * Creates an {@link LlmClient} for the Anthropic Messages API over `@anthropic-ai/sdk`,
 * streaming text, thinking and tool calls, with retries that emit `attempt_start`.
 *
 * Usage semantics: `inputTokens` excludes cached tokens (Anthropic's `input_tokens`);
 * `cacheReadTokens`/`cacheWriteTokens` are `cache_read_input_tokens`/`cache_creation_input_tokens`.
 * A `redacted_thinking` block is returned as a reasoning part with `redacted: true` whose opaque
 * data is in `signature`; pass the content back unchanged on the next request.
 */
export function createAnthropicClient(options: AnthropicClientOptions): LlmClient {
  // No environment lookup here (the vendor SDK's own fallback to ANTHROPIC_API_KEY /
  // ANTHROPIC_AUTH_TOKEN / ANTHROPIC_BASE_URL is closed by passing both explicitly): the SDK layer
  // resolves keys from the agent's environment, a direct caller passes apiKey.
  const apiKey = options.apiKey ?? (options.baseURL === undefined ? undefined : PLACEHOLDER_KEY);
  if (apiKey === undefined) {
    throw new CodeError('CONFIG_ERROR', 'Anthropic API key missing: pass apiKey (or a baseURL of a keyless server)', { details: { provider: PROVIDER, field: 'apiKey' } });
  }
  const secrets = [apiKey];
  // The SDK is loaded (and its client built) on the first request, so importing this package or
  // configuring an unused Anthropic provider costs nothing.
  let loaded: Promise<{ readonly module: AnthropicSdkModule; readonly sdk: AnthropicMessagesClient }> | undefined;
  const load = () =>
    (loaded ??= loadAnthropicSdk().then((module) => ({
      module,
      sdk: new module.default({
        apiKey,
        baseURL: options.baseURL ?? DEFAULT_BASE_URL,
        ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        maxRetries: 0,
      }),
    })));
  const settings = {
    model: options.model,
    maxTokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    promptCaching: options.promptCaching ?? true,
    thinking: options.thinking,
  };
  const encoder = new AnthropicRequestEncoder();
  return createRetryingLlmClient({
    provider: PROVIDER,
    model: options.model,
    maxRetries: options.maxRetries,
    async prepareCall(request) {
      // Mapping errors (bad image type, misplaced parts) surface here, before any request.
      const body: RequestBody = sdkTracingObservable() ? { params: toAnthropicRequest(request, settings) } : { json: encoder.encode(request, settings) };
      const { module, sdk } = await load();
      return { attempt: (signal, _attempt, bill) => runAttempt(sdk, body, signal, bill), classify: (error) => classifyAnthropicError(error, secrets, module) };
    },
    // runAttempt reads or aborts the body before it yields message_end.
    attemptsEndTheirRequest: true,
  });
}
