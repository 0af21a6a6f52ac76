import { createServer, request } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fault the proxy injects instead of (or while) forwarding a request. */
export type ProxyFault =
  /** Answer with an S3 error document and this status, without forwarding. */
  | { readonly kind: 'status'; readonly status: number; readonly code: string }
  /** Wait before forwarding (not forwarded at all if the client gave up meanwhile). */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Cut the connection mid-body: a request body after half of it (nothing forwarded), a response body after half of it. */
  | { readonly kind: 'cut' };

/** When a fault applies. */
export interface FaultRule {
  readonly method?: string;
  /** Substring of the decoded request path. */
  readonly pathIncludes?: string;
  readonly fault: ProxyFault;
  /** How many matching requests get it. */
  readonly times: number;
}

/** One request the proxy saw. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names as received (lower case), for checks that nothing secret leaves. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly faulted: boolean;
}

/**
 * An HTTP proxy of ours in front of s3rver: s3rver ignores `If-Match` / `If-None-Match` on PUT
 * and DELETE, so the proxy enforces them (a HEAD of the key and the forwarded write run under
 * one per-key lock, and a failed precondition is answered 412 PreconditionFailed like S3); it
 * answers a ranged GET of an empty object 416 InvalidRange like S3 (s3rver never answers it); and
 * it injects faults for the fault-injection tests (5xx, 503 SlowDown, slow answers, cut bodies).
 */
export class ConditionalS3Proxy {
  readonly requests: ProxiedRequest[] = [];
  readonly #slow: Promise<'dropped' | 'forwarded'>[] = [];
  #rules: { rule: FaultRule; left: number }[] = [];
  readonly #locks = new Map<string, Promise<void>>();
  readonly #server: Server;
  readonly #upstream: URL;
  #port = 0;

