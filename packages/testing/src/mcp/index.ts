// `@a3s-lab/code-testing/mcp`: real MCP servers (written with @modelcontextprotocol/sdk) for
// testing MCP clients and agents that use MCP tools. A subpath of its own so that the root
// export does not load the MCP SDK, which is an optional peer of this package: importing this
// subpath without it fails with a CONFIG_ERROR naming the package (not a bare "module not found").
import { createRequire } from 'node:module';
import { assertPackageInstalled } from '@a3s-lab/code-core/util';

assertPackageInstalled({ name: '@modelcontextprotocol/sdk', code: 'CONFIG_ERROR', neededBy: '@a3s-lab/code-testing/mcp' }, (name) => createRequire(import.meta.url).resolve(`${name}/server/index.js`));

const fixtureServer = await import('./fixture-mcp-server.js');
const httpServer = await import('./fixture-mcp-http-server.js');
const stdioCommand = await import('./fixture-mcp-stdio-command.js');

/** @see {@link fixtureServer.FIXTURE_LONG_TOOL_NAME} */
export const FIXTURE_LONG_TOOL_NAME: typeof fixtureServer.FIXTURE_LONG_TOOL_NAME = fixtureServer.FIXTURE_LONG_TOOL_NAME;
/** @see {@link fixtureServer.FIXTURE_PNG_BASE64} */
export const FIXTURE_PNG_BASE64: typeof fixtureServer.FIXTURE_PNG_BASE64 = fixtureServer.FIXTURE_PNG_BASE64;
/** @see {@link fixtureServer.FIXTURE_REDOS_PATTERN} */
export const FIXTURE_REDOS_PATTERN: typeof fixtureServer.FIXTURE_REDOS_PATTERN = fixtureServer.FIXTURE_REDOS_PATTERN;
/** @see {@link fixtureServer.FIXTURE_HIDDEN_TEXT_VISIBLE} */
export const FIXTURE_HIDDEN_TEXT_VISIBLE: typeof fixtureServer.FIXTURE_HIDDEN_TEXT_VISIBLE = fixtureServer.FIXTURE_HIDDEN_TEXT_VISIBLE;
/** @see {@link fixtureServer.createFixtureMcpServer} */
export function createFixtureMcpServer(...args: Parameters<typeof fixtureServer.createFixtureMcpServer>): ReturnType<typeof fixtureServer.createFixtureMcpServer> {
  return fixtureServer.createFixtureMcpServer(...args);
}
/** @see {@link httpServer.startFixtureMcpHttpServer} */
export function startFixtureMcpHttpServer(...args: Parameters<typeof httpServer.startFixtureMcpHttpServer>): ReturnType<typeof httpServer.startFixtureMcpHttpServer> {
  return httpServer.startFixtureMcpHttpServer(...args);
}
/** @see {@link stdioCommand.fixtureMcpStdioCommand} */
export function fixtureMcpStdioCommand(...args: Parameters<typeof stdioCommand.fixtureMcpStdioCommand>): ReturnType<typeof stdioCommand.fixtureMcpStdioCommand> {
  return stdioCommand.fixtureMcpStdioCommand(...args);
}
export type { FixtureMcpServerOptions } from './fixture-mcp-server.js';
export type { FixtureMcpHttpServer, FixtureMcpHttpServerOptions } from './fixture-mcp-http-server.js';
export type { FixtureMcpStdioCommand } from './fixture-mcp-stdio-command.js';
