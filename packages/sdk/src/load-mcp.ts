import { CodeError } from '@a3s-lab/code-core';
import type { McpServerConfig } from './mcp-types.js';
import type { ToolSurface } from '@a3s-lab/code-core';

import type { McpToolSourceHandle } from './mcp-tool-source-handle.js';
import type { SessionMcpBinding } from './session-mcp-binding.js';

/**
 * What the SDK uses of the `@a3s-lab/code-mcp` module, loaded on first use. Declared here (the
 * loaded module is checked against it where it is imported) so that no declaration of this
 * package names the optional package.
 */
export interface McpModule {
  /** A session's MCP binding with no global servers. */
  readonly SessionMcp: new (surface: ToolSurface) => SessionMcpBinding;
  /** The agent-level source, connecting every configured server (in parallel). */
  readonly McpToolSource: { create(configs: readonly McpServerConfig[]): Promise<McpToolSourceHandle> };
}

/** The package that carries MCP support; installed only by users who need it. */
export const MCP_PACKAGE: string = '@a3s-lab/code-mcp';

let loading: Promise<McpModule> | undefined;

/**
 * Loads `@a3s-lab/code-mcp` the first time MCP is used (an `mcp_servers` block in the config, or
 * `session.addMcp()`), so hosts that never use MCP never load the MCP SDK.
 *
 * @throws CodeError MCP_ERROR (`details.reason` `package_missing`) naming the package to install.
 */
export function loadMcp(): Promise<McpModule> {
  loading ??= importMcp(() => import('@a3s-lab/code-mcp')).catch((error: unknown) => {
    // A failed load is not cached: installing the package fixes the next attempt.
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Runs `importer` (the dynamic import of {@link MCP_PACKAGE}) and names the package when it is missing. */
export async function importMcp(importer: () => Promise<McpModule>): Promise<McpModule> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CodeError('MCP_ERROR', `MCP support needs the '${MCP_PACKAGE}' package: install it next to @a3s-lab/code (npm install ${MCP_PACKAGE})`, {
        cause: error,
        details: { reason: 'package_missing', package: MCP_PACKAGE },
      });
    }
    throw error;
  }
}
