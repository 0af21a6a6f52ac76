// @a3s-lab/code-mcp: MCP servers (stdio, Streamable HTTP) as governed tools of A3S Code sessions.
export { DEFAULT_MCP_TIMEOUT_MS, MAX_MCP_TIMEOUT_MS, resolveMcpServerConfig } from './mcp-server-config.js';
export type { ResolvedMcpServerConfig } from './mcp-server-config.js';
// The config and status data types (plain data; @a3s-lab/code declares its own copies, kept assignable by a typecheck).
export type { McpHttpTransportConfig, McpServerSandbox, McpStdioTransportConfig, McpTransportConfig } from './mcp-transport-config.js';
export type { McpLeftOutTool, McpSanitizedTool, McpServerStatus, McpToolChanges } from './mcp-server-status.js';
export type { McpServerConfig } from './mcp-server-config.js';
export { MAX_TOOL_NAME_LENGTH, assignMcpToolNames, mcpToolName } from './mcp-tool-name.js';
export type { McpToolNaming } from './mcp-tool-name.js';
export { mcpError } from './mcp-error.js';
export type { McpErrorReason } from './mcp-error.js';
export { MAX_MCP_RECONNECTS, MAX_TOOL_LIST_PAGES, McpConnection } from './mcp-connection.js';
export type { McpConnectionState, McpConnectionStatus } from './mcp-connection.js';
export { MAX_MCP_ATTACHMENT_BYTES, toToolOutput } from './mcp-call-result.js';
export type { McpCallOrigin } from './mcp-call-result.js';
export { MAX_MCP_DESCRIPTION_LENGTH, MAX_MCP_SCHEMA_BYTES, capabilitiesFromAnnotations, createMcpTool, sanitizeDescription, stripInvisibleCharacters } from './mcp-tool.js';
export { McpManager } from './mcp-manager.js';
export type { McpServerTools } from './mcp-manager.js';
export { mcpToolDefinitionHash } from './mcp-tool-pins.js';
export type { McpToolChangeRecord } from './mcp-tool-pins.js';
export { SessionMcp } from './session-mcp.js';
export { McpToolSource } from './mcp-tool-source.js';
export { MAX_STDIO_MESSAGE_BYTES, STDERR_TAIL_BYTES, STDIO_KILL_GRACE_MS, StdioProcessTransport } from './stdio-process-transport.js';
export type { StdioProcessTransportOptions } from './stdio-process-transport.js';
