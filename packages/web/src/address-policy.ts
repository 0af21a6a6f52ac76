import { createRequire } from 'node:module';
import type ipaddrModule from 'ipaddr.js';
import { normalizeHostName, requireOnce } from '@a3s-lab/code-core/util';

/**
 * `ipaddr.js`, loaded by the first address check instead of at import: importing the SDK (which
 * imports this package for every session's web client) then costs no CommonJS package load
 * (~15 ms of CPU).
 */
const ipaddr = requireOnce<typeof ipaddrModule>(createRequire(import.meta.url), 'ipaddr.js');

/**
 * Host names that always mean "this machine" or a cloud metadata service, refused before any
 * DNS lookup (their answers are not to be trusted): `localhost` and `*.localhost` (RFC 6761),
 * GCP's and Azure's metadata names, AWS's `instance-data`.
 */
const BLOCKED_NAMES: readonly string[] = ['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal'];

/**
 * Why `hostname` must not be resolved at all, or `null`. The name is compared normalised
 * (`normalizeHostName`: `LOCALHOST..` is `localhost`).
 */
export function blockedHostName(hostname: string): string | null {
  const name = normalizeHostName(hostname);
  if (BLOCKED_NAMES.includes(name) || name.endsWith('.localhost')) return `host name '${name}' names this machine or a metadata service`;
  return null;
}

/** The canonical text of an IP address (`::ffff:127.0.0.1` -> `127.0.0.1`), or `null` when `text` is not one. */
export function canonicalAddress(text: string): string | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr().isValid(bare)) return null;
  return ipaddr().process(bare).toString();
}

/**
 * Why connecting to `address` is refused, or `null` when it is a public unicast address.
 * Refused: loopback, private (RFC 1918), link-local (169.254/16 holds the metadata service),
 * carrier-grade NAT (100.64/10), unspecified (0/8, `::`), broadcast, multicast, reserved and
 * documentation ranges, IPv6 unique-local (fc00::/7, AWS's fd00:ec2::254), site-local,
 * IPv4-mapped / -compatible / -translated forms (judged by or refused for the IPv4 inside), 6to4,
 * Teredo and NAT64 prefixes (they embed an IPv4 address that could be private).
 */
export function blockedAddress(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr().isValid(bare)) return `'${address}' is not an IP address`;
  const parsed = ipaddr().parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddrModule.IPv6;
    if (v6.isIPv4MappedAddress()) return blockedAddress(v6.toIPv4Address().toString());
    // ::/96 (IPv4-compatible, `::127.0.0.1`) and ::ffff:0:0:0/96 (IPv4-translated) embed IPv4 too.
    const parts = v6.parts;
    if (parts.slice(0, 5).every((part) => part === 0) && (parts[5] === 0 || parts[5] === 0xffff)) return `address ${address} embeds an IPv4 address`;
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `address ${address} is ${RANGE_NAMES[range] ?? `in the special-purpose range '${range}'`}`;
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata lives here)',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (RFC 6598)',
  private: 'private (RFC 1918)',
  reserved: 'reserved',
  uniqueLocal: 'unique-local (private IPv6)',
  deprecatedSiteLocal: 'site-local (private IPv6)',
  rfc6052: 'a NAT64 address embedding IPv4',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address embedding IPv4',
  teredo: 'a Teredo address embedding IPv4',
};
