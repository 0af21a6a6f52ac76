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
export { createAgentEvent, isKnownAgentEvent, nestedAgentEvent, parseAgentEvent, withEventMetadata } from './events/agent-event.js';
export type { AgentEvent, AgentEventMetadata, AgentEventOfType, AgentEventPayloadV1, KnownAgentEvent, UnknownAgentEvent, UnknownAgentEventType } from './events/agent-event.js';
export { agentEventJsonSchemaV1 } from './events/agent-event-schema.js';

export type { JsonSchema } from './tools/json-schema.js';
export type { FromJsonSchema } from './tools/from-json-schema.js';
export { defineTool } from './tools/define-tool.js';
export type { ToolDefinitionInput, ToolParametersSchema } from './tools/define-tool.js';
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
export type { ToolSource, ToolSourceBinding, ToolSurface } from './tools/tool-source.js';
export type { AnyTool } from './tools/tool-registry.js';

export type { InvocationOrigin } from './kernel/invocation-origin.js';
export { InvocationRuntime } from './kernel/invocation-runtime.js';
export type { NestedInvocationGateway, NestedInvokeOptions } from './kernel/invocation-runtime.js';

// ---- kernel (governed tool invocation: pipeline, lifecycle, HITL, hooks, budget, redaction, artifacts) ----
export { InvocationKernel } from './kernel/invocation-kernel.js';
export type { ActiveInvocation, InvocationKernelOptions, InvocationRequest } from './kernel/invocation-kernel.js';
export { InvocationLifecycle, isTerminalState } from './kernel/invocation-lifecycle.js';
export type { InvocationOutcome, InvocationState } from './kernel/invocation-lifecycle.js';
export {
  DEFAULT_ABORT_GRACE_MS,
  DEFAULT_MAX_CONCURRENT_TOOLS,
  DEFAULT_MAX_INLINE_OUTPUT_BYTES,
  DEFAULT_MAX_NESTING_DEPTH,
  DEFAULT_TOOL_TIMEOUT_MS,
  MIN_INLINE_OUTPUT_BYTES,
} from './kernel/kernel-options.js';
export { CONFIRMATION_LANES, confirmationLaneOf } from './confirmation/confirmation-lane.js';
export type { ConfirmationLane } from './confirmation/confirmation-lane.js';
export { ConfirmationManager, DEFAULT_CONFIRMATION_POLICY, validateConfirmationPolicy } from './confirmation/confirmation-manager.js';
export type {
  ConfirmationOutcome,
  ConfirmationPolicy,
  ConfirmationPolicyInput,
  ConfirmationRequest,
  PendingConfirmation,
} from './confirmation/confirmation-manager.js';
export { DEFAULT_HOOK_PRIORITY, DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, HookRegistry } from './hooks/hook-registry.js';
export type {
  HookAction,
  HookConfig,
  HookEventName,
  HookHandler,
  HookInvocation,
  HookMatcher,
  HookMatchTarget,
  HookResult,
  HookRunResult,
} from './hooks/hook-registry.js';
export { BudgetGuard } from './budget/budget-guard.js';
export type { BudgetGuardOptions, BudgetKind, BudgetLimits, BudgetUsage } from './budget/budget-guard.js';
export { SECRET_ENV_NAME_FRAGMENTS, buildChildEnvironment, isSecretEnvName } from './security/child-environment.js';
export { DefaultSecurityProvider, MIN_SECRET_VALUE_LENGTH, NO_REDACTION, REDACTION_MARKER } from './security/security-provider.js';
export type { DefaultSecurityProviderOptions, SecurityProvider } from './security/security-provider.js';
export { ArtifactStore, DEFAULT_MAX_ARTIFACTS, DEFAULT_MAX_ARTIFACT_BYTES } from './artifacts/artifact-store.js';
export type { Artifact, ArtifactRef, ArtifactStoreLimits, ArtifactStoreSnapshot } from './artifacts/artifact-store.js';
export { boundUtf8HeadTail, omissionMarker, utf8ByteLength } from './artifacts/utf8.js';
export { WEB_CLIENT_SERVICE, isWebClient } from './web/web-client.js';
export type { WebClient, WebRequest, WebResponse } from './web/web-client.js';
export { SENSITIVE_QUERY_PARAMS, isSensitiveQueryParam, stripSensitiveQueryParams } from './web/sensitive-query-params.js';
export type { BoundedText } from './artifacts/utf8.js';

