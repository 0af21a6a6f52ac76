import type { ToolCapabilities } from '../tools/tool-capabilities.js';

/** Kinds of call a confirmation policy can auto-approve as a group ("YOLO lanes"). */
export const CONFIRMATION_LANES = ['query', 'write', 'execute', 'network', 'mcp', 'program'] as const;

/**
 * One of {@link CONFIRMATION_LANES}:
 * - `query`: read-only calls (per the call's capabilities);
 * - `write`: file mutations and anything else not covered below;
 * - `execute`: `bash`, `git`;
 * - `network`: `web_fetch`, `web_search`;
 * - `mcp`: tools bridged from MCP servers (`mcp__*`);
 * - `program`: orchestrating programs (`program`, tools with `orchestration: 'program'`).
 */
export type ConfirmationLane = (typeof CONFIRMATION_LANES)[number];

const EXECUTE_TOOLS: ReadonlySet<string> = new Set(['bash', 'git']);
const NETWORK_TOOLS: ReadonlySet<string> = new Set(['web_fetch', 'web_search']);

/**
 * The lane of one call. Origin-specific lanes win over read-only-ness: a read-only MCP tool is
 * still `mcp`, and `git log` is still `execute`, because the lane says who could do what if the
 * capability declaration were wrong.
 */
export function confirmationLaneOf(toolName: string, capabilities: ToolCapabilities, orchestration?: 'program' | 'batch'): ConfirmationLane {
  if (toolName.startsWith('mcp__')) return 'mcp';
  if (orchestration === 'program' || toolName === 'program') return 'program';
  if (EXECUTE_TOOLS.has(toolName)) return 'execute';
  if (NETWORK_TOOLS.has(toolName)) return 'network';
  if (capabilities.readOnly) return 'query';
  return 'write';
}
