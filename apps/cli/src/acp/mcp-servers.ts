// The client's MCP servers (`session/new`, `session/load`) connected through our MCP bridge,
// session-scoped: `session.addMcp` governs their tools like every other (`mcp__<server>__<tool>`).
import type { McpServerConfig, Session } from '@a3s-lab/code';
import { RequestError } from '@agentclientprotocol/sdk';
import type { McpServer } from '@agentclientprotocol/sdk';

/** An ACP MCP server description as our config. SSE is refused (not advertised). */
export function mcpServerConfig(server: McpServer, cwd: string): McpServerConfig {
  if ('type' in server && server.type === 'sse') throw RequestError.invalidParams({ name: server.name }, `MCP server '${server.name}': the sse transport is not supported (use stdio or http)`);
  if ('type' in server && server.type === 'http') {
    const headers = Object.fromEntries(server.headers.map((header) => [header.name, header.value]));
    return { name: server.name, transport: { type: 'http', url: server.url, ...(server.headers.length === 0 ? {} : { headers }) } };
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  const env = Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value]));
  return { name: stdio.name, transport: { type: 'stdio', command: stdio.command, args: [...stdio.args], cwd }, ...(stdio.env.length === 0 ? {} : { env }) };
}

/** Connects every server to `session`; the first failure is an invalid-params error naming it. */
export async function addMcpServers(session: Session, servers: readonly McpServer[], cwd: string): Promise<void> {
  for (const server of servers) {
    const config = mcpServerConfig(server, cwd);
    try {
      await session.addMcp(config);
    } catch (error) {
      throw RequestError.invalidParams({ name: server.name }, `MCP server '${server.name}' could not be connected: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
