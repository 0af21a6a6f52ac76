import { describe, expect, it } from 'vitest';
import * as mcp from './index.js';

describe('@a3s-lab/code-mcp public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(mcp).sort()).toEqual([
      'DEFAULT_MCP_TIMEOUT_MS',
      'MAX_MCP_ATTACHMENT_BYTES',
      'MAX_MCP_DESCRIPTION_LENGTH',
      'MAX_MCP_RECONNECTS',
      'MAX_MCP_SCHEMA_BYTES',
      'MAX_MCP_TIMEOUT_MS',
      'MAX_STDIO_MESSAGE_BYTES',
      'MAX_TOOL_LIST_PAGES',
      'MAX_TOOL_NAME_LENGTH',
      'McpConnection',
      'McpManager',
      'McpToolSource',
      'STDERR_TAIL_BYTES',
      'STDIO_KILL_GRACE_MS',
      'SessionMcp',
      'StdioProcessTransport',
      'assignMcpToolNames',
      'capabilitiesFromAnnotations',
      'createMcpTool',
      'mcpError',
      'mcpToolDefinitionHash',
      'mcpToolName',
      'resolveMcpServerConfig',
      'sanitizeDescription',
      'stripInvisibleCharacters',
      'toToolOutput',
    ]);
  });
});
