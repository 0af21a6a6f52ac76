import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { FileSessionStore, S3SessionStore } from '@a3s-lab/code';
import { createServerApp } from './create-server-app.js';
import { resolveServerOptions } from './server-options.js';
import type { ServerOptions } from './server-options.js';
import { resolveServerToken } from './server-token.js';
import type { ServerToken } from './server-token.js';
import { FileSessionLeases } from './session-lease.js';
import { SessionHost } from './session-host.js';

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:7420`. */
  readonly url: string;
  readonly port: number;
  /** The bearer token and where it came from (`generated`: print it once). */
  readonly token: ServerToken;
  /** The session host (live sessions of this process). */
  readonly sessions: SessionHost;
  /** Stops accepting requests, cancels runs, saves and releases every live session, closes the socket. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Host header values a server bound to `host:port` answers to. */
export function allowedHostValues(host: string, port: number, extra: readonly string[]): Set<string> {
  const values = new Set<string>();
  const bracket = (h: string): string => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
  if (LOOPBACK.has(host) || host === '0.0.0.0' || host === '::') {
    for (const h of ['127.0.0.1', 'localhost', '[::1]']) values.add(`${h}:${port}`);
  }
  if (!LOOPBACK.has(host) && host !== '0.0.0.0' && host !== '::') values.add(`${bracket(host).toLowerCase()}:${port}`);
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
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHostValues(resolved.host, port, resolved.allowedHosts);
  const shownHost = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const urlHost = resolved.host === '0.0.0.0' || resolved.host === '::' ? '127.0.0.1' : shownHost;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
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
