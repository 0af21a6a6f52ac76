import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { CodeError, createFleet, PostgresSessionStore } from '@a3s-lab/code';
import type { Agent, FleetWorkHandle, PostgresFleet, SessionOptions } from '@a3s-lab/code';
import { createServerApp } from '../create-server-app.js';
import { resolveServerOptions } from '../server-options.js';
import type { ServerOptions } from '../server-options.js';
import { resolveServerToken } from '../server-token.js';
import type { ServerToken } from '../server-token.js';
import { allowedHostValues, wildcardHostNames } from '../start-server.js';
import { FleetHost } from './fleet-host.js';

/** What a fleet process does: serve the API (`api`), execute runs (`worker`), or both (`all`). */
export type FleetRole = 'api' | 'worker' | 'all';

/** The roles {@link startFleetServer} accepts. */
export const FLEET_ROLES: readonly FleetRole[] = ['api', 'worker', 'all'];

/** Options of {@link startFleetServer}: the server's (without the file/S3 store and lease ones: the fleet replaces them) plus the fleet's. */
export type FleetServerOptions = Omit<ServerOptions, 'sessionStore' | 'leases' | 'leaseTtlMs' | 'idleReleaseMs' | 'advertiseUrl'> & {
  /** `postgres://...` of the database every API and worker process shares. */
  readonly postgres: string;
  readonly role: FleetRole;
  /** This process's worker name (`fleet.workerId`). Default `<hostname>:<pid>:<random>`. */
  readonly workerId?: string;
  /** A worker that stops heartbeating loses its runs to another within this time (ms, whole seconds, at least 10000). Default 30000. */
  readonly leaseMs?: number;
  /** Runs a worker executes at once. Default 4. */
  readonly concurrency?: number;
};

/** A started fleet process. */
export interface RunningFleetServer {
  readonly role: FleetRole;
  /** Base URL of the API (`null` for a worker, which serves no HTTP). */
  readonly url: string | null;
  readonly port: number | null;
  /** The bearer token (`null` for a worker). */
  readonly token: ServerToken | null;
  readonly fleet: PostgresFleet;
  /** The API's host (`null` for a worker). */
  readonly host: FleetHost | null;
  /** Stops serving, drains this worker's runs (others resume what it hands back) and closes the fleet. */
  close(): Promise<void>;
}

const WILDCARD = new Set(['0.0.0.0', '::']);
const bracket = (h: string): string => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);

/** The server's session options, applied by workers to the sessions they resume. */
function workerAgent(agent: Agent, sessionOptions: SessionOptions): Parameters<typeof createFleet>[0]['agent'] {
  return { resumeSessionAsync: (sessionId, options) => agent.resumeSessionAsync(sessionId, { ...sessionOptions, ...options }) };
}

/**
 * Starts one process of a stateless web host over a fleet (`a3s-code serve --postgres URL --role
 * ...`): sessions live in PostgreSQL, runs are fleet runs. `api` serves the HTTP + SSE API and the
 * UI (sessions created in the store, runs submitted, streamed from the run journal, cancelled and
 * confirmed through the database, from any API process); `worker` executes runs (a run whose
 * worker dies resumes on another within `leaseMs`); `all` does both. No file or S3 lease is used.
 *
 * @throws CodeError CONFIG_ERROR for a bad role or fleet option (or a missing `@a3s-lab/code-postgres`).
 */
export async function startFleetServer(options: FleetServerOptions): Promise<RunningFleetServer> {
  if (!FLEET_ROLES.includes(options.role)) throw new CodeError('CONFIG_ERROR', `role must be one of ${FLEET_ROLES.join(', ')}; got '${String(options.role)}'`, { details: { field: 'role' } });
  for (const field of ['sessionStore', 'leases', 'leaseTtlMs', 'idleReleaseMs', 'advertiseUrl'] as const) {
    if ((options as Record<string, unknown>)[field] !== undefined) throw new CodeError('CONFIG_ERROR', `${field} does not apply to a fleet server (sessions live in PostgreSQL, runs in the fleet)`, { details: { field } });
  }
  const concurrency = options.concurrency ?? 4;
  const resolved = resolveServerOptions(options);
  const sessionOptions: SessionOptions = {
    permissionPolicy: resolved.permissionPolicy,
    confirmationPolicy: resolved.confirmationPolicy,
    subagentConfirmationInheritance: resolved.agent.config.subagentConfirmationInheritance ?? 'inherit_parent',
  };
  const fleet = await createFleet({
    agent: workerAgent(resolved.agent, sessionOptions),
    connectionString: options.postgres,
    ...(options.workerId === undefined ? {} : { workerId: options.workerId }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
    await fleet.close();
  };
  try {
    let work: FleetWorkHandle | null = null;
    if (options.role !== 'api') {
      work = await fleet.work({ concurrency });
      closers.push(() => work?.stop() ?? Promise.resolve());
    }
    if (options.role === 'worker') return { role: options.role, url: null, port: null, token: null, fleet, host: null, close: once(close) };

    const token = await resolveServerToken({ stateDir: resolved.stateDir, env: resolved.env, ...(resolved.token === undefined ? {} : { token: resolved.token }) });
    const store = new PostgresSessionStore({ connectionString: options.postgres });
    closers.push(() => store.close());
    const host = new FleetHost({ agent: resolved.agent, fleet, store, workspaceRoots: resolved.workspaceRoots, permissionPolicy: resolved.permissionPolicy, confirmationPolicy: resolved.confirmationPolicy });
    let hosts = new Set<string>();
    const app = createServerApp({ host, token: token.token, allowedHosts: () => hosts, allowedOrigins: resolved.allowedOrigins, maxBodyBytes: resolved.maxBodyBytes, ui: resolved.ui, maxStreamMs: resolved.maxStreamMs });
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: resolved.port, hostname: resolved.host }, () => resolve(s));
      s.once('error', (error: NodeJS.ErrnoException) => reject(new CodeError('CONFIG_ERROR', `cannot listen on ${bracket(resolved.host)}:${resolved.port}: ${error.code ?? error.message}`, { cause: error, details: { host: resolved.host, port: resolved.port, errno: error.code } })));
    });
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Open event streams would hold close() forever: end them (clients reconnect elsewhere).
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }),
    );
    const port = (server.address() as AddressInfo).port;
    hosts = allowedHostValues(resolved.host, port, resolved.allowedHosts, WILDCARD.has(resolved.host) ? wildcardHostNames() : []);
    const urlHost = WILDCARD.has(resolved.host) ? '127.0.0.1' : bracket(resolved.host);
    return { role: options.role, url: `http://${urlHost}:${port}`, port, token, fleet, host, close: once(close) };
  } catch (error) {
    await close();
    throw error;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}
