import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { AllowedEndpoint } from './sandbox-policy.js';

const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_TIMEOUT_MS = 10_000;

/**
 * The filtering HTTP proxy of a sandbox with a network allow-list. It listens on a Unix socket in
 * a private directory (bound into the sandbox, whose own network namespace has nothing else);
 * a relay inside the sandbox exposes it as `HTTP(S)_PROXY` on the sandbox's loopback. Each
 * connection carries one `CONNECT host:port` (any TLS or TCP) or one absolute-form HTTP request
 * (`GET http://host:port/...`); the destination must be on the allow-list (host names compared
 * case-insensitively, exactly as written: `127.1` is not `127.0.0.1`), else `403`. Once
 * connected, bytes flow to that destination only.
 */
export class NetworkProxy {
  readonly directory: string;
  readonly socketPath: string;
  readonly #allow: readonly AllowedEndpoint[];
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #listening: Promise<void> | undefined;

  constructor(allow: readonly AllowedEndpoint[]) {
    this.#allow = allow;
    this.directory = mkdtempSync(join(tmpdir(), 'a3s-sandbox-proxy-'));
    this.socketPath = join(this.directory, 'proxy.sock');
  }

  /** Starts listening (once); resolves when the socket accepts connections. */
  start(): Promise<void> {
    this.#listening ??= new Promise<void>((resolve, reject) => {
      const server = createServer((client) => this.#serve(client));
      this.#server = server;
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.unref();
        resolve();
      });
    });
    return this.#listening;
  }

  /** True when `host:port` is on the allow-list. */
  allows(host: string, port: number): boolean {
    const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    return this.#allow.some((entry) => entry.host === name && (entry.port === undefined || entry.port === port));
  }

  /** Stops listening, drops every connection and removes the socket directory. */
  close(): void {
    this.#server?.close();
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    rmSync(this.directory, { recursive: true, force: true });
  }

  #serve(client: Socket): void {
    this.#track(client);
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => client.destroy(), HEAD_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) refuse(client, 431, 'request head too large');
        return;
      }
      client.off('data', onData);
      clearTimeout(timer);
      this.#route(client, head.subarray(0, end + 4), head.subarray(end + 4));
    };
    client.on('data', onData);
    client.on('error', () => client.destroy());
  }

  #route(client: Socket, head: Buffer, rest: Buffer): void {
    const lines = head.toString('latin1').split('\r\n');
    const [method, target, version] = (lines[0] ?? '').split(' ');
    let host: string;
    let port: number;
    let forward: Buffer | null;
    if (method === 'CONNECT' && target !== undefined) {
      const parsed = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
      if (parsed === null) return refuse(client, 400, 'CONNECT needs host:port');
      host = parsed[1] as string;
      port = Number(parsed[2]);
      forward = null;
    } else {
      let url: URL;
      try {
        url = new URL(target ?? '');
      } catch {
        return refuse(client, 400, 'the sandbox proxy needs an absolute http:// URL or CONNECT');
      }
      if (url.protocol !== 'http:') return refuse(client, 400, `unsupported scheme ${url.protocol}`);
      host = url.hostname;
      port = url.port === '' ? 80 : Number(url.port);
      lines[0] = `${method ?? 'GET'} ${url.pathname}${url.search} ${version ?? 'HTTP/1.1'}`;
      forward = Buffer.from(lines.join('\r\n'), 'latin1');
    }
    if (!this.allows(host, port)) return refuse(client, 403, `${host}:${port} is not on the sandbox's network allow-list`);
    const upstream = connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port });
    this.#track(upstream);
    upstream.once('connect', () => {
      if (forward === null) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else upstream.write(forward);
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => (upstream.connecting ? refuse(client, 502, `cannot connect to ${host}:${port}`) : client.destroy()));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
  }
}

function refuse(client: Socket, status: number, reason: string): void {
  const body = `${reason}\n`;
  client.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Request'}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * The relay run inside the sandbox (`node -e RELAY socketPath file ...args`): listens on the
 * sandbox's own loopback, forwards every connection to the proxy's Unix socket, runs the command
 * with `HTTP_PROXY`/`HTTPS_PROXY`/`ALL_PROXY` pointing at it and exits with its status.
 */
export const RELAY_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, file, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream); upstream.pipe(client);
  client.on('error', () => upstream.destroy()); upstream.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url, NO_PROXY: '', no_proxy: '' };
  const child = spawn(file, args, { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { process.stderr.write(String(error.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 1) : code));
});
`;
