import { parseRetryAfterMs } from '@a3s-lab/code-core/provider';
import type { ToolErrorKind } from '@a3s-lab/code-core';

/**
 * The error kind of an HTTP status that is not a success, or `null` for 2xx:
 * 429 -> `rate_limited` (with the parsed `Retry-After` / `retry-after-ms`); 408 and 5xx ->
 * `transport` (worth a retry); 404 and 410 -> `not_found`; other 4xx -> `invalid_argument`
 * (the request as given cannot be served).
 */
export function statusErrorKind(status: number, headers: Readonly<Record<string, string>>, url: string, op: string): ToolErrorKind | null {
  if (status >= 200 && status < 300) return null;
  if (status === 429) {
    const retryAfter = parseRetryAfterMs(new Headers(headers));
    return retryAfter === undefined ? { type: 'rate_limited' } : { type: 'rate_limited', retry_after_ms: retryAfter };
  }
  if (status === 408 || status >= 500) return { type: 'transport', op, message: `HTTP ${status}` };
  if (status === 404 || status === 410) return { type: 'not_found', path: url };
  return { type: 'invalid_argument', message: `HTTP ${status} from ${url}` };
}
