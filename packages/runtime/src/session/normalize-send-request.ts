import { CodeError } from '@a3s-lab/code-core';
import type { LlmContentPart, LlmMessage, SendRequest } from '@a3s-lab/code-core';
import { isTraceparent } from '../telemetry/traceparent.js';
import { validateMessages } from '@a3s-lab/code-core/kernel';
import { toBase64 } from './turn-loop.js';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Normalises `prompt | SendRequest`; SESSION_ERROR on malformed input. */
export function normalizeSendRequest(request: unknown): SendRequest {
  if (typeof request === 'string') return { prompt: request };
  if (typeof request !== 'object' || request === null) {
    throw new CodeError('SESSION_ERROR', 'send/stream expects a prompt string or { prompt, history?, attachments? }', { details: { field: 'request' } });
  }
  const r = request as Record<string, unknown>;
  if (typeof r['prompt'] !== 'string') throw new CodeError('SESSION_ERROR', "request.prompt must be a string", { details: { field: 'prompt' } });
  if (r['history'] !== undefined && !Array.isArray(r['history'])) throw new CodeError('SESSION_CONFIGURATION_ERROR', 'request.history must be an array of messages', { details: { field: 'history' } });
  if (r['attachments'] !== undefined) {
    if (!Array.isArray(r['attachments'])) throw new CodeError('SESSION_ERROR', 'request.attachments must be an array', { details: { field: 'attachments' } });
    r['attachments'].forEach((a: unknown, i: number) => {
      const att = a as Record<string, unknown> | null;
      if (typeof att !== 'object' || att === null || typeof att['mediaType'] !== 'string' || !IMAGE_TYPES.has(att['mediaType'])) {
        throw new CodeError('SESSION_ERROR', `attachments[${i}].mediaType must be one of ${[...IMAGE_TYPES].join(', ')}`, { details: { field: `attachments[${i}].mediaType` } });
      }
      if (!(att['data'] instanceof Uint8Array) && typeof att['data'] !== 'string') {
        throw new CodeError('SESSION_ERROR', `attachments[${i}].data must be bytes or base64 text`, { details: { field: `attachments[${i}].data` } });
      }
    });
  }
  if (r['traceparent'] !== undefined && (typeof r['traceparent'] !== 'string' || !isTraceparent(r['traceparent']))) {
    throw new CodeError('SESSION_ERROR', "request.traceparent must be a W3C traceparent ('00-<32 hex>-<16 hex>-<2 hex>')", { details: { field: 'traceparent' } });
  }
  const journal = r['journal'];
  if (journal !== undefined && (typeof journal !== 'object' || journal === null || typeof (journal as { runId?: unknown }).runId !== 'string' || typeof (journal as { toolCall?: unknown }).toolCall !== 'function')) {
    throw new CodeError('SESSION_ERROR', 'request.journal must be a RunJournal (runId, modelResponse, toolCall, ...)', { details: { field: 'journal' } });
  }
  if (r['history'] === undefined) return request as SendRequest;
  // `{role, content: 'text'}` is the common shorthand; checked whole before anything runs.
  const history = (r['history'] as unknown[]).map((m) => {
    if (typeof m !== 'object' || m === null) return m;
    const message = m as Record<string, unknown>;
    return typeof message['content'] === 'string' ? { ...message, content: [{ type: 'text', text: message['content'] }] } : message;
  });
  return { ...(request as SendRequest), history: validateMessages(history, 'history') };
}

/** The user message of a request. */
export function toUserMessage(request: SendRequest): LlmMessage {
  const content: LlmContentPart[] = [];
  for (const a of request.attachments ?? []) {
    content.push({ type: 'image', mediaType: a.mediaType, data: typeof a.data === 'string' ? a.data : toBase64(a.data) });
  }
  content.push({ type: 'text', text: request.prompt });
  return { role: 'user', content };
}
