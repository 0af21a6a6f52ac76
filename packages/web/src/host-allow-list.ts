import { CodeError } from '@a3s-lab/code-core';
import { normalizeHostName } from '@a3s-lab/code-core/util';
import { canonicalAddress } from './address-policy.js';

/** One parsed `allowHosts` entry. */
interface AllowEntry {
  /** Lower-case host name or canonical IP. */
  readonly host: string;
  readonly isAddress: boolean;
  /** `null`: every port. */
  readonly port: number | null;
}

/**
 * The hosts a session lets its web tools reach although they are private: entries like
 * `127.0.0.1`, `127.0.0.1:8080`, `docs.internal`, `docs.internal:8443`, `[::1]:3000`.
 * A name entry matches the URL's host name; an IP entry matches a URL whose host is that IP or
 * whose host name resolves to it. A port narrows the entry to that port.
 */
export class HostAllowList {
  readonly #entries: readonly AllowEntry[];

  /**
   * @throws CodeError SESSION_CONFIGURATION_ERROR naming the bad entry (`details.field`,
   *   e.g. `webFetch.allowHosts[1]`).
   */
  constructor(entries: readonly string[] = [], field = 'webFetch.allowHosts') {
    this.#entries = entries.map((entry, index) => parseEntry(entry, `${field}[${index}]`));
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.length;
  }

  /** True when a name or IP entry equals the URL host `hostname` (and its port, if any). */
  allowsHost(hostname: string, port: number): boolean {
    const host = normalizeHost(hostname);
    const address = canonicalAddress(host);
    return this.#entries.some((entry) => (entry.port === null || entry.port === port) && (entry.host === host || (address !== null && entry.host === address)));
  }

  /** True when an IP entry equals `address` (canonical form) and the port fits. */
  allowsAddress(address: string, port: number): boolean {
    const canonical = canonicalAddress(address);
    return this.#entries.some((entry) => entry.isAddress && entry.host === canonical && (entry.port === null || entry.port === port));
  }
}

/** The one host normalisation of core (case, IDNA, trailing dots), shared with permission rules and the address guard. */
const normalizeHost = normalizeHostName;

function parseEntry(entry: unknown, field: string): AllowEntry {
  const fail = (why: string): never => {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', `invalid ${field} ${JSON.stringify(entry)}: ${why}`, { details: { field, reason: why } });
  };
  if (typeof entry !== 'string' || entry.trim() === '') return fail('expected a host, host:port or IP');
  const text = entry.trim();
  if (/[/\s@?#]/.test(text)) return fail('give a host (with an optional :port), not a URL');
  let host = text;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null) {
    host = bracketed[1] as string;
    portText = bracketed[2];
  } else if ((text.match(/:/g) ?? []).length === 1) {
    [host, portText] = text.split(':') as [string, string];
  }
  let port: number | null = null;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 1 && port <= 65535)) return fail('the port must be 1..65535');
  }
  const address = canonicalAddress(host);
  if (address !== null) return { host: address, isAddress: true, port };
  // Compared in the one normal form: `Bücher.de.` is the entry `xn--bcher-kva.de`.
  const name = normalizeHost(host);
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(name)) return fail('not a host name or IP address');
  return { host: name, isAddress: false, port };
}
