import { CodeError } from '../errors/code-error.js';
import type { LlmContentPart, LlmMessage } from '../llm/llm-client.js';
import type { VerificationSummary } from '../verification/verification-summary.js';
import { isTraceparent } from '../telemetry/traceparent.js';
import { validateMessages } from './conversation.js';
import { toBase64 } from './turn-loop.js';
import type { RunJournal } from '../journal/run-journal.js';

/** An attachment sent with a prompt (images). */
export interface Attachment {
  /** Raw bytes (Uint8Array / Buffer) or base64 text. */
  readonly data: Uint8Array | string;
  /** IANA media type, e.g. `image/png`. */
  readonly mediaType: string;
}

/** Object form of a `send` / `stream` request. */
export interface SendRequest {
  readonly prompt: string;
  /** Replaces the session's conversation before this prompt. */
  readonly history?: readonly LlmMessage[];
  readonly attachments?: readonly Attachment[];
  /**
   * W3C `traceparent` of the caller (`00-<trace id>-<span id>-<flags>`): the run's
   * `invoke_agent` span becomes its child (default: the host's active OpenTelemetry context).
   */
  readonly traceparent?: string;
  /**
   * Durable runs (a fleet): the run's journal. Every model response, tool call start and outcome
   * and confirmation of this run is recorded in it before the next step begins, and a step already
   * recorded (an earlier attempt of the same run, on any process) is replayed from it instead of
   * running again. Default none.
   */
  readonly journal?: RunJournal;
}

/** What `send` resolves with (and `stream().result`). */
export interface SendResult {
  /** The final assistant text. */
  readonly text: string;
  readonly runId: string;
  readonly toolCallsCount: number;
  readonly turns: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** The session's verification evidence when the run ended (`agent_end.verification_summary`); `null` without reports. */
  readonly verificationSummary: VerificationSummary | null;
  /** One-line form of {@link verificationSummary}. */
  readonly verificationSummaryText: string | null;
}

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
