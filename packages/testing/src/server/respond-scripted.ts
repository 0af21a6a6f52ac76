import type { ServerResponse } from 'node:http';
import { CodeError } from '@a3s-lab/code-core';
import { normalizeResponse } from '../scenario/normalize-response.js';
import type { ScriptedError, ScriptedResponse } from '../scenario/scripted-response.js';
import type { RecordedRequest } from './recorded-request.js';
import { isGone, pause, writeJson, writeStream, writeThenCut } from './response-writer.js';
import { framesBeforeMidToolInputCut } from './stream-frame.js';
import { wireAdapter } from './wire-adapter.js';

/** What {@link respondScripted} needs besides the request. */
export interface RespondContext {
  /** Server-wide model request counter; makes message and tool call ids unique per server. */
  readonly turn: number;
  /** Headers sent with every response (`request-id`, `x-request-id`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborted when the server closes. */
  readonly signal: AbortSignal;
  /** Registers a request that is never answered, so `close()` can drop it. */
  readonly hold: (response: ServerResponse) => void;
  /** Reports a scenario that cannot be rendered as written. */
  readonly report: (error: CodeError) => void;
}

/** Headers of an error response: retry hints in both forms the official SDKs read. */
function errorHeaders(error: ScriptedError, base: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = { ...base };
  if (error.retryAfterMs !== undefined) {
    headers['retry-after-ms'] = String(error.retryAfterMs);
    headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfterMs / 1000)));
  }
  if (error.shouldRetry !== undefined) headers['x-should-retry'] = String(error.shouldRetry);
  return headers;
}

/** Answers a model request with an HTTP error in the request's protocol. */
export function respondError(
  response: ServerResponse,
  request: RecordedRequest,
  error: ScriptedError,
  headers: Readonly<Record<string, string>>,
): void {
  const requestId = headers['request-id'] ?? '';
  writeJson(response, error.status, wireAdapter(request.protocol).renderError(error, requestId), errorHeaders(error, headers));
}

function misconfigured(response: ServerResponse, request: RecordedRequest, context: RespondContext, message: string, details: Record<string, unknown>): void {
  context.report(new CodeError('CONFIG_ERROR', message, { details }));
  // A scenario bug must fail the test fast, not be retried by the client under test.
  respondError(response, request, { status: 500, message: `scripted model server: ${message}`, shouldRetry: false }, context.headers);
}

/** Renders `scripted` to the protocol of `request` and writes it, applying every scripted fault. */
export async function respondScripted(
  response: ServerResponse,
  request: RecordedRequest,
  scripted: ScriptedResponse,
  context: RespondContext,
): Promise<void> {
  if (scripted.hang === true) {
    context.hold(response);
    return;
  }
  await pause(scripted.latencyMs ?? 0, context.signal);
  if (isGone(response) || context.signal.aborted) return;

  if (scripted.error !== undefined) {
    const status = scripted.error.status;
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      misconfigured(response, request, context, 'error.status must be an integer in 400..599', { status, scenarioIndex: request.scenarioIndex });
      return;
    }
    respondError(response, request, scripted.error, context.headers);
    return;
  }

  const adapter = wireAdapter(request.protocol);
  const normalized = normalizeResponse(scripted, {
    turn: context.turn,
    toolIdPrefix: adapter.toolIdPrefix,
    requestBytes: request.rawBytes.length,
  });

  if (!request.stream) {
    const body = adapter.renderBody(normalized, request, context.turn);
    if (scripted.cutAfterEvents === undefined && scripted.cutMidToolInput !== true) {
      writeJson(response, 200, body, context.headers);
      return;
    }
    // Announce the full length, then break off halfway: the client sees a truncated body.
    const bytes = Buffer.from(JSON.stringify(body));
    response.writeHead(200, { ...context.headers, 'content-type': 'application/json', 'content-length': String(bytes.length) });
    await writeThenCut(response, bytes.subarray(0, Math.floor(bytes.length / 2)));
    return;
  }

  const frames = adapter.renderStream(normalized, request, context.turn, scripted.streamError);
  let cutAfter = scripted.cutAfterEvents;
  if (cutAfter === undefined && scripted.cutMidToolInput === true) {
    cutAfter = framesBeforeMidToolInputCut(frames);
    if (cutAfter === undefined) {
      misconfigured(response, request, context, 'cutMidToolInput needs a tool call with non-empty input', {
        scenarioIndex: request.scenarioIndex,
      });
      return;
    }
  }
  response.writeHead(200, {
    ...context.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  await writeStream(response, frames, { chunkDelayMs: scripted.chunkDelayMs ?? 0, cutAfter, signal: context.signal });
}
