import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a loopback address that counts every request it receives. */
export interface CountingServer {
  readonly port: number;
  readonly host: string;
  /** Requests received, in order (method + path as sent). */
  readonly hits: string[];
  /** Headers of each request received. */
  readonly headers: IncomingMessage['headers'][];
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts a counting server; `handler` answers (default: 200 "target reached"). */
export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end('target reached'),
  options: { readonly host?: string; readonly port?: number } = {},
): Promise<CountingServer> {
  const hits: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    headers.push(request.headers);
    handler(request, response);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    host,
    hits,
    headers,
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler that redirects `/to?u=<url>` to `<url>` (status from `?s=`, default 302). */
export function redirector(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://x');
  const to = url.searchParams.get('u');
  if (to === null) {
    response.end('redirector');
    return;
  }
  response.writeHead(Number(url.searchParams.get('s') ?? 302), { location: to });
  response.end();
}
