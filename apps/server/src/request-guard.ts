import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ServerError } from './server-error.js';

/** What {@link createRequestGuard} checks requests against. */
export interface RequestGuardOptions {
  /** The bearer token every API request must carry. */
  readonly token: string;
  /**
   * Returns the `Host` values accepted (`host:port`, lower case). A function because the port is
   * known only once the server listens.
   */
  readonly allowedHosts: () => ReadonlySet<string>;
  /** Extra origins accepted besides `http(s)://<allowed host>` (e.g. a reverse proxy's). */
  readonly allowedOrigins: readonly string[];
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** True when `header` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1] ?? ''), digest(token));
}

/**
 * Middleware run before every route: the `Host` header must be one this server answers to (a
 * DNS-rebinding page reaches us under a foreign host name), an `Origin` header, when present,
 * must be this server's own (a foreign page cannot drive the API from a browser), and every
 * `/api/` request must carry the bearer token. Static UI files need no token (they hold no data
 * and the UI sends the token with each API call), but the Host check applies to them too.
 */
export function createRequestGuard(options: RequestGuardOptions): MiddlewareHandler {
  const extraOrigins = new Set(options.allowedOrigins.map((origin) => origin.toLowerCase()));
  return async (c, next) => {
    const hosts = options.allowedHosts();
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!hosts.has(host)) throw new ServerError('FORBIDDEN_HOST', `host '${host}' is not served here`, { host });
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const normalized = origin.toLowerCase();
      const own = normalized.replace(/^https?:\/\//, '');
      const ok = extraOrigins.has(normalized) || (/^https?:\/\//.test(normalized) && hosts.has(own));
      if (!ok) throw new ServerError('FORBIDDEN_ORIGIN', `origin '${origin}' may not call this server`, { origin });
    }
    if (c.req.path.startsWith('/api/') && !bearerMatches(c.req.header('authorization'), options.token)) {
      throw new ServerError('UNAUTHORIZED', 'a valid bearer token is required (Authorization: Bearer <token>)');
    }
    await next();
  };
}
