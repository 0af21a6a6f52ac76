// Entry point of the fixture MCP server over stdio (see `fixtureMcpStdioCommand`). Options come
// from the environment: MCP_FIXTURE_LOG (log file), MCP_FIXTURE_PAGE_SIZE (tools per page),
// MCP_FIXTURE_STAY_ALIVE=1 (keep running after stdin closes, like a server that ignores EOF),
// MCP_FIXTURE_HOSTILE=1 (the hostile tools: see `FixtureMcpServerOptions.hostile`),
// MCP_FIXTURE_CATALOG_TOOLS=<n> (generated tools: see `FixtureMcpServerOptions.catalogTools`).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFixtureMcpServer } from './fixture-mcp-server.js';

const pageSize = process.env['MCP_FIXTURE_PAGE_SIZE'];
const logFile = process.env['MCP_FIXTURE_LOG'];
const catalogTools = process.env['MCP_FIXTURE_CATALOG_TOOLS'];
const server = createFixtureMcpServer({
  processFaults: true,
  hostile: process.env['MCP_FIXTURE_HOSTILE'] === '1',
  ...(pageSize === undefined ? {} : { pageSize: Number(pageSize) }),
  ...(logFile === undefined ? {} : { logFile }),
  ...(catalogTools === undefined ? {} : { catalogTools: Number(catalogTools) }),
});
if (process.env['MCP_FIXTURE_STAY_ALIVE'] === '1') setInterval(() => undefined, 1 << 30);
await server.connect(new StdioServerTransport());
