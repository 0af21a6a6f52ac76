import { createHash } from 'node:crypto';

/** Longest tool name providers accept (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME_LENGTH = 64;

const VALID = /^[a-zA-Z0-9_-]+$/;

/** Length of the hash suffix of a shortened name (hex digits of SHA-256). */
const HASH_LENGTH = 8;

/**
 * The model-facing name of MCP tool `tool` of server `server`: `mcp__<server>__<tool>`.
 *
 * Naming policy (deterministic: the same server and tool always give the same name):
 * - when `mcp__<server>__<tool>` is at most 64 characters of `[a-zA-Z0-9_-]`, that is the name;
 * - otherwise characters outside `[a-zA-Z0-9_-]` become `_`, the result is cut so that `_` plus
 *   the first 8 hex digits of SHA-256 of the ORIGINAL tool name fit in 64 characters, and that
 *   suffix is appended: `mcp__github__summarise_every_open_pull_req_1a2b3c4d`.
 * The hash keeps two long or non-ASCII names that share a prefix apart. A name that would still
 * collide with another tool of the same server is reported by {@link assignMcpToolNames}.
 */
export function mcpToolName(server: string, tool: string): string {
  const plain = `mcp__${server}__${tool}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && VALID.test(tool)) return plain;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, HASH_LENGTH);
  const prefix = `mcp__${server}__`;
  const room = MAX_TOOL_NAME_LENGTH - prefix.length - HASH_LENGTH - 1;
  const cleaned = tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, Math.max(room, 0));
  return `${prefix}${cleaned}_${hash}`;
}

/** The outcome of naming one server's tools. */
export interface McpToolNaming {
  /** Model-facing name -> MCP tool name, for the tools that got a unique name. */
  readonly names: ReadonlyMap<string, string>;
  /** MCP tool names left out because their model-facing name was already taken. */
  readonly collisions: readonly string[];
}

/**
 * Names every tool of a server with {@link mcpToolName}. The first tool (in the server's list
 * order) keeps a name; a later tool whose name collides is left out and listed in
 * `collisions`, so two MCP tools never share one model-facing name.
 */
export function assignMcpToolNames(server: string, tools: readonly string[]): McpToolNaming {
  const names = new Map<string, string>();
  const collisions: string[] = [];
  for (const tool of tools) {
    const name = mcpToolName(server, tool);
    if (names.has(name)) collisions.push(tool);
    else names.set(name, tool);
  }
  return { names, collisions };
}
