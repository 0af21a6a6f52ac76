// Public surface of @a3s-lab/code. Exports are listed by name; src/index.test.ts pins them.
export { Agent } from './agent.js';
export type { AgentCreateOptions, AgentWarning, ServeAgentDirOptions } from './agent.js';
export type { SandboxUnavailableWarning } from './session-sandbox.js';
export type { SkippedSkill } from './load-skills.js';
export { AgentDirHandle } from './agent-dir-server.js';
export type { ScheduleClock, ScheduleFire } from './agent-dir-server.js';
export { Session } from './session.js';
export type { GenerateObjectOptions, GitOptions, GlobOptions, GrepOptions, ReadFileOptions } from './session-helper-options.js';
export type { TaskResult, ToolResult } from './tool-result-view.js';
export type { FromJsonSchema } from '@a3s-lab/code-core';
export { createLlmClient } from './create-llm-client.js';
export type { LlmClientFactory } from './create-llm-client.js';
export { secretEnvironmentValues } from './secret-environment.js';
// MCP support lives in the optional @a3s-lab/code-mcp (loaded on first use); its config and status
// data types are declared in core, so these typings never name the optional package.
export type { McpHttpTransportConfig, McpLeftOutTool, McpSanitizedTool, McpServerConfig, McpServerSandbox, McpServerStatus, McpStdioTransportConfig, McpToolChanges, McpTransportConfig } from './mcp-types.js';

export { FileSessionStore, LocalWorkspaceBackend } from '@a3s-lab/code-local';
export type { LocalSandboxOptions } from '@a3s-lab/code-local';
// S3 support lives in the optional @a3s-lab/code-s3, loaded on first use by these two classes;
// their option types are plain data declared in core (no S3 package, no AWS SDK in these typings).
export { S3WorkspaceBackend } from './s3-workspace-backend.js';
export { S3SessionStore } from './s3-session-store.js';
export type { S3ConnectionOptions, S3SessionStoreOptions, S3WorkspaceBackendOptions } from './s3-types.js';
// PostgreSQL support lives in the optional @a3s-lab/code-postgres, loaded on first use; the options
// are plain data declared here (no pg or PGlite type in these typings).
export { PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionPage, PostgresSessionQuery, PostgresSessionStoreOptions } from './postgres-session-store-types.js';
export { createFleet } from './postgres-fleet.js';
export type { FleetAgentLike, FleetPendingConfirmation, FleetRun, FleetRunStatus, FleetSessionLike, FleetWorkHandle, PostgresFleet, PostgresFleetOptions, ReconcileDecision } from './postgres-fleet-types.js';
export {
  AGENT_EVENT_TYPES_V1,
  CodeError,
  defineTool,
  isKnownAgentEvent,
  parseAgentEvent,
  ERROR_CODES,
  EventStream,
  HostFailure,
  InvocationRuntime,
  MemorySessionStore,
  SESSION_SNAPSHOT_SCHEMA,
  VERIFICATION_REPORT_SCHEMA,
  agentEventTypesV1,
} from '@a3s-lab/code-core';
export type {
  AgentEvent,
  AgentEventMetadata,
  AgentEventOfType,
  AgentEventPayloadV1,
  AgentEventTypeV1,
  KnownAgentEvent,
  KnownAgentEventTypeV1,
  UnknownAgentEvent,
  UnknownAgentEventType,
  ErrorCode,
  HostFailureReason,
  RunEventPage,
  RunRecord,
  SendRequest,
  SendResult,
  SandboxNetwork,
  SandboxOptions,
  SandboxStatus,
  SessionOptions,
  SessionSnapshotV1,
  SessionStore,
  SessionStoreCapabilities,
  SessionStoreEntry,
  Tool,
  ToolDefinitionInput,
  ToolParametersSchema,
  VerificationCheckV1,
  VerificationCommand,
  VerificationReportV1,
  VerificationSummary,
  ToolContext,
  ToolSource,
  ToolSourceBinding,
  ToolSurface,
  TelemetryOptions,
  WebFetchOptions,
  WorkspaceBackend,
  WorkspaceOverlay,
} from '@a3s-lab/code-core';