  private constructor(upstream: string) {
    this.#upstream = new URL(upstream);
    this.#server = createServer((req, res) => {
      void this.#handle(req, res).catch(() => res.destroy());
    });
  }

  /** Starts a proxy on 127.0.0.1 (a free port) forwarding to `upstream`. */
  static async start(upstream: string): Promise<ConditionalS3Proxy> {
    const proxy = new ConditionalS3Proxy(upstream);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    proxy.#port = (proxy.#server.address() as AddressInfo).port;
    return proxy;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Adds a fault rule (rules are consumed in the order added). */
  inject(rule: FaultRule): void {
    this.#rules.push({ rule, left: rule.times });
  }

  /**
   * What became of every `slow` request so far, once each is decided: `dropped` (its client gave
   * up while it was held: never forwarded) or `forwarded`. Await it instead of sleeping past the
   * delay.
   */
  slowOutcomes(): Promise<('dropped' | 'forwarded')[]> {
    return Promise.all(this.#slow);
  }

  /** Drops every pending fault rule. */
  clearFaults(): void {
    this.#rules = [];
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const path = safeDecode(url.split('?')[0] ?? '/');
    const fault = this.#takeFault(method, path);
    this.requests.push({ method, path, headers: { ...req.headers }, faulted: fault !== undefined });
    if (fault?.kind === 'status') {
      req.resume();
      sendError(res, fault.status, fault.code);
      return;
    }
    if (fault?.kind === 'cut' && method !== 'GET' && method !== 'HEAD') {
      let seen = 0;
      const total = Number(req.headers['content-length'] ?? '0');
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen >= total / 2) req.socket.destroy();
      });
      if (total === 0) req.socket.destroy();
      return;
    }
    if (fault?.kind === 'slow') {
      const outcome = held(res, fault.delayMs);
      this.#slow.push(outcome);
      if ((await outcome) === 'dropped') return;
    }
    const objectPath = url.split('?')[0] ?? '/';
    // The SDK adds `?x-id=PutObject`; any other query (uploads, tagging, acl...) is not a plain object write.
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    query.delete('x-id');
    const isObjectWrite = (method === 'PUT' || method === 'DELETE') && /^\/[^/]+\/.+/.test(objectPath) && [...query.keys()].length === 0;
    if (method === 'GET' && req.headers.range !== undefined && /^\/[^/]+\/.+/.test(objectPath) && (await this.#headEtag(objectPath, true)) === '0') {
      // s3rver never answers a ranged GET of an empty object; S3 answers 416 InvalidRange.
      req.resume();
      sendError(res, 416, 'InvalidRange');
      return;
    }
    if (!isObjectWrite) {
      // Reads of a key wait for a write of it in flight (see #settled).
      if (/^\/[^/]+\/.+/.test(objectPath)) await this.#locks.get(objectPath);
      await this.#forward(req, res, fault?.kind === 'cut');
      return;
    }
    await this.#withLock(objectPath, async () => {
      const ifMatch = header(req, 'if-match');
      const ifNoneMatch = header(req, 'if-none-match');
      if (ifMatch !== undefined || ifNoneMatch !== undefined) {
        const current = await this.#headEtag(objectPath);
        const failed = (ifNoneMatch === '*' && current !== null) || (ifMatch !== undefined && (current === null || !etagsEqual(ifMatch, current)));
        if (failed) {
          req.resume();
          sendError(res, 412, 'PreconditionFailed');
          return;
        }
      }
      const length = header(req, 'content-length');
      await this.#forward(req, res, false, method === 'PUT' ? (etag) => this.#settled(objectPath, etag, length) : undefined);
    });
  }

  /**
   * s3rver answers a PUT before its file is fully on disk (and truncates the old file first), so a
   * read right after it could see a short object; S3 publishes whole objects. The proxy holds the
   * answer (and the key's lock) until a HEAD shows the new ETag and the new size.
   */
  async #settled(path: string, etag: string, length: string | undefined): Promise<void> {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const current = await this.#headEtag(path).catch(() => null);
      // The metadata (ETag) and the data file are written separately: wait for both.
      const size = length === undefined ? null : await this.#headEtag(path, true).catch(() => null);
      if (current !== null && etagsEqual(current, etag) && (length === undefined || size === length)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  #takeFault(method: string, path: string): ProxyFault | undefined {
    for (const entry of this.#rules) {
      if (entry.left <= 0) continue;
      if (entry.rule.method !== undefined && entry.rule.method !== method) continue;
      if (entry.rule.pathIncludes !== undefined && !path.includes(entry.rule.pathIncludes)) continue;
      entry.left -= 1;
      return entry.rule.fault;
    }
    return undefined;
  }

  async #withLock(key: string, run: () => Promise<void>): Promise<void> {
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const current = previous.then(run, run);
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(key, settled);
    try {
      await current;
    } finally {
      if (this.#locks.get(key) === settled) this.#locks.delete(key);
    }
  }

  /**
   * ETag (or, with `size`, the Content-Length) of the key upstream (anonymous HEAD: s3rver serves
   * unsigned requests), `null` when absent.
   */
  #headEtag(path: string, size = false): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const upstream = request({ host: this.#upstream.hostname, port: this.#upstream.port, method: 'HEAD', path }, (response) => {
        response.resume();
        if (response.statusCode === 404) resolve(null);
        else if (response.statusCode === 200) resolve(String((size ? response.headers['content-length'] : response.headers.etag) ?? ''));
        else reject(new Error(`HEAD ${path} answered ${String(response.statusCode)}`));
      });
      upstream.on('error', reject);
      upstream.end();
    });
  }

  /** Forwards the request as is (signed headers unchanged); with `cut`, the answer's body is cut in half. */
  #forward(req: IncomingMessage, res: ServerResponse, cut: boolean, settle?: (etag: string) => Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const upstream = request({ host: this.#upstream.hostname, port: this.#upstream.port, method: req.method, path: req.url, headers: req.headers }, (response) => {
        const etag = response.headers.etag;
        if (settle !== undefined && response.statusCode === 200 && typeof etag === 'string') {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            void settle(etag).then(() => {
              res.writeHead(200, response.headers as OutgoingHttpHeaders);
              res.end(Buffer.concat(chunks));
              resolve();
            });
          });
          return;
        }
        if (!cut) {
          res.writeHead(response.statusCode ?? 502, response.headers as OutgoingHttpHeaders);
          response.pipe(res);
          response.on('end', () => resolve());
          response.on('error', () => resolve());
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          res.writeHead(response.statusCode ?? 502, response.headers as OutgoingHttpHeaders);
          res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
            res.socket?.destroy();
            resolve();
          });
        });
      });
      upstream.on('error', () => {
        res.destroy();
        resolve();
      });
      req.pipe(upstream);
      res.on('close', () => resolve());
    });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function etagsEqual(a: string, b: string): boolean {
  const bare = (tag: string): string => tag.trim().replace(/^W\//, '').replace(/"/g, '');
  return bare(a) === bare(b);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function sendError(res: ServerResponse, status: number, code: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>injected by the test proxy</Message><RequestId>proxy</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Holds a request `delayMs`: `dropped` as soon as its client gives up (the connection closes), `forwarded` after the delay. */
function held(res: ServerResponse, delayMs: number): Promise<'dropped' | 'forwarded'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(res.destroyed ? 'dropped' : 'forwarded');
    }, delayMs);
    const onClose = (): void => {
      clearTimeout(timer);
      resolve('dropped');
    };
    res.once('close', onClose);
  });
}
