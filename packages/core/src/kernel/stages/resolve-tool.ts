import type { AnyTool, ToolRegistry } from '../../tools/tool-registry.js';
import type { StageStop } from '../invocation-call.js';

/** How many tool names an "unknown tool" message lists before eliding the rest. */
const LISTED_NAMES = 40;

/**
 * Stage 1: finds `toolName` on the session surface. An unknown tool ends the call with
 * `unsupported` and a message naming the available tools, so a model can correct itself.
 */
export function resolveTool(registry: ToolRegistry, toolName: string): AnyTool | StageStop {
  const tool = registry.get(toolName);
  if (tool !== null) return tool;
  const names = registry.names();
  const listed = names.length > LISTED_NAMES ? `${names.slice(0, LISTED_NAMES).join(', ')}, ... (${names.length - LISTED_NAMES} more)` : names.join(', ');
  const message = `Unknown tool '${toolName}'. Available tools: ${listed || '(none)'}`;
  return { output: { output: message, exitCode: 1, errorKind: { type: 'unsupported', message } }, outcome: 'failed' };
}
