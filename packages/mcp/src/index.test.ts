import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as core from '@a3s-lab/code-core';
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

  it('re-exports the config and status data types declared in core (one declaration)', () => {
    expectTypeOf<mcp.McpStdioTransportConfig>().toEqualTypeOf<core.McpStdioTransportConfig>();
    expectTypeOf<mcp.McpHttpTransportConfig>().toEqualTypeOf<core.McpHttpTransportConfig>();
    expectTypeOf<mcp.McpTransportConfig>().toEqualTypeOf<core.McpTransportConfig>();
    expectTypeOf<mcp.McpServerConfig>().toEqualTypeOf<core.McpServerConfig>();
    expectTypeOf<mcp.McpServerStatus>().toEqualTypeOf<core.McpServerStatus>();
  });
});
