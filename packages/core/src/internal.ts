// @a3s-lab/code-core/internal: what the sibling packages of this repository (tools, local, mcp,
// ptc, web, sdk) need from core and hosts do not. Not a public API: it changes with any release.
// Every export is listed by name; the API report (api-report.md) pins the list.

export { canRunInParallel, resolveToolCapabilities } from './tools/tool-capabilities.js';
export { ToolRegistry } from './tools/tool-registry.js';
export { InvocationKernel } from './kernel/invocation-kernel.js';
export type { InvocationKernelOptions } from './kernel/invocation-kernel.js';
export { ConfirmationManager } from './confirmation/confirmation-manager.js';
export { HookRegistry } from './hooks/hook-registry.js';
export { BudgetGuard } from './budget/budget-guard.js';
export { buildChildEnvironment, isSecretEnvName, SECRET_ENV_NAME_FRAGMENTS } from './security/child-environment.js';
export { boundUtf8HeadTail, truncateUtf8, utf8Boundary, utf8ByteLength } from './artifacts/utf8.js';
export { isWebClient, WEB_CLIENT_SERVICE } from './web/web-client.js';
export { stripSensitiveQueryParams } from './web/sensitive-query-params.js';
export { normalizeHostName, normalizeHostPattern } from './web/host-name.js';
export { evaluatePermission, mergePermissionPolicies, strictestPermission, validatePermissionPolicy } from './permission/permission-policy.js';
export type { PermissionPolicyBlock } from './permission/permission-policy.js';
export { AgentSession } from './session/agent-session.js';
export { builtinSubagents, describeSubagentAuthority, workerDefinition } from './subagents/subagent-definition.js';
export type { ChildSessionRequest } from './subagents/session-factory.js';
export { isSubagentService } from './subagents/subagent-service.js';
export type { SubagentService } from './subagents/subagent-service.js';
export { isGenerationService } from './llm/generation-service.js';
export type { GenerationService } from './llm/generation-service.js';
export { isPlanService } from './planning/plan-service.js';
export { isSkillService } from './skills/skill-service.js';
export type { SkillService } from './skills/skill-service.js';
export { COMPACTION_SUMMARY_MARKER } from './session/compaction-plan.js';
export { COMPACTION_SYSTEM_PROMPT } from './session/summarize-conversation.js';
export { resolveSessionOptions, SESSION_OPTION_NAMES } from './session/session-options.js';
export { loadOtelApi, otelApi, preloadOpenTelemetry } from './telemetry/otel-api.js';
export { declaredErrorKind, isToolErrorKind } from './errors/tool-error-kind.js';
export { assertPackageInstalled, lazyOptionalPackage, missingPackageError } from './errors/optional-package.js';
export type { OptionalPackage } from './errors/optional-package.js';
export { execOutputText } from './tools/exec-output-text.js';

// ---- workspace helpers shared by the backends (local, s3) ----
export { abortError, throwIfAborted } from './workspace/abort.js';
export { decodeCursor, encodeCursor } from './workspace/search-cursor.js';
export { anchorGlob, compileGlobRule, escapeGlobLiteral, ruleMatches } from './glob/glob-pattern.js';
export type { GlobRule } from './glob/glob-pattern.js';
export { standaloneValidatorMapSource, standaloneValidatorSource } from './validation/standalone-validator-source.js';
export type { StandaloneValidatorMapSpec, StandaloneValidatorSpec } from './validation/standalone-validator-source.js';
export { ARGUMENT_VALIDATOR_OPTIONS, registerPrecompiledArgumentValidators } from './kernel/stages/validate-arguments.js';
export type { PrecompiledValidatorSource } from './kernel/stages/validate-arguments.js';
export { ucs2length } from './validation/ucs2length.js';
export { describeUnsafePatterns, safeRegExp } from './validation/safe-pattern.js';
export { requireOnce } from './modules/require-once.js';
export { HOST_TERMINATION_SIGNALS, processGroupRegistry, signalProcessGroup } from './process/process-group-registry.js';
export type { HostProcess, ProcessGroupRegistry } from './process/process-group-registry.js';
export { sweepMarkedProcesses } from './process/marked-process-sweep.js';
export type { MarkedProcess, ProcessTable } from './process/marked-process-sweep.js';
