import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How to start the fixture MCP server over stdio: pass it as an MCP stdio transport. */
export interface FixtureMcpStdioCommand {
  readonly command: string;
  readonly args: string[];
}

/**
 * The command that starts the fixture MCP server (`createFixtureMcpServer` with the process
 * tools) over stdio in a process of its own: this Node binary running the built entry point, or,
 * when this package runs from its TypeScript sources, the source entry point through tsx.
 */
export function fixtureMcpStdioCommand(): FixtureMcpStdioCommand {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  const entry = join(dirname(here), `fixture-mcp-stdio.${fromSource ? 'ts' : 'js'}`);
  if (!fromSource) return { command: process.execPath, args: [entry] };
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const loader = pathToFileURL(join(dirname(tsxPackage), 'dist', 'loader.mjs')).href;
  return { command: process.execPath, args: ['--import', loader, entry] };
}
