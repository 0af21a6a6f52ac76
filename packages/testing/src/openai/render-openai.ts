import type { LlmStopReason } from '@a3s-lab/code-core';
import type { NormalizedResponse } from '../scenario/normalize-response.js';
import type { ScriptedError, ScriptedStreamError } from '../scenario/scripted-response.js';
import { dataFrame } from '../server/stream-frame.js';
import type { StreamFrame } from '../server/stream-frame.js';

const FINISH_REASONS: Readonly<Record<LlmStopReason, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
  other: 'function_call',
};

/** Identity of one rendered chat completion. */
export interface OpenAiRenderContext {
  readonly completionId: string;
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
  /** Whether the request set `stream_options.include_usage`. */
  readonly includeUsage: boolean;
}

const SYSTEM_FINGERPRINT = 'fp_scripted';

function usageJson(response: NormalizedResponse): Record<string, unknown> {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = response.usage;
  // OpenAI counts cached tokens inside prompt_tokens; core (Anthropic) semantics keep them apart.
  const promptTokens = inputTokens + cacheReadTokens + cacheWriteTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: outputTokens,
    total_tokens: promptTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

// The usage of a chunk before the last one when scripted to report it all along.
function runningUsageJson(response: NormalizedResponse): Record<string, unknown> {
  const usage = usageJson(response);
  return { ...usage, completion_tokens: 1, total_tokens: Number(usage['prompt_tokens']) + 1 };
}

/** A non-streaming `POST /v1/chat/completions` response body. */
export function renderOpenAiCompletion(response: NormalizedResponse, context: OpenAiRenderContext): unknown {
  const text = response.text.join('');
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' ? null : text,
    refusal: null,
    annotations: [],
  };
  if (response.reasoning.length > 0) message['reasoning_content'] = response.reasoning.join('');
  if (response.toolCalls.length > 0) {
    message['tool_calls'] = response.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: context.completionId,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH_REASONS[response.stopReason] }],
    usage: usageJson(response),
  };
}

/**
 * The SSE frames of a streaming chat completion: a role chunk, reasoning / content / tool_calls
 * deltas, a finish chunk, the usage chunk (`choices: []`) when `include_usage` was requested,
 * then `data: [DONE]`.
 */
export function renderOpenAiStream(
  response: NormalizedResponse,
  context: OpenAiRenderContext,
  streamError?: ScriptedStreamError,
): StreamFrame[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> => ({
    id: context.completionId,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage every chunk carries `usage: null` except the last one (unless scripted
    // to report it all along, prompt in full and 1 completion token).
    ...(context.includeUsage ? { usage: response.usageInEveryChunk ? runningUsageJson(response) : null } : {}),
  });
  const frames: StreamFrame[] = [dataFrame(chunk({ role: 'assistant', content: '', refusal: null }))];
  for (const piece of response.reasoning) frames.push(dataFrame(chunk({ reasoning_content: piece })));
  for (const piece of response.text) frames.push(dataFrame(chunk({ content: piece })));
  response.toolCalls.forEach((call, callIndex) => {
    frames.push(
      dataFrame(
        chunk({ tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
      ),
    );
    call.chunks.forEach((piece, chunkIndex) => {
      const frame = dataFrame(chunk({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] }));
      frames.push({ ...frame, toolInputChunk: { call: callIndex, chunk: chunkIndex, of: call.chunks.length } });
    });
  });
  frames.push(dataFrame(chunk({}, FINISH_REASONS[response.stopReason])));
  if (context.includeUsage) {
    frames.push(
      dataFrame({
        id: context.completionId,
        object: 'chat.completion.chunk',
        created: context.created,
        model: context.model,
        system_fingerprint: SYSTEM_FINGERPRINT,
        choices: [],
        usage: usageJson(response),
      }),
    );
  }
  frames.push({ text: 'data: [DONE]\n\n' });

  if (streamError === undefined) return frames;
  const keep = Math.max(0, Math.min(streamError.afterEvents ?? 1, frames.length - 1));
  return [
    ...frames.slice(0, keep),
    dataFrame({
      error: {
        message: streamError.message ?? 'Overloaded',
        type: streamError.type ?? 'server_error',
        param: null,
        code: null,
      },
    }),
  ];
}

interface OpenAiErrorShape {
  readonly type: string;
  readonly code: string | null;
  readonly message: string;
}

function defaultErrorShape(status: number): OpenAiErrorShape {
  switch (status) {
    case 400:
      return { type: 'invalid_request_error', code: null, message: 'Invalid request' };
    case 401:
      return { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' };
    case 403:
      return { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden' };
    case 404:
      return { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' };
    case 429:
      return { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' };
    default:
      return status >= 500
        ? { type: 'server_error', code: null, message: 'The server had an error while processing your request.' }
        : { type: 'invalid_request_error', code: null, message: 'Invalid request' };
  }
}

/** The JSON body of an OpenAI error response: `{"error":{message,type,param,code}}`. */
export function renderOpenAiError(error: ScriptedError): unknown {
  const shape = defaultErrorShape(error.status);
  return {
    error: {
      message: error.message ?? shape.message,
      type: error.type ?? shape.type,
      param: null,
      code: error.type ?? shape.code,
    },
  };
}
