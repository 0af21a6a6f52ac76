import type { LlmStopReason } from '@a3s-lab/code-core';
import type { NormalizedResponse } from '../scenario/normalize-response.js';
import type { ScriptedError, ScriptedStreamError } from '../scenario/scripted-response.js';
import { namedEventFrame } from '../server/stream-frame.js';
import type { StreamFrame } from '../server/stream-frame.js';

const STOP_REASONS: Readonly<Record<LlmStopReason, string>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
  other: 'pause_turn',
};

/** Identity of one rendered message. */
export interface AnthropicRenderContext {
  readonly messageId: string;
  readonly model: string;
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Non-streaming answers carry parsed input; a scripted malformed input is handed over raw.
    return text;
  }
}

function usageJson(response: NormalizedResponse): Record<string, number> {
  return {
    input_tokens: response.usage.inputTokens,
    cache_creation_input_tokens: response.usage.cacheWriteTokens,
    cache_read_input_tokens: response.usage.cacheReadTokens,
    output_tokens: response.usage.outputTokens,
  };
}

/** The `content` array of an Anthropic message for `response`. */
function contentBlocks(response: NormalizedResponse): unknown[] {
  const blocks: unknown[] = [];
  if (response.redactedReasoning !== undefined) blocks.push({ type: 'redacted_thinking', data: response.redactedReasoning });
  if (response.reasoning.length > 0) {
    blocks.push({ type: 'thinking', thinking: response.reasoning.join(''), signature: response.reasoningSignature });
  }
  if (response.text.length > 0) blocks.push({ type: 'text', text: response.text.join('') });
  for (const call of response.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseOrRaw(call.arguments) });
  }
  return blocks;
}

/** A non-streaming `POST /v1/messages` response body. */
export function renderAnthropicMessage(response: NormalizedResponse, context: AnthropicRenderContext): unknown {
  return {
    id: context.messageId,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: contentBlocks(response),
    stop_reason: STOP_REASONS[response.stopReason],
    stop_sequence: null,
    usage: usageJson(response),
  };
}

/**
 * The SSE frames of a streaming `POST /v1/messages` response, in the order the real API sends
 * them: message_start, per block content_block_start / deltas / content_block_stop (a ping after
 * the first block start), message_delta, message_stop.
 */
export function renderAnthropicStream(
  response: NormalizedResponse,
  context: AnthropicRenderContext,
  streamError?: ScriptedStreamError,
): StreamFrame[] {
  const frames: StreamFrame[] = [];
  const usage = usageJson(response);
  frames.push(
    namedEventFrame('message_start', {
      type: 'message_start',
      message: {
        id: context.messageId,
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // The real API reports the full input usage up front and a placeholder output count.
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  );
  let index = 0;
  let pinged = false;
  const startBlock = (block: unknown): void => {
    frames.push(namedEventFrame('content_block_start', { type: 'content_block_start', index, content_block: block }));
    if (!pinged) {
      pinged = true;
      frames.push(namedEventFrame('ping', { type: 'ping' }));
    }
  };
  const delta = (payload: unknown): void => {
    frames.push(namedEventFrame('content_block_delta', { type: 'content_block_delta', index, delta: payload }));
  };
  const stopBlock = (): void => {
    frames.push(namedEventFrame('content_block_stop', { type: 'content_block_stop', index }));
    index += 1;
  };

  if (response.redactedReasoning !== undefined) {
    startBlock({ type: 'redacted_thinking', data: response.redactedReasoning });
    stopBlock();
  }
  if (response.reasoning.length > 0) {
    startBlock({ type: 'thinking', thinking: '', signature: '' });
    for (const piece of response.reasoning) delta({ type: 'thinking_delta', thinking: piece });
    delta({ type: 'signature_delta', signature: response.reasoningSignature });
    stopBlock();
  }
  if (response.text.length > 0) {
    startBlock({ type: 'text', text: '' });
    for (const piece of response.text) delta({ type: 'text_delta', text: piece });
    stopBlock();
  }
  response.toolCalls.forEach((call, callIndex) => {
    startBlock({ type: 'tool_use', id: call.id, name: call.name, input: {} });
    call.chunks.forEach((chunk, chunkIndex) => {
      const frame = namedEventFrame('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: chunk },
      });
      frames.push({ ...frame, toolInputChunk: { call: callIndex, chunk: chunkIndex, of: call.chunks.length } });
    });
    stopBlock();
  });
  frames.push(
    namedEventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: STOP_REASONS[response.stopReason], stop_sequence: null },
      // Cumulative totals, as the current API sends them; SDKs overwrite rather than add.
      usage,
    }),
  );
  frames.push(namedEventFrame('message_stop', { type: 'message_stop' }));

  if (streamError === undefined) return frames;
  const keep = Math.max(0, Math.min(streamError.afterEvents ?? 1, frames.length));
  return [
    ...frames.slice(0, keep),
    namedEventFrame('error', {
      type: 'error',
      error: { type: streamError.type ?? 'overloaded_error', message: streamError.message ?? 'Overloaded' },
    }),
  ];
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  billing_error: 'Your credit balance is too low',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  timeout_error: 'Request timed out',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

/** The JSON body of an Anthropic error response: `{"type":"error","error":{type,message},"request_id"}`. */
export function renderAnthropicError(error: ScriptedError, requestId: string): unknown {
  const type = error.type ?? ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
  return {
    type: 'error',
    error: { type, message: error.message ?? ERROR_MESSAGES[type] ?? 'Error' },
    request_id: requestId,
  };
}
