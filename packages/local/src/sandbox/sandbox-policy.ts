import { homedir } from 'node:os';
import { posix } from 'node:path';

import { CodeError } from '@a3s-lab/code-core';
import type { SandboxNetwork, SandboxOptions } from '@a3s-lab/code-core';

/**
 * Host secrets hidden inside the sandbox whatever the host adds (`~` = the host's HOME when the
 * policy is resolved).
 */
export const DEFAULT_SANDBOX_DENY_READ: readonly string[] = Object.freeze([
  '~/.ssh',
  '~/.aws',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.npmrc',
  '~/.a3s',
]);

/** One entry of a network allow-list: a host name or address, and a port (any port when absent). */
export interface AllowedEndpoint {
  readonly host: string;
  readonly port?: number;
}

/** A {@link SandboxOptions} checked and made absolute: what the sandbox enforces. */
export interface SandboxPolicy {
  readonly mode: 'required' | 'auto' | 'off';
  readonly network: 'none' | 'full' | { readonly allow: readonly AllowedEndpoint[] };
  /** Absolute, normalised. */
  readonly allowWrite: readonly string[];
  /** Absolute, normalised: the defaults plus the host's. */
  readonly denyRead: readonly string[];
  readonly autoAllowBash: boolean;
}

const MODES = new Set(['required', 'auto', 'off']);
const OPTION_NAMES = new Set(['mode', 'network', 'allowWrite', 'denyRead', 'autoAllowBash']);

/**
 * Checks `options` (default `{ mode: 'auto' }`) and resolves its paths against `home`.
 *
 * @throws CodeError CONFIG_ERROR naming the field (`sandbox.allowWrite[0]` ...) for a bad value.
 */
export function resolveSandboxPolicy(options: SandboxOptions = {}, home: string = process.env['HOME'] ?? homedir()): SandboxPolicy {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail('sandbox', 'an object', options);
  for (const key of Object.keys(options)) if (!OPTION_NAMES.has(key)) fail(`sandbox.${key}`, `one of ${[...OPTION_NAMES].join(', ')} (unknown option)`, key);
  const mode = options.mode ?? 'auto';
  if (!MODES.has(mode)) fail('sandbox.mode', "'required', 'auto' or 'off'", mode);
  if (options.autoAllowBash !== undefined && typeof options.autoAllowBash !== 'boolean') fail('sandbox.autoAllowBash', 'a boolean', options.autoAllowBash);
  const allowWrite = pathsOf(options.allowWrite, 'sandbox.allowWrite', home);
  const denyRead = unique([...pathsOf(DEFAULT_SANDBOX_DENY_READ, 'sandbox.denyRead', home), ...pathsOf(options.denyRead, 'sandbox.denyRead', home)]);
  // Deny wins: a writable path that is, or lies inside, a denied one would expose it again.
  for (const [index, path] of allowWrite.entries()) {
    const denied = denyRead.find((deny) => path === deny || path.startsWith(`${deny}/`));
    if (denied !== undefined) fail(`sandbox.allowWrite[${index}]`, `a path outside the deny-read list (it lies in ${denied})`, path);
  }
  return Object.freeze({ mode, network: resolveNetwork(options.network), allowWrite: Object.freeze(allowWrite), denyRead: Object.freeze(denyRead), autoAllowBash: options.autoAllowBash === true });
}

function resolveNetwork(network: SandboxNetwork | undefined): SandboxPolicy['network'] {
  if (network === undefined || network === 'none' || network === 'full') return network ?? 'none';
  if (typeof network !== 'object' || network === null || !Array.isArray(network.allow) || Object.keys(network).some((key) => key !== 'allow')) {
    fail('sandbox.network', "'none', 'full' or { allow: ['host:port', ...] }", network);
  }
  if (network.allow.length === 0) fail('sandbox.network.allow', 'a non-empty list (use network: "none" to allow nothing)', network.allow);
  return Object.freeze({ allow: Object.freeze(network.allow.map((entry, index) => parseEndpoint(entry, `sandbox.network.allow[${index}]`))) });
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** `host`, `host:port` or `[v6]:port` -> an {@link AllowedEndpoint}; host names are lower-cased. */
export function parseEndpoint(entry: unknown, field: string): AllowedEndpoint {
  if (typeof entry !== 'string') fail(field, "a 'host' or 'host:port' string", entry);
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(entry);
  const plain = bracketed === null ? /^([^:]+)(?::(\d+))?$/.exec(entry) : null;
  const host = (bracketed?.[1] ?? plain?.[1])?.toLowerCase();
  const portText = bracketed?.[2] ?? plain?.[2];
  if (host === undefined || (bracketed === null && !HOST.test(host))) fail(field, "a 'host' or 'host:port' string (no scheme, path or wildcard)", entry);
  if (portText === undefined) return Object.freeze({ host });
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(field, 'a port between 1 and 65535', entry);
  return Object.freeze({ host, port });
}

function pathsOf(paths: readonly string[] | undefined, field: string, home: string): string[] {
  if (paths === undefined) return [];
  if (!Array.isArray(paths)) fail(field, 'a list of absolute paths', paths);
  return paths.map((path, index) => {
    if (typeof path !== 'string' || path.includes('\0') || !(path.startsWith('/') || path === '~' || path.startsWith('~/'))) {
      fail(`${field}[${index}]`, "an absolute path or one starting with '~/'", path);
    }
    const absolute = path === '~' ? home : path.startsWith('~/') ? posix.join(home, path.slice(2)) : path;
    const normalized = posix.normalize(absolute).replace(/(.)\/+$/, '$1');
    if (normalized === '/') fail(`${field}[${index}]`, 'a path other than /', path);
    return normalized;
  });
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

function fail(field: string, expected: string, value: unknown): never {
  const message = `${field} must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`;
  throw new CodeError('CONFIG_ERROR', message, { details: { field, errorKind: { type: 'invalid_argument', message } } });
}
