// `@a3s-lab/code-testing/mcp`: real MCP servers (written with @modelcontextprotocol/sdk) for
// testing MCP clients and agents that use MCP tools. A subpath of its own so that the root
// export does not load the MCP SDK.
export { FIXTURE_LONG_TOOL_NAME, FIXTURE_PNG_BASE64, createFixtureMcpServer } from './fixture-mcp-server.js';
export type { FixtureMcpServerOptions } from './fixture-mcp-server.js';
export { startFixtureMcpHttpServer } from './fixture-mcp-http-server.js';
export type { FixtureMcpHttpServer, FixtureMcpHttpServerOptions } from './fixture-mcp-http-server.js';
export { fixtureMcpStdioCommand } from './fixture-mcp-stdio-command.js';
export type { FixtureMcpStdioCommand } from './fixture-mcp-stdio-command.js';
