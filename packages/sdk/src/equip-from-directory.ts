import { CodeError } from '@a3s-lab/code-core';
import type { McpServerConfig } from './mcp-types.js';
import type { AgentDirectory, AgentMcpTool } from '@a3s-lab/code-config';
import { createScriptTool } from './script-tool.js';
import type { Session } from './session.js';

/**
 * Gives `session` what an agent directory declares beyond its instructions: its `kind: script`
 * tools. `kind: mcp` servers connect asynchronously: a directory that declares one needs
 * {@link equipFromDirectory} (`sessionForAgentAsync`, `serveAgentDir`); here it is a CONFIG_ERROR.
 */
export function equipFromDirectorySync(session: Session, directory: AgentDirectory): void {
  for (const tool of directory.tools) {
    if (tool.kind === 'script') session.registerTool(createScriptTool(tool), { replace: true });
    else {
      throw new CodeError('CONFIG_ERROR', `${tool.file}: an MCP tool (kind: mcp) connects asynchronously: open this agent with sessionForAgentAsync() or serveAgentDir()`, {
        details: { file: tool.file, tool: tool.name },
      });
    }
  }
}

/**
 * Gives `session` the directory's tools: `kind: script` tools, and each `kind: mcp` server
 * connected with `session.addMcp()` (its tools become `mcp__<name>__<tool>`).
 */
export async function equipFromDirectory(session: Session, directory: AgentDirectory): Promise<void> {
  for (const tool of directory.tools) {
    if (tool.kind === 'script') session.registerTool(createScriptTool(tool), { replace: true });
    else await session.addMcp(toMcpServerConfig(tool));
  }
}

/** The `addMcp` config of a directory's `kind: mcp` tool file. */
export function toMcpServerConfig(tool: AgentMcpTool): McpServerConfig {
  if (tool.transport === 'stdio') {
    return { name: tool.name, transport: { type: 'stdio', command: tool.command ?? '', args: [...tool.args] }, env: tool.env };
  }
  return { name: tool.name, transport: { type: tool.transport, url: tool.url ?? '' } };
}
