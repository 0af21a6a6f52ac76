import { CodeError } from '@a3s-lab/code-core';
import type { McpTransportConfig } from './mcp-transport-config.js';

/**
 * One MCP server, as given to `session.addMcp()` or declared as `mcp_servers "name" { ... }`.
 * Plain data, validated by {@link resolveMcpServerConfig}; `@a3s-lab/code` declares its own copy
 * (its typings never name this optional package).
 */
export interface McpServerConfig {
  /**
   * Server name: the `<server>` of `mcp__<server>__<tool>`. 1-32 letters, digits, `_` or `-`,
   * without `__` (which separates the parts of a tool name).
   */
  readonly name: string;
  /** How to reach the server. */
  readonly transport: McpTransportConfig;
  /**
   * Environment variables of a stdio server, on top of the host's environment stripped of
   * secret-bearing names (like `bash`); pass secrets here on purpose. Rejected for HTTP.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Deadline in ms of connecting, of listing tools and of each tool call (the kernel ends a hung
   * call at it and cancels the request on the server). Default 60000 (`DEFAULT_MCP_TIMEOUT_MS`
   * of `@a3s-lab/code-mcp`); at most 3600000 (`MAX_MCP_TIMEOUT_MS`).
   */
  readonly timeoutMs?: number;
  /**
   * What happens when the server changes its tools after they were accepted (a
   * `notifications/tools/list_changed` or a reconnect that lists a new or changed name,
   * description, input schema or annotations): `manual` (default) keeps the new and changed
   * tools off the surface, emits `mcp_tools_changed` and waits for
   * `session.acceptMcpToolChanges(name)`; `auto` accepts them at once (and still emits the event,
   * with `accepted: true`). The first listing is always accepted.
   */
  readonly acceptToolChanges?: 'auto' | 'manual';
}

/** Default of {@link McpServerConfig.timeoutMs}: 60 s. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** Largest accepted {@link McpServerConfig.timeoutMs}: 1 hour. */
export const MAX_MCP_TIMEOUT_MS = 3_600_000;

/** A validated config with defaults applied. */
export interface ResolvedMcpServerConfig {
  /** Server name. */
  readonly name: string;
  /** Transport; `http` is normalised to `streamable-http`, `args` and `headers` are present. */
  readonly transport: McpTransportConfig;
  /** Environment passed on purpose (stdio); `{}` when none. */
  readonly env: Readonly<Record<string, string>>;
  /** Deadline of connecting, listing and each call, in ms. */
  readonly timeoutMs: number;
  /** Whether tool changes after the first listing are accepted without the host (`auto`) or wait for it (`manual`). */
  readonly acceptToolChanges: 'auto' | 'manual';
}

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;
const SERVER_KEYS = new Set(['name', 'transport', 'env', 'timeoutMs', 'acceptToolChanges']);
const STDIO_KEYS = new Set(['type', 'command', 'args', 'cwd']);
const HTTP_KEYS = new Set(['type', 'url', 'headers']);

function invalid(message: string, field: string, name?: unknown): CodeError {
  return new CodeError('CONFIG_ERROR', `invalid MCP server config${typeof name === 'string' ? ` '${name}'` : ''}: ${message}`, { details: { field } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown, field: string, name: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalid(`'${field}' must be an object of strings`, field, name);
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw invalid(`'${field}.${key}' must be a string`, `${field}.${key}`, name);
    result[key] = item;
  }
  return result;
}

function checkKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>, where: string, name: unknown): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      // An option accepted but not acted upon would be a lie: name it and refuse.
      throw invalid(`'${where}${key}' is not supported yet (known: ${[...allowed].join(', ')})`, `${where}${key}`, name);
    }
  }
}

/**
 * Validates an MCP server config (from the SDK or the ACL) and applies defaults.
 *
 * @throws CodeError CONFIG_ERROR naming the field: a bad name, an unknown transport type, a
 *   missing command or URL, a non-http(s) URL, `env` on an HTTP server, an unknown key (options
 *   this build does not act on are refused, not ignored), a timeout out of 1..3600000, an
 *   `acceptToolChanges` other than `auto` or `manual` (default `manual`).
 */
export function resolveMcpServerConfig(input: unknown): ResolvedMcpServerConfig {
  if (!isRecord(input)) throw invalid('expected an object { name, transport, env?, timeoutMs?, acceptToolChanges? }', 'config');
  const name = input['name'];
  if (typeof name !== 'string' || !SERVER_NAME.test(name) || name.includes('__')) {
    throw invalid(`'name' must be 1-32 letters, digits, '_' or '-' without '__' (got ${JSON.stringify(name)})`, 'name', name);
  }
  checkKeys(input, SERVER_KEYS, '', name);
  const transport = input['transport'];
  if (!isRecord(transport)) throw invalid(`'transport' must be an object with a 'type'`, 'transport', name);
  const timeoutMs = input['timeoutMs'] ?? DEFAULT_MCP_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_MCP_TIMEOUT_MS) {
    throw invalid(`'timeoutMs' must be an integer in 1..${MAX_MCP_TIMEOUT_MS}`, 'timeoutMs', name);
  }
  const env = stringMap(input['env'], 'env', name);
  const acceptToolChanges = input['acceptToolChanges'] ?? 'manual';
  if (acceptToolChanges !== 'auto' && acceptToolChanges !== 'manual') throw invalid(`'acceptToolChanges' must be 'auto' or 'manual'`, 'acceptToolChanges', name);
  const type = transport['type'];
  if (type === 'stdio') {
    checkKeys(transport, STDIO_KEYS, 'transport.', name);
    const command = transport['command'];
    if (typeof command !== 'string' || command.length === 0) throw invalid(`a stdio transport needs a 'command'`, 'transport.command', name);
    const args = transport['args'] ?? [];
    if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === 'string')) throw invalid(`'transport.args' must be an array of strings`, 'transport.args', name);
    const cwd = transport['cwd'];
    if (cwd !== undefined && (typeof cwd !== 'string' || cwd.length === 0)) throw invalid(`'transport.cwd' must be a directory path`, 'transport.cwd', name);
    return { name, transport: { type, command, args: [...args], ...(cwd === undefined ? {} : { cwd }) }, env, timeoutMs, acceptToolChanges };
  }
  if (type === 'http' || type === 'streamable-http') {
    checkKeys(transport, HTTP_KEYS, 'transport.', name);
    const url = transport['url'];
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw invalid(`'transport.url' must be an http:// or https:// URL`, 'transport.url', name);
    if (Object.keys(env).length > 0) throw invalid(`'env' applies to stdio servers only; send values to an HTTP server with 'transport.headers'`, 'env', name);
    const headers = stringMap(transport['headers'], 'transport.headers', name);
    return { name, transport: { type: 'streamable-http', url: parsed.href, headers }, env, timeoutMs, acceptToolChanges };
  }
  throw invalid(`'transport.type' must be 'stdio', 'http' or 'streamable-http' (got ${JSON.stringify(type)})`, 'transport.type', name);
}
