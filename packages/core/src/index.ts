// Public surface of @a3s-lab/code-core: what hosts, custom-tool authors and backend (workspace,
// session store) authors use. Provider-client authors: `./provider`; sibling packages of this
// repository: `./internal`. Every export is listed by name; the API report (api-report.md) pins
// the list, so a change to the surface is a reviewed diff.

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
export { createAgentEvent, isKnownAgentEvent, parseAgentEvent } from './events/agent-event.js';
export type { AgentEvent, AgentEventMetadata, AgentEventOfType, AgentEventPayloadV1, KnownAgentEvent, UnknownAgentEvent, UnknownAgentEventType } from './events/agent-event.js';
export { agentEventJsonSchemaV1 } from './events/agent-event-schema.js';
export type { JsonSchema } from './tools/json-schema.js';
export type { FromJsonSchema } from './tools/from-json-schema.js';
export { defineTool } from './tools/define-tool.js';
export type { ToolDefinitionInput, ToolParametersSchema } from './tools/define-tool.js';
export { DEFAULT_TOOL_CAPABILITIES, READ_ONLY_TOOL_CAPABILITIES } from './tools/tool-capabilities.js';
export type { ToolCapabilities, ToolOutputKind } from './tools/tool-capabilities.js';
export { toolFailure } from './tools/tool-result.js';
export type { ToolAttachment, ToolOutput, ToolResult } from './tools/tool-result.js';
export type { PermissionTarget, Tool, ToolContext, ToolDefinition, ToolServices } from './tools/tool.js';
export type { ToolSource, ToolSourceBinding, ToolSurface } from './tools/tool-source.js';
export type { AnyTool } from './tools/tool-registry.js';
export type { InvocationOrigin } from './kernel/invocation-origin.js';
export { InvocationRuntime } from './kernel/invocation-runtime.js';
export type { NestedInvocationGateway, NestedInvokeOptions } from './kernel/invocation-runtime.js';
export type { ConfirmationOutcome, ConfirmationPolicy, ConfirmationPolicyInput, PendingConfirmation } from './confirmation/confirmation-manager.js';
export { HOOK_EVENTS } from './hooks/hook-registry.js';
export type { HookAction, HookConfig, HookEventName, HookHandler, HookInvocation, HookMatcher, HookMatchTarget, HookResult } from './hooks/hook-registry.js';
export type { BudgetKind, BudgetLimits, BudgetUsage } from './budget/budget-guard.js';
export { DefaultSecurityProvider, REDACTION_MARKER } from './security/security-provider.js';
export type { DefaultSecurityProviderOptions, SecurityProvider } from './security/security-provider.js';
export type { Artifact, ArtifactRef } from './artifacts/artifact-store.js';
export type { WebClient, WebRequest, WebResponse } from './web/web-client.js';
export type { BackendCallOptions, ByteRange, ExecOptions, ExecResult, GitOptions, GlobOptions, Page, SearchLine, SearchOptions, SearchOutputMode, SearchResult, WorkspaceBackend, WorkspaceCapabilities, WorkspaceCapability, WorkspaceEntry, WorkspaceEntryType, WorkspaceFile, WorkspaceStat, WriteFileOptions } from './workspace/workspace-backend.js';
export type { LlmCallOptions, LlmClient, LlmContentPart, LlmMessage, LlmRequest, LlmStopReason, LlmStreamEvent, LlmUsage } from './llm/llm-client.js';
export type { PermissionDecision, PermissionDecisionValue, PermissionPolicy, PermissionRequest } from './permission/permission-policy.js';
export { MemorySessionStore } from './session/memory-session-store.js';
export { isSessionStore, validateSessionId } from './session/session-store.js';
export type { SessionStore, SessionStoreCapabilities, SessionStoreEntry } from './session/session-store.js';
export { parseSessionSnapshot, parseSessionSnapshotText, serializeSessionSnapshot, SESSION_SNAPSHOT_SCHEMA } from './session/session-snapshot.js';
export type { SessionSnapshotV1, SnapshotOrigin, SubagentTaskSnapshot } from './session/session-snapshot.js';
export type { VerificationCommand } from './session/verify-commands.js';
export { validateVerificationReport, VERIFICATION_REPORT_JSON_SCHEMA, VERIFICATION_REPORT_SCHEMA } from './verification/verification-report.js';
export type { VerificationCheckV1, VerificationReportV1, VerificationStatus } from './verification/verification-report.js';
export { verificationSummaryText } from './verification/verification-summary.js';
export type { VerificationSubjectSummary, VerificationSummary } from './verification/verification-summary.js';
export type { ConfirmationInheritance, SubagentDefinition, SubagentToolSet } from './subagents/subagent-definition.js';
export type { SubagentFanOutOptions, SubagentRunOptions, SubagentTaskRequest, SubagentTaskResult, SubagentTaskStatus, SubagentUsage } from './subagents/subagent-service.js';
export type { PlanItem, PlanStatus } from './planning/plan-board.js';
export type { SkillDefinition } from './skills/skill-library.js';
export type { InlineSkill } from './skills/inline-skills.js';
export type { SlashCommandContext, SlashCommandHandler, SlashCommandInfo } from './session/slash-commands.js';
export type { ActiveTool } from './session/agent-session.js';
export { EventStream } from './session/event-stream.js';
export type { RetentionLimits, RunEventPage, RunRecord, RunSnapshot, RunStatus, RunUsage } from './session/run-store.js';
export type { Attachment, SendRequest, SendResult } from './session/send-request.js';
export type { SessionOptions, WebFetchOptions, WorkerAgentSpec, WorkerKind } from './session/session-options.js';
export { sessionOptionsJsonSchema } from './session/session-options-schema.js';
export { SESSION_STATE_VERSION } from './session/session-state.js';
export type { SessionStateV1 } from './session/session-state.js';
// Data types of the optional MCP and S3 packages, declared here so that @a3s-lab/code's typings
// name them without those packages (which re-export them).
export type { McpHttpTransportConfig, McpStdioTransportConfig, McpTransportConfig } from './mcp/mcp-transport-config.js';
export type { McpServerConfig } from './mcp/mcp-server-config.js';
export type { McpServerStatus } from './mcp/mcp-server-status.js';
export type { S3ConnectionOptions } from './s3/s3-connection-options.js';
export type { S3WorkspaceBackendOptions } from './s3/s3-workspace-backend-options.js';
export type { S3SessionStoreOptions } from './s3/s3-session-store-options.js';
export type { S3LeaseRecord } from './s3/s3-lease-record.js';
export type { S3LeaseAttempt } from './s3/s3-lease-attempt.js';
export type { S3SessionLeasesLike } from './s3/s3-session-leases-like.js';
