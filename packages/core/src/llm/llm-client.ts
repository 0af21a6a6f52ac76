import type { ToolDefinition } from '../tools/tool.js';

/** Token usage of one model response. */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
}

/** A part of a message's content. */
export type LlmContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mediaType: string; readonly data: string /* base64 */ }
  | { readonly type: 'reasoning'; readonly text: string; readonly signature?: string; readonly redacted?: boolean }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly input: unknown }
  | {
      readonly type: 'tool_result';
      readonly toolCallId: string;
      readonly content: string;
      readonly isError: boolean;
      readonly images?: readonly { readonly mediaType: string; readonly data: string }[];
    };

/** One message of the conversation. The system prompt is separate ({@link LlmRequest.system}). */
export interface LlmMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly LlmContentPart[];
}

/** One model request. */
export interface LlmRequest {
  readonly system: string;
  readonly messages: readonly LlmMessage[];
  readonly tools: readonly ToolDefinition[];
  /** Upper bound for the response, in tokens. */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Forces a tool call (`generate_object` in tool mode). */
  readonly toolChoice?: { readonly type: 'auto' } | { readonly type: 'any' } | { readonly type: 'tool'; readonly name: string };
}

/** Why the model stopped. */
export type LlmStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';

/**
 * Events of one streamed model response, in order. `attempt_start` opens every attempt; when a
 * provider retries after an established stream broke, a new `attempt_start` (attempt > 1)
 * follows and everything streamed by the abandoned attempt is provisional.
 */
export type LlmStreamEvent =
  | { readonly type: 'attempt_start'; readonly attempt: number; readonly retryReason?: string }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'reasoning_delta'; readonly text: string }
  | { readonly type: 'tool_call_start'; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly id: string; readonly partialJson: string }
  /**
   * A complete tool call. `input` is the parsed JSON; when the model produced invalid JSON,
   * `input` is `undefined` and `invalidInput` holds the raw text so the loop can return an error
   * result the model can recover from.
   */
  | { readonly type: 'tool_call_end'; readonly id: string; readonly name: string; readonly input: unknown; readonly invalidInput?: string }
  | { readonly type: 'message_end'; readonly stopReason: LlmStopReason; readonly usage: LlmUsage; readonly content: readonly LlmContentPart[] };

/** Per-call options of {@link LlmClient.stream}. */
export interface LlmCallOptions {
  readonly abortSignal?: AbortSignal;
  /** Deadline for the whole call including retries, ms. */
  readonly timeoutMs?: number;
}

/**
 * A model provider. Implementations: `@a3s-lab/code-anthropic`, `@a3s-lab/code-openai`.
 * Failures are thrown as CodeError `LLM_ERROR` with `details.status`, `details.retryable`
 * and, for rate limits, `details.retryAfterMs`.
 */
export interface LlmClient {
  /** Provider id, e.g. `anthropic`. */
  readonly provider: string;
  /** Model id, e.g. `claude-sonnet-4-20250514`. */
  readonly model: string;
  /** Streams one response, retrying transient failures internally (see `attempt_start`). */
  stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent>;
}
