import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { CodeError, FileSessionStore, S3SessionStore } from '@a3s-lab/code';
import { createServerApp } from './create-server-app.js';
import { resolveServerOptions } from './server-options.js';
import type { ServerOptions } from './server-options.js';
import { resolveServerToken } from './server-token.js';
import type { ServerToken } from './server-token.js';
import { FileSessionLeases } from './session-lease.js';
import { SessionHost } from './session-host.js';

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:7420` (loopback for a wildcard bind). */
  readonly url: string;
  /**
   * Every base URL the server answers to, `url` first: for a wildcard bind (`0.0.0.0`, `::`) also
   * one per address of this machine's network interfaces and its host name, so the URL printed
   * for another machine works (the Host check accepts exactly these).
   */
  readonly urls: readonly string[];
  readonly port: number;
  /** The bearer token and where it came from (`generated`: print it once). */
  readonly token: ServerToken;
  /** The session host (live sessions of this process). */
  readonly sessions: SessionHost;
  /** Stops accepting requests, cancels runs, saves and releases every live session, closes the socket. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::']);
const bracket = (h: string): string => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);

/**
 * The names other machines reach a wildcard-bound server by: this machine's host name and the
 * non-internal addresses of its network interfaces (IPv6 link-local ones left out: they need a
 * zone id no Host header carries). `interfaces` and `name` are injectable for tests.
 */
export function wildcardHostNames(interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(), name: string = hostname()): string[] {
  const names: string[] = [];
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.internal || (entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80:'))) continue;
      names.push(bracket(entry.address.toLowerCase()));
    }
  }
  if (name !== '' && !names.includes(name.toLowerCase())) names.push(name.toLowerCase());
  return names;
}

/**
 * Host header values a server bound to `host:port` answers to: the loopback names for a loopback
 * or wildcard bind, plus `wildcardNames` (see {@link wildcardHostNames}) for a wildcard bind, the
 * bound name otherwise, and `extra` (with and without the port).
 */
export function allowedHostValues(host: string, port: number, extra: readonly string[], wildcardNames: readonly string[] = WILDCARD.has(host) ? wildcardHostNames() : []): Set<string> {
  const values = new Set<string>();
  if (LOOPBACK.has(host) || WILDCARD.has(host)) {
    for (const h of ['127.0.0.1', 'localhost', '[::1]']) values.add(`${h}:${port}`);
  }
  if (WILDCARD.has(host)) for (const name of wildcardNames) values.add(`${name}:${port}`);
  if (!LOOPBACK.has(host) && !WILDCARD.has(host)) values.add(`${bracket(host).toLowerCase()}:${port}`);
  for (const h of extra) {
    values.add(h);
    if (!/:\d+$/.test(h)) values.add(`${h}:${port}`);
  }
  return values;
}

/**
 * Starts the HTTP + SSE server: resolves the token, opens the session store and leases, binds
 * (loopback by default) and serves the API and the UI. See README.md.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const resolved = resolveServerOptions(options);
  const token = await resolveServerToken({ stateDir: resolved.stateDir, env: resolved.env, ...(resolved.token === undefined ? {} : { token: resolved.token }) });
  // An agent whose config keeps sessions on S3 (storage_backend = "s3") serves them from there,
  // locked by S3 leases beside them: processes on different machines share nothing else.
  const agentStore = resolved.agent.sessionStore;
  const store = resolved.sessionStore ?? (agentStore instanceof S3SessionStore ? agentStore : new FileSessionStore(join(resolved.stateDir, 'sessions')));
  const ttl = resolved.leaseTtlMs === undefined ? {} : { ttlMs: resolved.leaseTtlMs };
  const leases = resolved.leases ?? (store instanceof S3SessionStore ? await store.sessionLeases(ttl) : new FileSessionLeases(join(resolved.stateDir, 'leases'), ttl));
  const renewIntervalMs = 'renewIntervalMs' in leases && typeof leases.renewIntervalMs === 'number' ? leases.renewIntervalMs : 5_000;
  const sessions = new SessionHost({
    agent: resolved.agent,
    store,
    leases,
    renewIntervalMs,
    workspaceRoots: resolved.workspaceRoots,
    permissionPolicy: resolved.permissionPolicy,
    confirmationPolicy: resolved.confirmationPolicy,
    idleReleaseMs: resolved.idleReleaseMs,
    // Answers to confirmations of a session another process runs are forwarded to it (same token).
    forward: (endpoint, path, body) =>
      fetch(`${endpoint}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json', 'x-a3s-forwarded': '1' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      }),
  });
  let hosts = new Set<string>();
  const app = createServerApp({
    host: sessions,
    token: token.token,
    allowedHosts: () => hosts,
    allowedOrigins: resolved.allowedOrigins,
    maxBodyBytes: resolved.maxBodyBytes,
    ui: resolved.ui,
    maxStreamMs: resolved.maxStreamMs,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: resolved.port, hostname: resolved.host }, () => resolve(s));
    s.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, resolved.host, resolved.port)));
  }).catch(async (error: unknown) => {
    await sessions.closeAll();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  const wildcardNames = WILDCARD.has(resolved.host) ? wildcardHostNames() : [];
  const advertised = resolved.advertiseUrl === null ? [] : [new URL(resolved.advertiseUrl).host];
  hosts = allowedHostValues(resolved.host, port, [...resolved.allowedHosts, ...advertised], wildcardNames);
  const urlHost = WILDCARD.has(resolved.host) ? '127.0.0.1' : bracket(resolved.host);
  // Where this process serves, written into its leases for the other processes.
  leases.advertise?.(resolved.advertiseUrl ?? `http://${urlHost}:${port}`);
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    urls: [`http://${urlHost}:${port}`, ...wildcardNames.map((name) => `http://${name}:${port}`)],
    port,
    token,
    sessions,
    close: () => {
      closing ??= (async () => {
        await sessions.closeAll();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Open event streams would hold close() forever: end them.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      })();
      return closing;
    },
  };
}

/**
 * A failed bind as a typed CONFIG_ERROR (the command line or config names a port or address this
 * machine cannot serve): a port in use, an address not on this machine, a privileged port.
 */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${bracket(host)}:${port}`;
  const details = { host, port, errno: error.code };
  if (error.code === 'EADDRINUSE') return new CodeError('CONFIG_ERROR', `port ${port} is already in use on ${host} (choose another with --port, or --port 0 for a free one)`, { cause: error, details });
  if (error.code === 'EADDRNOTAVAIL') return new CodeError('CONFIG_ERROR', `cannot listen on ${where}: ${host} is not an address of this machine (--host)`, { cause: error, details });
  if (error.code === 'EACCES') return new CodeError('CONFIG_ERROR', `cannot listen on ${where}: permission denied (ports below 1024 need privileges; use --port)`, { cause: error, details });
  return error;
}