export type {
  BackendCallOptions,
  ByteRange,
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
export { parseToolCallInput } from './llm/parse-tool-call-input.js';
export { ToolCallIdAllocator } from './llm/tool-call-id-allocator.js';
export { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_NODES } from './kernel/argument-bounds.js';
export { StreamInterruptedError } from './llm/retry/attempt-failure.js';
export type { AttemptFailure } from './llm/retry/attempt-failure.js';
export { apiErrorFailure, brokenStreamFailure, connectionFailure, safeCause } from './llm/retry/classify-failure.js';
export type { ApiErrorFields } from './llm/retry/classify-failure.js';
export { REDACTED, redactSecrets } from './llm/retry/redact-secrets.js';
export {
  DEFAULT_MAX_RETRIES,
  MAX_HONOURED_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  backoffDelayMs,
  isRetryableStatus,
  parseRetryAfterMs,
} from './llm/retry/retry-policy.js';
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS, streamWithRetries } from './llm/retry/stream-with-retries.js';
export type { RunAttempt, StreamWithRetriesOptions } from './llm/retry/stream-with-retries.js';

// ---- permission policy (rules, shell-command analysis) ----
export { evaluatePermission, validatePermissionPolicy } from './permission/permission-policy.js';
export type { PermissionDecision, PermissionDecisionValue, PermissionPolicy, PermissionRequest } from './permission/permission-policy.js';
export { MAX_PERMISSION_RULE_LENGTH, parsePermissionRule } from './permission/permission-rule.js';
export type { PermissionRule } from './permission/permission-rule.js';
export type { CommandPattern } from './permission/command-pattern.js';
export type { PathGlob } from './permission/path-glob.js';
export { analyzeShellCommand } from './permission/shell-command-parser.js';
export type { ShellCommandAnalysis, ShellSubCommand } from './permission/shell-command-parser.js';
export { MAX_SHELL_NESTING_DEPTH } from './permission/shell-issue.js';
export type { ShellIssue, ShellIssueKind } from './permission/shell-issue.js';

