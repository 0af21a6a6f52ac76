/** One failed attempt, classified by the provider so the retry loop can decide what to do. */
export interface AttemptFailure {
  /** Human-readable description, already free of secrets. */
  readonly message: string;
  /** HTTP status, when the failure was an HTTP response (or an in-stream error mapped to one). */
  readonly status?: number;
  /** Whether sending the same request again may succeed. */
  readonly retryable: boolean;
  /** Wait requested by the server (`retry-after-ms` / `retry-after`), ms. */
  readonly retryAfterMs?: number;
  /** Provider request id, for support tickets. */
  readonly requestId?: string;
  /** The provider refused the request because the prompt exceeds the model's context window. */
  readonly contextOverflow?: boolean;
  /** Short machine-readable reason, used as `attempt_start.retryReason` of the next attempt. */
  readonly reason: string;
  /** The original error. */
  readonly cause: unknown;
}

/**
 * Thrown by an attempt whose stream ended (or was closed) before the provider's terminal event:
 * the response is incomplete and the request is retried as a whole.
 */
export class StreamInterruptedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamInterruptedError';
  }
}
