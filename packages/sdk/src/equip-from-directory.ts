import { CodeError } from '@a3s-lab/code-core';
import type { AgentDirectory } from '@a3s-lab/code-config';
import { createScriptTool } from './script-tool.js';
import type { Session } from './session.js';

/**
 * Gives `session` what an agent directory declares beyond its instructions: its `kind: script`
 * tools (and, through {@link equipFromDirectory}, its `kind: mcp` servers).
 */
export function equipFromDirectorySync(session: Session, directory: AgentDirectory): void {
  for (const tool of directory.tools) {
    if (tool.kind === 'script') session.registerTool(createScriptTool(tool), { replace: true });
    else {
      throw new CodeError('CONFIG_ERROR', `${tool.file}: MCP tools of agent directories are not supported yet (kind: mcp)`, { details: { file: tool.file, tool: tool.name } });
    }
  }
}

/** Async form of {@link equipFromDirectorySync} (MCP servers connect asynchronously). */
export async function equipFromDirectory(session: Session, directory: AgentDirectory): Promise<void> {
  equipFromDirectorySync(session, directory);
}
