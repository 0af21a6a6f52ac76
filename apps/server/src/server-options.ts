import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Agent, SessionOptions, SessionStore } from '@a3s-lab/code';
import type { SessionLeases } from './session-lease.js';

/** Default cap of a request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default bind address: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Default permission policy: read-only tools run, everything else asks a human. */
export const DEFAULT_PERMISSION_POLICY: NonNullable<SessionOptions['permissionPolicy']> = {
  allow: ['read', 'ls', 'glob', 'grep'],
  defaultDecision: 'ask',
};

/** Default confirmation policy: two minutes to answer, then the call is rejected. */
export const DEFAULT_CONFIRMATION_POLICY: NonNullable<SessionOptions['confirmationPolicy']> = {
  enabled: true,
  defaultTimeoutMs: 120_000,
  timeoutAction: 'reject',
};

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** The agent whose sessions the server hosts (its config picks the model). Required. */
  readonly agent: Agent;
  /** Absolute directories a session's workspace must lie inside. Required, at least one. */
  readonly workspaceRoots: readonly string[];
  /** Directory of the token file and, by default, of `sessions/` and `leases/`. Default `~/.a3s/server`. */
  readonly stateDir?: string;
  /**
   * Where sessions live between requests. Default a `FileSessionStore` in `<stateDir>/sessions`.
   * Every process serving the same URL must use the same store AND the same leases.
   */
  readonly sessionStore?: SessionStore;
  /**
   * The per-session lock shared by all processes. Default `FileSessionLeases` in `<stateDir>/leases`,
   * or `S3SessionLeases` beside the agent's store when its config keeps sessions on S3.
   */
  readonly leases?: SessionLeases;
  /** Lifetime of an unrenewed default lease (file or S3; refused together with `leases`). Default 15 s. */
  readonly leaseTtlMs?: number;
  /** Bind address. Default `127.0.0.1` (loopback). */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 0. */
  readonly port?: number;
  /** Bearer token. Default `A3S_SERVER_TOKEN`, else `<stateDir>/token`, else generated there. */
  readonly token?: string;
  /** Environment to read `A3S_SERVER_TOKEN` from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra `Host` values accepted (a reverse proxy's name, `name` or `name:port`). Default none. */
  readonly allowedHosts?: readonly string[];
  /** Extra `Origin` values accepted (`https://code.example.com`). Default none. */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes. Default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** Permission policy of every session. Default {@link DEFAULT_PERMISSION_POLICY}. */
  readonly permissionPolicy?: NonNullable<SessionOptions['permissionPolicy']>;
  /** Confirmation policy of every session; confirmations cannot be turned off. Default {@link DEFAULT_CONFIRMATION_POLICY}. */
  readonly confirmationPolicy?: NonNullable<SessionOptions['confirmationPolicy']>;
  /** Keep an idle session live (and leased) this long before releasing it. Default 0: released at once. */
  readonly idleReleaseMs?: number;
  /** Serve the browser UI at `/`. Default true. */
  readonly ui?: boolean;
  /**
   * End an event stream after this long (without its `end` event); the client reconnects with
   * `Last-Event-ID`. Bounds connection lifetime behind proxies and spreads streams over
   * processes. Default 0: no limit.
   */
  readonly maxStreamMs?: number;
  /**
   * Base URL the other server processes reach this one at (`http(s)://host:port`), written into
   * the leases it takes so that an answer to a confirmation sent to another process is forwarded
   * here; its host is accepted as a `Host`. Default the listening URL (right when all processes
   * share one machine).
   */
  readonly advertiseUrl?: string;
}

/** {@link ServerOptions} with every default applied. */
export interface ResolvedServerOptions {
  readonly agent: Agent;
  readonly workspaceRoots: readonly string[];
  readonly stateDir: string;
  readonly sessionStore: SessionStore | null;
  readonly leases: SessionLeases | null;
  readonly leaseTtlMs: number | undefined;
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly maxBodyBytes: number;
  readonly permissionPolicy: NonNullable<SessionOptions['permissionPolicy']>;
  readonly confirmationPolicy: NonNullable<SessionOptions['confirmationPolicy']>;
  readonly idleReleaseMs: number;
  readonly ui: boolean;
  readonly maxStreamMs: number;
  /** The advertised origin (`http(s)://host:port`), or null for the listening URL. */
  readonly advertiseUrl: string | null;
}

const nonNegativeInteger = (value: number, name: string, max = Number.MAX_SAFE_INTEGER): number => {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new TypeError(`${name} must be an integer in 0..${max}; got ${String(value)}`);
  return value;
};

function advertisedOrigin(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`advertiseUrl must be an http(s) URL; got '${value}'`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(`advertiseUrl must be an http(s) origin (no path, query or credentials); got '${value}'`);
  }
  return url.origin;
}

/** Applies defaults and refuses values the server would not act on. Throws TypeError. */
export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  if (options.workspaceRoots.length === 0) throw new TypeError('workspaceRoots needs at least one directory');
  for (const root of options.workspaceRoots) if (!isAbsolute(root)) throw new TypeError(`workspace root '${root}' must be an absolute path`);
  if (options.leases !== undefined && options.leaseTtlMs !== undefined) throw new TypeError('leaseTtlMs applies to the default leases only; configure the ttl on the leases you pass');
  const confirmation = options.confirmationPolicy ?? DEFAULT_CONFIRMATION_POLICY;
  // A server that approved on its own would run commands nobody confirmed.
  if (confirmation.enabled === false) throw new TypeError('confirmationPolicy.enabled cannot be false on the server');
  if (confirmation.timeoutAction === 'auto_approve') throw new TypeError("confirmationPolicy.timeoutAction cannot be 'auto_approve' on the server");
  if (confirmation.yoloLanes !== undefined && confirmation.yoloLanes.length > 0) throw new TypeError('confirmationPolicy.yoloLanes is not supported on the server');
  const maxBodyBytes = nonNegativeInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes');
  if (maxBodyBytes === 0) throw new TypeError('maxBodyBytes must be positive');
  return {
    agent: options.agent,
    workspaceRoots: [...options.workspaceRoots],
    stateDir: options.stateDir ?? join(homedir(), '.a3s', 'server'),
    sessionStore: options.sessionStore ?? null,
    leases: options.leases ?? null,
    leaseTtlMs: options.leaseTtlMs === undefined ? undefined : nonNegativeInteger(options.leaseTtlMs, 'leaseTtlMs'),
    host: options.host ?? DEFAULT_HOST,
    port: nonNegativeInteger(options.port ?? 0, 'port', 65_535),
    token: options.token,
    env: options.env ?? process.env,
    allowedHosts: (options.allowedHosts ?? []).map((h) => h.toLowerCase()),
    allowedOrigins: options.allowedOrigins ?? [],
    maxBodyBytes,
    permissionPolicy: options.permissionPolicy ?? DEFAULT_PERMISSION_POLICY,
    confirmationPolicy: { ...DEFAULT_CONFIRMATION_POLICY, ...confirmation },
    idleReleaseMs: nonNegativeInteger(options.idleReleaseMs ?? 0, 'idleReleaseMs'),
    ui: options.ui ?? true,
    maxStreamMs: nonNegativeInteger(options.maxStreamMs ?? 0, 'maxStreamMs'),
    advertiseUrl: advertisedOrigin(options.advertiseUrl),
  };
}
