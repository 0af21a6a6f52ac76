import {
  renderAnthropicError,
  renderAnthropicMessage,
  renderAnthropicStream,
} from '../anthropic/render-anthropic.js';
import { renderOpenAiCompletion, renderOpenAiError, renderOpenAiStream } from '../openai/render-openai.js';
import type { NormalizedResponse } from '../scenario/normalize-response.js';
import type { ScriptedError, ScriptedStreamError } from '../scenario/scripted-response.js';
import type { RecordedRequest, WireProtocol } from './recorded-request.js';
import type { StreamFrame } from './stream-frame.js';

/** How one wire protocol renders responses and errors. */
export interface WireAdapter {
  /** Prefix of default tool call ids. */
  readonly toolIdPrefix: string;
  /** Error response body. */
  renderError(error: ScriptedError, requestId: string): unknown;
  /** Non-streaming response body. */
  renderBody(response: NormalizedResponse, request: RecordedRequest, turn: number): unknown;
  /** Streaming response frames. */
  renderStream(response: NormalizedResponse, request: RecordedRequest, turn: number, streamError?: ScriptedStreamError): StreamFrame[];
}

function requestedModel(request: RecordedRequest): string {
  const model = (request.body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'scripted-model';
}

function includeUsage(request: RecordedRequest): boolean {
  const options = (request.body as { stream_options?: { include_usage?: unknown } } | undefined)?.stream_options;
  return options?.include_usage === true;
}

// Fixed, so recorded transcripts are byte-identical across runs.
const CREATED_SECONDS = 1_700_000_000;

const anthropicAdapter: WireAdapter = {
  toolIdPrefix: 'toolu_scripted',
  renderError: (error, requestId) => renderAnthropicError(error, requestId),
  renderBody: (response, request, turn) =>
    renderAnthropicMessage(response, { messageId: `msg_scripted_${turn}`, model: requestedModel(request) }),
  renderStream: (response, request, turn, streamError) =>
    renderAnthropicStream(response, { messageId: `msg_scripted_${turn}`, model: requestedModel(request) }, streamError),
};

const openAiAdapter: WireAdapter = {
  toolIdPrefix: 'call_scripted',
  renderError: (error) => renderOpenAiError(error),
  renderBody: (response, request, turn) =>
    renderOpenAiCompletion(response, {
      completionId: `chatcmpl-scripted-${turn}`,
      model: requestedModel(request),
      created: CREATED_SECONDS,
      includeUsage: true,
    }),
  renderStream: (response, request, turn, streamError) =>
    renderOpenAiStream(
      response,
      {
        completionId: `chatcmpl-scripted-${turn}`,
        model: requestedModel(request),
        created: CREATED_SECONDS,
        includeUsage: includeUsage(request),
      },
      streamError,
    ),
};

/** The adapter of `protocol`. */
export function wireAdapter(protocol: WireProtocol): WireAdapter {
  return protocol === 'anthropic' ? anthropicAdapter : openAiAdapter;
}
