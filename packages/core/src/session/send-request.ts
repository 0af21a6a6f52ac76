import type { LlmMessage } from '../llm/llm-client.js';
import type { VerificationSummary } from '../verification/verification-summary.js';
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
