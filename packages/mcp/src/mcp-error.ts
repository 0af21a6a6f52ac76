import { CodeError } from '@a3s-lab/code-core';
import type { ToolErrorKind } from '@a3s-lab/code-core';

/**
 * Why an MCP operation failed, in `error.details.reason` of an `MCP_ERROR`:
 * - `connect_failed`: the server could not be started or reached, or `initialize` failed;
 * - `list_failed`: `tools/list` failed;
 * - `disconnected`: the connection dropped (a stdio server exited, an HTTP session ended) during
 *   a call;
 * - `unavailable`: the server dropped earlier and reconnecting failed (calls fail fast until it
 *   is removed and added again);
 * - `timeout`: the server did not answer within `timeoutMs`;
 * - `protocol`: the server answered with a JSON-RPC error;
 * - `duplicate_server`: a server of that name is already in this manager;
 * - `unknown_server`: no server of that name (`acceptMcpToolChanges`);
 * - `closed`: the manager (its session or agent) is closed;
 * - `package_missing`: `@a3s-lab/code-mcp` is not installed (raised by `@a3s-lab/code`).
 */
export type McpErrorReason = 'connect_failed' | 'list_failed' | 'disconnected' | 'unavailable' | 'timeout' | 'protocol' | 'duplicate_server' | 'unknown_server' | 'closed' | 'package_missing';

/** Builds an `MCP_ERROR` naming the server; `errorKind` is what a failed tool call reports. */
export function mcpError(
  reason: McpErrorReason,
  server: string,
  message: string,
  options: { readonly cause?: unknown; readonly errorKind?: ToolErrorKind; readonly details?: Record<string, unknown> } = {},
): CodeError {
  return new CodeError('MCP_ERROR', `MCP server '${server}': ${message}`, {
    details: { reason, server, ...(options.errorKind === undefined ? {} : { errorKind: options.errorKind }), ...options.details },
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
