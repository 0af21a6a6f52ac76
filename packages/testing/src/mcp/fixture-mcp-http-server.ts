import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createFixtureMcpServer } from './fixture-mcp-server.js';
import type { FixtureMcpServerOptions } from './fixture-mcp-server.js';

/** Options of {@link startFixtureMcpHttpServer}. */
export interface FixtureMcpHttpServerOptions extends Omit<FixtureMcpServerOptions, 'processFaults'> {
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  readonly bearerToken?: string;
  /** When set, `POST /mcp` answers `307` to this URL instead of serving (a redirect test). */
  readonly redirectTo?: string;
}

/** A running fixture MCP server over Streamable HTTP on 127.0.0.1. */
export interface FixtureMcpHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Request methods and paths received, in order (`POST /mcp`). */
  readonly requests: string[];
  /** Stops the server and every MCP session on it. */
  close(): Promise<void>;
}

/**
 * Starts {@link createFixtureMcpServer} behind the real Streamable HTTP server transport of
 * `@modelcontextprotocol/sdk` (stateful: one MCP server per `Mcp-Session-Id`), listening on
 * 127.0.0.1 on a free port.
 */
export async function startFixtureMcpHttpServer(options: FixtureMcpHttpServerOptions = {}): Promise<FixtureMcpHttpServer> {
  const { bearerToken, redirectTo, ...serverOptions } = options;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: string[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    if (!(request.url ?? '').startsWith('/mcp')) {
      response.writeHead(404).end();
      return;
    }
    if (bearerToken !== undefined && request.headers.authorization !== `Bearer ${bearerToken}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (redirectTo !== undefined) {
      response.writeHead(307, { location: redirectTo }).end();
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (transport === undefined) {
      if (typeof sessionId === 'string') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      await createFixtureMcpServer(serverOptions).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