// ---- session runtime (agent loop, runs, streams) ----
export { AdmissionGate } from './session/admission-gate.js';
export type { AdmissionLease } from './session/admission-gate.js';
export { AgentSession } from './session/agent-session.js';
export { Conversation, validateMessages } from './session/conversation.js';
export type { ConversationCheckpoint } from './session/conversation.js';
export { SessionEventBus, DEFAULT_MAX_TRACE_EVENTS } from './session/session-event-bus.js';
export type { RunEventSink } from './session/session-event-bus.js';
export { RunExecutor } from './session/run-executor.js';
export type { RunExecutorDeps } from './session/run-executor.js';
export { MemorySessionStore } from './session/memory-session-store.js';
export { isSessionStore, validateSessionId } from './session/session-store.js';
export type { SessionStore, SessionStoreCapabilities, SessionStoreEntry } from './session/session-store.js';
export { SESSION_SNAPSHOT_SCHEMA, isRunSnapshot, parseSessionSnapshot, parseSessionSnapshotText, serializeSessionSnapshot } from './session/session-snapshot.js';
export type { SessionSnapshotV1, SnapshotOrigin, SubagentTaskSnapshot } from './session/session-snapshot.js';
export { SessionPersistence } from './session/session-persistence.js';
export type { SessionPersistenceOptions, SnapshotDraft } from './session/session-persistence.js';
export { runVerificationCommands } from './session/verify-commands.js';
export type { VerificationCommand, VerificationRunner } from './session/verify-commands.js';
export { VERIFICATION_REPORT_JSON_SCHEMA, VERIFICATION_REPORT_SCHEMA, validateVerificationReport } from './verification/verification-report.js';
export type { VerificationCheckV1, VerificationReportV1, VerificationStatus } from './verification/verification-report.js';
export { summarizeVerification, verificationSummaryText } from './verification/verification-summary.js';
export type { VerificationSubjectSummary, VerificationSummary } from './verification/verification-summary.js';
export { DEFAULT_MAX_VERIFICATION_REPORTS, VerificationLedger } from './verification/verification-ledger.js';
export { builtinSubagents, DEFAULT_SUBAGENT_MAX_STEPS, DELEGATION_TOOLS, WORKER_KIND_TOOLS, workerDefinition } from './subagents/subagent-definition.js';
export type { ConfirmationInheritance, SubagentDefinition, SubagentToolSet } from './subagents/subagent-definition.js';
export type { ChildSession, ChildSessionRequest, SessionFactory } from './subagents/session-factory.js';
export { isSubagentService } from './subagents/subagent-service.js';
export type { SubagentFanOutOptions, SubagentRunOptions, SubagentService, SubagentTaskRequest, SubagentTaskResult, SubagentTaskStatus, SubagentUsage } from './subagents/subagent-service.js';
export { MAX_TASK_SNAPSHOTS, SubagentManager } from './subagents/subagent-manager.js';
export type { SubagentManagerDeps } from './subagents/subagent-manager.js';
export { DelegatedConfirmationManager } from './subagents/delegated-confirmation.js';
export { DEFAULT_AUTO_DELEGATION_MAX_TASKS, delegationSection } from './subagents/delegation-prompt.js';
export { isGenerationService } from './llm/generation-service.js';
export type { GenerationService } from './llm/generation-service.js';
export { hookedLlmClient } from './session/hooked-llm-client.js';
export { MAX_PLAN_STEPS, PlanBoard, isPlan } from './planning/plan-board.js';
export type { PlanItem, PlanStatus } from './planning/plan-board.js';
export { isPlanService } from './planning/plan-service.js';
export type { PlanService } from './planning/plan-service.js';
export { looksMultiStep } from './planning/planning-mode.js';
export { SlashCommandRegistry } from './session/slash-commands.js';
export { SkillLibrary } from './skills/skill-library.js';
export type { SkillDefinition, SkillMatch } from './skills/skill-library.js';
export { isSkillService } from './skills/skill-service.js';
export type { SkillService } from './skills/skill-service.js';
export { inlineSkills } from './skills/inline-skills.js';
export type { InlineSkill } from './skills/inline-skills.js';
export type { SlashCommandContext, SlashCommandHandler, SlashCommandInfo } from './session/slash-commands.js';
export { MAX_PLANNED_STEPS, runPlanningPhase } from './planning/planning-phase.js';
export type { PlanningPhaseDeps } from './planning/planning-phase.js';
export type { GenerationScope } from './session/hooked-llm-client.js';
export { COMPACTION_SUMMARY_MARKER } from './session/compaction-plan.js';
export { ContextCompactor, isContextOverflowError } from './session/context-compactor.js';
export type { CompactionContext, CompactionOutcome, CompactionReason, ContextCompactorOptions, TurnLoopCompaction } from './session/context-compactor.js';
export { COMPACTION_SYSTEM_PROMPT } from './session/summarize-conversation.js';
export { estimateRequestTokens } from './session/token-estimate.js';
export type { TokenEstimateInput } from './session/token-estimate.js';
export type { ActiveTool, AgentSessionInit } from './session/agent-session.js';
export { EventStream } from './session/event-stream.js';
export { DEFAULT_RETENTION_LIMITS, DEFAULT_RUN_EVENT_PAGE_LIMIT, RunStore } from './session/run-store.js';
export type { RetentionLimits, RunEventPage, RunHandle, RunRecord, RunSnapshot, RunStatus, RunUsage } from './session/run-store.js';
export { normalizeSendRequest, toUserMessage } from './session/send-request.js';
export type { Attachment, SendRequest, SendResult } from './session/send-request.js';
export { SESSION_OPTION_DEFAULTS, SESSION_OPTION_NAMES, resolveSessionOptions } from './session/session-options.js';
export type { ResolvedSessionOptions, SessionOptions, WebFetchOptions, WorkerAgentSpec, WorkerKind } from './session/session-options.js';
export { SESSION_STATE_VERSION } from './session/session-state.js';
export type { SessionStateV1 } from './session/session-state.js';
export { buildSystemPrompt } from './session/system-prompt.js';
export type { SystemPromptContext } from './session/system-prompt.js';
export { ToolCallRunner } from './session/tool-call-runner.js';
export type { ToolCallRequest } from './session/tool-call-runner.js';
export { cancelledError, runTurnLoop, stableJson, toBase64 } from './session/turn-loop.js';
export type { TurnLoopContext, TurnLoopLimits, TurnLoopOutcome } from './session/turn-loop.js';
