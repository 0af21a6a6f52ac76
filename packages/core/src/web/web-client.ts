/** Options of {@link WebClient.fetch}: ONE options object, like every capability interface. */
export interface WebRequest {
  /** Absolute `http:` or `https:` URL. Sensitive query parameters are stripped before sending. */
  readonly url: string;
  /** Default `GET`. */
  readonly method?: 'GET' | 'POST';
  /** Extra request headers (e.g. an API key header of a search engine). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body (POST). */
  readonly body?: string;
  /**
   * Most body bytes (after decompression) to keep; the download stops there and the response
   * says `truncated`. Default: the client's own cap. Never more than the client's cap.
   */
  readonly maxBytes?: number;
  /** Deadline of the whole exchange (every redirect hop included), ms. Default: the client's. */
  readonly timeoutMs?: number;
  /**
   * Same-origin redirects are followed; a redirect to another origin is returned as a 3xx
   * response (with `location`) when this is `same-origin` (the default), so the caller can govern
   * the new target as a new call. `all` follows every (re-checked) redirect.
   */
  readonly redirects?: 'same-origin' | 'all';
  /** Aborts the exchange; the client rejects with a `cancelled` CodeError. */
  readonly abortSignal?: AbortSignal;
}

/** What {@link WebClient.fetch} returns for any HTTP status (errors are thrown, statuses are not). */
export interface WebResponse {
  /** Final URL after followed redirects, sensitive query parameters stripped. */
  readonly url: string;
  readonly status: number;
  /** Response headers, names lower-cased (repeated headers joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
  /** Body bytes after content decoding (gzip, deflate, br), at most the byte cap. */
  readonly body: Uint8Array;
  /** True when the body was cut at the byte cap. */
  readonly truncated: boolean;
  /** URLs of the redirects followed, in order (stripped). */
  readonly redirects: readonly string[];
}

/**
 * The network as tools see it: one narrow, safe HTTP capability. Implementations (the SDK's
 * `@a3s-lab/code-web`) refuse non-http(s) schemes and private, loopback, link-local, CGNAT,
 * multicast and metadata addresses unless allow-listed, pin each connection to the address they
 * checked, re-check every redirect and cap size, time and decompression.
 *
 * Failures are thrown as `CodeError`: `SECURITY_ERROR` for a refused target, `TOOL_ERROR` with
 * `details.errorKind` (`invalid_argument`, `transport`, `timeout`, `cancelled`) otherwise.
 */
export interface WebClient {
  fetch(request: WebRequest): Promise<WebResponse>;
}

/** The {@link ToolServices} key under which a session exposes its {@link WebClient}. */
export const WEB_CLIENT_SERVICE = 'webClient';

/** True when `value` looks like a {@link WebClient}. */
export function isWebClient(value: unknown): value is WebClient {
  return typeof value === 'object' && value !== null && typeof (value as { fetch?: unknown }).fetch === 'function';
}
