// Public surface of @a3s-lab/code-core. Every export is listed by name: adding one is an API
// decision, and src/index.test.ts pins the list.

export { ERROR_CODES, isErrorCode } from './errors/error-codes.js';
export type { ErrorCode } from './errors/error-codes.js';
export { CodeError } from './errors/code-error.js';
export type { CodeErrorOptions } from './errors/code-error.js';
export { TOOL_ERROR_KIND_TYPES } from './errors/tool-error-kind.js';
export type { ToolErrorKind } from './errors/tool-error-kind.js';
export { HostFailure, toHostFailure } from './errors/host-failure.js';
export type { HostFailureReason } from './errors/host-failure.js';
export { toCodeError } from './errors/to-code-error.js';

export { AGENT_EVENT_TYPES_V1, agentEventTypesV1, isKnownAgentEventType } from './events/agent-event-types.js';
export type { AgentEventTypeV1, KnownAgentEventTypeV1 } from './events/agent-event-types.js';
export { createAgentEvent, parseAgentEvent, withEventMetadata } from './events/agent-event.js';
export type { AgentEvent, AgentEventMetadata } from './events/agent-event.js';

export type { JsonSchema } from './tools/json-schema.js';
export {
  DEFAULT_TOOL_CAPABILITIES,
  READ_ONLY_TOOL_CAPABILITIES,
  canRunInParallel,
  resolveToolCapabilities,
} from './tools/tool-capabilities.js';
export type { ToolCapabilities, ToolOutputKind } from './tools/tool-capabilities.js';
export { toolFailure } from './tools/tool-result.js';
export type { ToolAttachment, ToolOutput, ToolResult } from './tools/tool-result.js';
export { toToolDefinition } from './tools/tool.js';
export type { PermissionTarget, Tool, ToolContext, ToolDefinition, ToolServices } from './tools/tool.js';
export { ToolRegistry } from './tools/tool-registry.js';
export type { AnyTool } from './tools/tool-registry.js';

export type { InvocationOrigin } from './kernel/invocation-origin.js';
export { InvocationRuntime } from './kernel/invocation-runtime.js';
export type { NestedInvocationGateway, NestedInvokeOptions } from './kernel/invocation-runtime.js';

export type {
  BackendCallOptions,
  ExecOptions,
  ExecResult,
  GitOptions,
  GlobOptions,
  Page,
  SearchLine,
  SearchOptions,
  SearchOutputMode,
  SearchResult,
  WorkspaceBackend,
  WorkspaceCapabilities,
  WorkspaceCapability,
  WorkspaceEntry,
  WorkspaceEntryType,
  WorkspaceFile,
  WorkspaceStat,
  WriteFileOptions,
} from './workspace/workspace-backend.js';

export type {
  LlmCallOptions,
  LlmClient,
  LlmContentPart,
  LlmMessage,
  LlmRequest,
  LlmStopReason,
  LlmStreamEvent,
  LlmUsage,
} from './llm/llm-client.js';
