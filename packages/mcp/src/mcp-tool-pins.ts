import { createHash } from 'node:crypto';
import type { McpToolChanges } from './mcp-server-status.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './mcp-connection.js';

/** A change of a server's tools that sessions report as `mcp_tools_changed` (once per `serial`). */
export interface McpToolChangeRecord extends McpToolChanges {
  /** Increases with each new change of this connection; a session reports each serial once. */
  readonly serial: number;
  /** True when the change was accepted (`acceptToolChanges: 'auto'`); false while it waits for the host. */
  readonly accepted: boolean;
}

/** Where a connection's accepted definitions stand. */
export interface McpPinState {
  /** The server's name -> hash of the accepted definition. */
  pins: Map<string, string>;
  /** The listing the state was last compared with. */
  compared: readonly McpToolDefinition[] | null;
  pending: McpToolChanges | null;
  lastChange: McpToolChangeRecord | null;
}

/** JSON with object keys sorted, so equal definitions hash equally whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * SHA-256 of what a model and the kernel take from a tool definition: its name, description,
 * input schema and annotations. A server that changes any of them changes the hash.
 */
export function mcpToolDefinitionHash(definition: McpToolDefinition): string {
  return createHash('sha256').update(canonicalJson({ name: definition.name, description: definition.description ?? null, inputSchema: definition.inputSchema ?? null, annotations: definition.annotations ?? null })).digest('hex');
}

/** The server's name -> definition hash of every tool of `listing`. */
export function hashesOf(listing: readonly McpToolDefinition[]): Map<string, string> {
  return new Map(listing.map((definition) => [definition.name, mcpToolDefinitionHash(definition)]));
}

function diff(pins: ReadonlyMap<string, string>, current: ReadonlyMap<string, string>): McpToolChanges | null {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [name, hash] of current) {
    const pinned = pins.get(name);
    if (pinned === undefined) added.push(name);
    else if (pinned !== hash) changed.push(name);
  }
  for (const name of pins.keys()) if (!current.has(name)) removed.push(name);
  return added.length + changed.length + removed.length === 0 ? null : { added, changed, removed };
}

const sameChanges = (a: McpToolChanges | null, b: McpToolChanges | null): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The pinned tool definitions of a set of connections (the MCP rug-pull guard): a connection's
 * first listing is accepted; a later listing that adds or changes a tool is held as `pending`
 * until {@link accept} (or accepted at once for `acceptToolChanges: 'auto'`), and every new change
 * gets a serial so sessions report it once.
 */
export class McpToolPins {
  readonly #states = new WeakMap<McpConnection, McpPinState>();
  #serial = 0;

  /** Compares `listing` (hashed as `hashes`) with the connection's pinned definitions (once per listing). */
  compare(connection: McpConnection, listing: readonly McpToolDefinition[], hashes: ReadonlyMap<string, string>): McpPinState {
    let state = this.#states.get(connection);
    if (state === undefined) {
      // The first listing is the accepted one (an empty map until there has been one).
      const first = connection.firstTools;
      state = { pins: first === null ? new Map() : hashesOf(first), compared: first, pending: null, lastChange: null };
      this.#states.set(connection, state);
    }
    if (state.compared === null && connection.firstTools !== null) {
      state.pins = hashesOf(connection.firstTools);
      state.compared = connection.firstTools;
    }
    if (state.compared === listing) return state;
    state.compared = listing;
    const changes = diff(state.pins, hashes);
    if (changes === null) {
      state.pending = null;
      return state;
    }
    if (connection.config.acceptToolChanges === 'auto') {
      state.pins = new Map(hashes);
      state.pending = null;
      this.#serial += 1;
      state.lastChange = { ...changes, serial: this.#serial, accepted: true };
      return state;
    }
    if (!sameChanges(changes, state.pending)) {
      this.#serial += 1;
      state.lastChange = { ...changes, serial: this.#serial, accepted: false };
    }
    state.pending = changes;
    return state;
  }

  /** Pins the current listing; returns what was pending (null when nothing was). */
  accept(connection: McpConnection, listing: readonly McpToolDefinition[], hashes: ReadonlyMap<string, string>): McpToolChanges | null {
    const state = this.compare(connection, listing, hashes);
    const accepted = state.pending;
    if (accepted === null) return null;
    state.pins = new Map(hashes);
    state.pending = null;
    return accepted;
  }
}
