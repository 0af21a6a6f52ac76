import type { ClientRequest, IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { CodeError } from '@a3s-lab/code-core';
import { normalizeHostName, stripSensitiveQueryParams } from '@a3s-lab/code-core/util';
import type { WebClient, WebRequest, WebResponse } from '@a3s-lab/code-core';
import { blockedAddress, blockedHostName, canonicalAddress } from './address-policy.js';
import { HostAllowList } from './host-allow-list.js';
import { systemResolver } from './host-resolver.js';
import type { HostResolver, ResolvedAddress } from './host-resolver.js';
import { loadNodeTransports } from './node-transports.js';
import type { NodeTransports } from './node-transports.js';
import { readCappedBody } from './read-body.js';
import { refusedTarget, webFailure } from './web-errors.js';

/** Default cap of a response body after decompression: 10 MiB. */
export const DEFAULT_WEB_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Default deadline of one fetch, every redirect included: 30 s. */
export const DEFAULT_WEB_TIMEOUT_MS = 30_000;
/** Default number of redirects one fetch follows: 5. */
export const DEFAULT_WEB_MAX_REDIRECTS = 5;
/** The `user-agent` sent unless the caller passes one. */
export const DEFAULT_WEB_USER_AGENT = 'a3s-code-web/0.1 (+https://www.npmjs.com/package/@a3s-lab/code)';

/** Options of {@link createSafeHttpClient}. */
export interface SafeHttpClientOptions {
  /** Private hosts that may be reached anyway (see {@link HostAllowList}). Default none. */
  readonly allowHosts?: readonly string[];
  /** Cap of a response body after decompression. Default {@link DEFAULT_WEB_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
  /** Deadline of one fetch. Default {@link DEFAULT_WEB_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Redirects followed per fetch. Default {@link DEFAULT_WEB_MAX_REDIRECTS}. */
  readonly maxRedirects?: number;
  /** DNS resolution; default the system resolver. Tests inject answers here. */
  readonly resolver?: HostResolver;
  /** `user-agent` header. Default {@link DEFAULT_WEB_USER_AGENT}. */
  readonly userAgent?: string;
  /**
   * The session's sandbox network policy (`SessionOptions.sandbox.network`) as a ceiling over
   * every hop: `none` refuses every fetch; `{ allow }` refuses any host:port not on the list
   * (matched like the sandbox's proxy: the URL's host name or literal address, exactly) and lets
   * a listed private host through the address guard (the host allowed it for `bash` too);
   * `full` or absent: no ceiling, only the address guard and `allowHosts`.
   */
  readonly network?: 'none' | 'full' | { readonly allow: readonly string[] };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A target that passed the checks: where to connect, and nothing else. */
interface CheckedTarget {
  readonly url: URL;
  readonly host: string;
  readonly port: number;
  readonly pinned: ResolvedAddress;
}

/**
 * Creates the safe {@link WebClient}:
 * - `http:` / `https:` only; user-info and sensitive query parameters are stripped before sending;
 * - the host name is resolved ONCE per hop, every answer must be a public unicast address (see
 *   `blockedAddress`) unless allow-listed, and the connection is pinned to the checked address
 *   (a custom `lookup`, no shared keep-alive agent), so a DNS answer that changes between check
 *   and connect is never used;
 * - same-origin redirects are re-checked hop by hop and capped; cross-origin ones are returned to
 *   the caller (or followed, re-checked, with `redirects: 'all'`);
 * - one deadline covers the whole exchange; bodies are capped after decompression.
 *
 * @throws CodeError SESSION_CONFIGURATION_ERROR for a bad `allowHosts` or `network.allow` entry.
 */
export function createSafeHttpClient(options: SafeHttpClientOptions = {}): WebClient {
  const network = options.network;
  const sandboxHosts = typeof network === 'object' ? network.allow : null;
  const sandboxAllow = sandboxHosts === null ? null : new HostAllowList(sandboxHosts, 'sandbox.network.allow');
  // A host on the sandbox allow-list is allowed to the web tools as it is to processes.
  const allow = new HostAllowList([...(options.allowHosts ?? []), ...(sandboxHosts ?? [])]);
  const maxBytesCap = options.maxResponseBytes ?? DEFAULT_WEB_MAX_RESPONSE_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEB_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_WEB_MAX_REDIRECTS;
  const resolver = options.resolver ?? systemResolver;
  const userAgent = options.userAgent ?? DEFAULT_WEB_USER_AGENT;

  /** The static checks (scheme, names, literal addresses) that need no DNS. */
  function checkStatically(url: URL, shown: string): { host: string; port: number; literal: string | null } {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refusedTarget(shown, `scheme '${url.protocol}' is not http or https`);
    // One normal form for the allow-list, the name guard and DNS: `EVIL.com.` is `evil.com`.
    const host = normalizeHostName(url.hostname);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (host === '') throw refusedTarget(shown, 'the URL has no host');
    if (network === 'none') throw refusedTarget(shown, "the session's sandbox network policy is 'none' (sandbox.network), for processes and web tools alike");
    if (sandboxAllow !== null && !sandboxAllow.allowsHost(host, port)) throw refusedTarget(shown, `${host}:${port} is not on the sandbox network allow-list (sandbox.network.allow)`);
    const hostAllowed = allow.allowsHost(host, port);
    const named = blockedHostName(host);
    if (named !== null && !hostAllowed) throw refusedTarget(shown, named);
    const literal = canonicalAddress(host);
    if (literal !== null) {
      const why = blockedAddress(literal);
      if (why !== null && !hostAllowed && !allow.allowsAddress(literal, port)) throw refusedTarget(shown, `${why}; allow it with webFetch.allowHosts`);
    }
    return { host, port, literal };
  }

  async function check(url: URL, shown: string, abortSignal: AbortSignal): Promise<CheckedTarget> {
    const { host, port, literal } = checkStatically(url, shown);
    if (literal !== null) return { url, host, port, pinned: { address: literal, family: isIP(literal) } };
    let answers: readonly ResolvedAddress[];
    try {
      // The system resolver cannot be cancelled: race it, so the deadline and aborts still bite.
      answers = await untilAborted(resolver(host, { abortSignal }), abortSignal);
    } catch (error) {
      if (abortSignal.aborted) throw error;
      const code = String((error as { code?: unknown }).code ?? 'ERROR');
      throw webFailure(`cannot resolve ${host}: ${code}`, { type: 'transport', op: 'dns_lookup', message: code }, { url: shown }, error);
    }
    if (answers.length === 0) throw webFailure(`cannot resolve ${host}: no address`, { type: 'transport', op: 'dns_lookup', message: 'no address' }, { url: shown });
    const hostAllowed = allow.allowsHost(host, port);
    for (const answer of answers) {
      const why = blockedAddress(answer.address);
      // One private answer refuses the whole name: a name that resolves both ways is a rebinding tool.
      if (why !== null && !hostAllowed && !allow.allowsAddress(answer.address, port)) throw refusedTarget(shown, `${host} resolves to a refused address: ${why}`);
    }
    const first = answers[0] as ResolvedAddress;
    return { url, host, port, pinned: { address: canonicalAddress(first.address) ?? first.address, family: first.family } };
  }

  return {
    async fetch(request: WebRequest): Promise<WebResponse> {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw webFailure(`not an absolute URL: ${JSON.stringify(request.url.slice(0, 200))}`, { type: 'invalid_argument', message: 'url must be an absolute http(s) URL' });
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw webFailure(`only http and https URLs can be fetched, not ${url.protocol}`, { type: 'invalid_argument', message: `unsupported scheme ${url.protocol}` });
      }
      url = new URL(stripSensitiveQueryParams(url.toString()));
      url.hash = '';
      const maxBytes = Math.min(request.maxBytes ?? maxBytesCap, maxBytesCap);
      const deadline = request.timeoutMs ?? timeoutMs;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, deadline);
      const onAbort = (): void => controller.abort();
      request.abortSignal?.addEventListener('abort', onAbort, { once: true });
      if (request.abortSignal?.aborted === true) controller.abort();
      const started = Date.now();
      try {
        let method: 'GET' | 'POST' = request.method ?? 'GET';
        let body = request.body;
        const redirects: string[] = [];
        const transports = await loadNodeTransports();
        for (;;) {
          if (controller.signal.aborted) throw new Error('aborted');
          const target = await check(url, url.toString(), controller.signal);
          const response = await send(transports, target, method, request.headers, body, userAgent, controller.signal);
          const location = response.headers.location;
          if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || location === undefined) {
            const read = await readCappedBody(response, maxBytes, transports.zlib);
            return { url: url.toString(), status: response.statusCode ?? 0, headers: flattenHeaders(response), body: read.body, truncated: read.truncated, redirects };
          }
          response.destroy();
          let next: URL;
          try {
            next = new URL(stripSensitiveQueryParams(new URL(location, url).toString()));
          } catch {
            throw webFailure(`redirect to an invalid location ${JSON.stringify(location.slice(0, 200))}`, { type: 'transport', op: 'redirect', message: 'invalid Location' });
          }
          next.hash = '';
          checkStatically(next, next.toString());
          if ((request.redirects ?? 'same-origin') === 'same-origin' && next.origin !== url.origin) {
            return { url: url.toString(), status: response.statusCode ?? 0, headers: { ...flattenHeaders(response), location: next.toString() }, body: new Uint8Array(0), truncated: false, redirects };
          }
          if (redirects.length >= maxRedirects) {
            throw webFailure(`more than ${maxRedirects} redirects`, { type: 'transport', op: 'redirect', message: `more than ${maxRedirects} redirects` }, { url: url.toString(), redirects });
          }
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          redirects.push(next.toString());
          url = next;
        }
      } catch (error) {
        if (timedOut) throw webFailure(`timed out after ${deadline} ms fetching ${url.toString()}`, { type: 'timeout', op: 'web_fetch', duration_ms: Date.now() - started }, { url: url.toString() });
        if (request.abortSignal?.aborted === true) throw webFailure(`fetch of ${url.toString()} was cancelled`, { type: 'cancelled', op: 'web_fetch' }, { url: url.toString() });
        if (CodeError.isInstance(error)) throw error;
        const code = String((error as { code?: unknown }).code ?? (error instanceof Error ? error.message : 'ERROR'));
        throw webFailure(`fetching ${url.toString()} failed: ${code}`, { type: 'transport', op: 'web_fetch', message: code }, { url: url.toString() }, error);
      } finally {
        clearTimeout(timer);
        request.abortSignal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

function send(transports: NodeTransports, target: CheckedTarget, method: string, headers: Readonly<Record<string, string>> | undefined, body: string | undefined, userAgent: string, abortSignal: AbortSignal): Promise<IncomingMessage> {
  const { url, host, port, pinned } = target;
  // Every hop connects to the address that was checked, never to a second DNS answer.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all === true) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const requestHeaders: Record<string, string> = { 'user-agent': userAgent, accept: '*/*', 'accept-encoding': 'gzip, deflate, br', ...lowerCaseKeys(headers ?? {}) };
  if (body !== undefined) requestHeaders['content-length'] = String(Buffer.byteLength(body));
  return new Promise<IncomingMessage>((resolve, reject) => {
    const create = url.protocol === 'https:' ? transports.https : transports.http;
    let request: ClientRequest;
    try {
      request = create({
        host,
        port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: requestHeaders,
        agent: false,
        lookup,
        ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
      });
    } catch (error) {
      reject(error);
      return;
    }
    const onAbort = (): void => {
      request.destroy(new Error('aborted'));
    };
    if (abortSignal.aborted) onAbort();
    abortSignal.addEventListener('abort', onAbort, { once: true });
    request.once('response', (response) => {
      abortSignal.removeEventListener('abort', onAbort);
      // From here the body reader owns the response; an abort destroys it through the reader's error.
      abortSignal.addEventListener('abort', () => response.destroy(new Error('aborted')), { once: true });
      resolve(response);
    });
    request.once('error', (error) => {
      abortSignal.removeEventListener('abort', onAbort);
      reject(error);
    });
    request.end(body);
  });
}

/** `promise`, or a rejection as soon as `abortSignal` aborts (the promise itself runs on). */
function untilAborted<T>(promise: Promise<T>, abortSignal: AbortSignal): Promise<T> {
  if (abortSignal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    abortSignal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        abortSignal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        abortSignal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function flattenHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
