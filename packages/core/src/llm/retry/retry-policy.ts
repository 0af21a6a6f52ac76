// Retry policy shared by every LlmClient (providers never import each other, so it lives in core).

/** Retries after the first attempt unless a client overrides `maxRetries`. */
export const DEFAULT_MAX_RETRIES = 4;
/** First backoff step, ms; doubled for every further retry. */
export const RETRY_BASE_DELAY_MS = 500;
/** Upper bound of one computed backoff step, ms. */
export const RETRY_MAX_DELAY_MS = 30_000;
/**
 * Longest server-requested wait (`retry-after`) that is honoured, ms. A server asking for more
 * is treated as "not now": the call fails with `details.retryAfterMs` so the host can decide.
 */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

/**
 * HTTP statuses worth retrying: timeouts, conflicts, rate limits, transient server failures and
 * Anthropic's 529 "overloaded". Everything else (400/401/403/404/413/422...) cannot succeed on
 * a second try.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** True when a response with this HTTP status may succeed if sent again. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * Exponential backoff with jitter for the retry that follows failed attempt `attempt` (1-based):
 * `min(cap, base * 2^(attempt-1))`, of which the upper half is random ("equal jitter") so many
 * clients failing together do not retry in lockstep, while every wait stays at least half a step.
 *
 * @param random a number in [0, 1); `Math.random()` unless a test pins it.
 */
export function backoffDelayMs(attempt: number, random: number = Math.random()): number {
  const step = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

/**
 * Reads the server's requested wait from `retry-after-ms` (milliseconds, Anthropic/OpenAI
 * extension, preferred because it is exact) or `retry-after` (delta seconds or an HTTP date).
 * Returns `undefined` when neither header is present or parseable.
 */
export function parseRetryAfterMs(headers: Headers | undefined | null, nowMs: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const exact = headers.get('retry-after-ms');
  if (exact !== null && exact.trim() !== '') {
    const value = Number(exact);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
