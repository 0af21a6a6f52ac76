import type { LlmStopReason } from '@a3s-lab/code-core';
import type { RecordedRequest } from '../server/recorded-request.js';

/**
 * Token usage reported for one scripted response. Semantics follow core's `LlmUsage`
 * (Anthropic's): `inputTokens` excludes cached tokens. The OpenAI rendering reports
 * `prompt_tokens = inputTokens + cacheReadTokens + cacheWriteTokens` and
 * `prompt_tokens_details.cached_tokens = cacheReadTokens`.
 */
export interface ScriptedUsage {
  /** Uncached input tokens. */
  readonly inputTokens: number;
  /** Generated tokens. */
  readonly outputTokens: number;
  /** Tokens read from the prompt cache. Default 0. */
  readonly cacheReadTokens?: number;
  /** Tokens written to the prompt cache. Default 0. */
  readonly cacheWriteTokens?: number;
}

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  /**
   * Call id. Default: `toolu_scripted_<turn>_<i>` (Anthropic) or `call_scripted_<turn>_<i>`
   * (OpenAI), so ids are deterministic across runs.
   */
  readonly id?: string;
  /** Tool name as the model would emit it. */
  readonly name: string;
  /** Tool arguments; serialised with `JSON.stringify`. Ignored when `rawInput` is set. */
  readonly input?: unknown;
  /**
   * The exact argument text to stream, possibly malformed JSON (to test recovery from invalid
   * tool input). Takes precedence over `input`.
   */
  readonly rawInput?: string;
}

/** An HTTP error the server answers with instead of a model response. */
export interface ScriptedError {
  /** HTTP status, e.g. 400, 401, 429, 500, 529. */
  readonly status: number;
  /**
   * Sent as both `retry-after-ms` (exact) and `retry-after` (whole seconds, rounded up), the two
   * headers the official SDKs honour. Default: no retry headers.
   */
  readonly retryAfterMs?: number;
  /** Human-readable message in the error body. Default: a canned message per status. */
  readonly message?: string;
  /**
   * Error `type` in the body. Default per status and protocol, e.g. Anthropic 429
   * `rate_limit_error`, 529 `overloaded_error`; OpenAI 429 type `requests` with code
   * `rate_limit_exceeded` (a given `type` is used as the OpenAI `code` too).
   */
  readonly type?: string;
  /** Sends `x-should-retry: true|false`, which both official SDKs obey. Default: not sent. */
  readonly shouldRetry?: boolean;
}

/** An error event sent INSIDE an established SSE stream (Anthropic `event: error`, OpenAI `data: {"error":…}`). */
export interface ScriptedStreamError {
  /** Number of stream events written before the error event. Default 1 (right after `message_start`). */
  readonly afterEvents?: number;
  /** Error type. Default `overloaded_error`. */
  readonly type?: string;
  /** Error message. Default `Overloaded`. */
  readonly message?: string;
}

/**
 * One scripted model response, protocol-neutral: the server renders it to whichever wire
 * protocol the client called (Anthropic Messages or OpenAI Chat Completions), streaming or not.
 *
 * Content fields (`reasoning`, `text`, `toolCalls`) are emitted in that order. Fault fields
 * (`error`, `hang`, `cutAfterEvents`, `cutMidToolInput`, `streamError`) change how it is
 * delivered.
 */
export interface ScriptedResponse {
  /** Assistant text. A string is one delta; an array is streamed as one delta per element. */
  readonly text?: string | readonly string[];
  /**
   * Reasoning text (Anthropic `thinking` block with `thinking_delta`s; OpenAI-compatible
   * `delta.reasoning_content`, the vLLM / DeepSeek convention). A string array streams one delta per element.
   */
  readonly reasoning?: string | readonly string[];
  /** Signature of the thinking block (Anthropic `signature_delta`). Default: a deterministic `sig_scripted_<turn>`. */
  readonly reasoningSignature?: string;
  /** Opaque data of an Anthropic `redacted_thinking` block emitted before everything else. Not rendered for OpenAI. */
  readonly redactedReasoning?: string;
  /** Tool calls, in order. */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /**
   * Why the model stopped. Default: `tool_use` when there are tool calls, else `end_turn`.
   * OpenAI finish_reason mapping: end_turn/stop_sequence -> `stop`, tool_use -> `tool_calls`,
   * max_tokens -> `length`, refusal -> `content_filter`, other -> `function_call`.
   * Anthropic maps `other` to `pause_turn`.
   */
  readonly stopReason?: LlmStopReason;
  /**
   * Usage. Default: `inputTokens = ceil(requestBytes / 4)`, `outputTokens = ceil(outputChars / 4)`
   * (at least 1), no cache tokens — so context grows realistically over a session.
   */
  readonly usage?: ScriptedUsage;
  /**
   * OpenAI streams only: every chunk carries the usage (the prompt's tokens in full, 1 completion
   * token until the final usage chunk, like Anthropic's `message_start`), as vLLM does with
   * continuous usage stats. Default false: only the last chunk has it.
   */
  readonly usageInEveryChunk?: boolean;
  /** Number of chunks each tool call's argument JSON is split into. Default 3 (fewer when shorter). */
  readonly toolInputChunks?: number;
  /** Answer with this HTTP error instead (content fields are ignored). */
  readonly error?: ScriptedError;
  /** Delay before the response headers, ms. Default 0. */
  readonly latencyMs?: number;
  /** Delay between stream events, ms. Default 0 (the whole stream is written at once). */
  readonly chunkDelayMs?: number;
  /**
   * Destroy the socket after this many stream events (counting every SSE event, pings
   * included). For a non-streaming request the body is cut in the middle instead.
   */
  readonly cutAfterEvents?: number;
  /**
   * Destroy the socket in the middle of the first tool call's argument stream, after about half
   * of its `input_json_delta` (Anthropic) / `arguments` (OpenAI) chunks. Needs a tool call.
   */
  readonly cutMidToolInput?: boolean;
  /** Send an in-stream error event, then end the stream. Streaming requests only. */
  readonly streamError?: ScriptedStreamError;
  /** Never answer: the request stays open until the client gives up or the server closes. */
  readonly hang?: boolean;
}

/** Builds the response to a model request dynamically; `index` counts model requests, from 0. */
export type ScenarioFunction = (request: RecordedRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>;

/**
 * What the server answers with: a list consumed one entry per model request, in order, or a
 * function called for every model request.
 */
export type Scenario = readonly ScriptedResponse[] | ScenarioFunction;
