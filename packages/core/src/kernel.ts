// @a3s-lab/code-core/kernel: the invocation kernel and the parts a session runtime composes
// around it (registries, guards, the confirmation manager, the artifact store, deferred tools),
// the service contracts tools find in `context.services`, the kernel's telemetry seam and the
// data checks of core's documents. Used by @a3s-lab/code-runtime, by the tools that call session
// services, and by tests that run the kernel directly. Not a stable API for hosts: it changes with
// any minor release. Every export is listed by name; the API report (api/) pins the list.

// ---- the kernel and its parts ----
export { InvocationKernel } from './kernel/invocation-kernel.js';
export type { InvocationKernelOptions, InvocationRequest } from './kernel/invocation-kernel.js';
export { ToolRegistry } from './tools/tool-registry.js';
export { canRunInParallel, resolveToolCapabilities } from './tools/tool-capabilities.js';
export { DEFAULT_DEFER_MCP_TOOLS_THRESHOLD, DeferredTools } from './tools/deferred-tools.js';
export { HookRegistry } from './hooks/hook-registry.js';
export { ConfirmationManager } from './confirmation/confirmation-manager.js';
export type { ConfirmationRequest } from './confirmation/confirmation-manager.js';
export { CONFIRMATION_LANES } from './confirmation/confirmation-lane.js';
export type { ConfirmationLane } from './confirmation/confirmation-lane.js';
export { BudgetGuard } from './budget/budget-guard.js';
export { ArtifactStore } from './artifacts/artifact-store.js';
export { evaluatePermission, mergePermissionPolicies, strictestPermission, validatePermissionPolicy } from './permission/permission-policy.js';
export type { PermissionPolicyBlock } from './permission/permission-policy.js';
export { ARGUMENT_VALIDATOR_OPTIONS, preloadArgumentValidators, registerPrecompiledArgumentValidators } from './kernel/stages/validate-arguments.js';
export type { PrecompiledValidatorSource } from './kernel/stages/validate-arguments.js';
export { withEventMetadata } from './events/agent-event.js';

// ---- services: what tools find in `context.services`, provided by the session runtime ----
export { isWebClient, WEB_CLIENT_SERVICE } from './web/web-client.js';
export { isSubagentService } from './subagents/subagent-service.js';
export type { SubagentService } from './subagents/subagent-service.js';
export { describeSubagentAuthority } from './subagents/subagent-definition.js';
export { isGenerationService } from './llm/generation-service.js';
export type { GenerationService } from './llm/generation-service.js';
export { isPlanService } from './planning/plan-service.js';
export { isSkillService } from './skills/skill-service.js';
export type { SkillService } from './skills/skill-service.js';
export type { SkillMatch } from './skills/skill-definition.js';

// ---- the checks of core's documents (session options, histories, plans) ----
export { sessionOptionsValidator } from './session/session-options-validator.generated.js';
export { NON_JSON_SESSION_OPTIONS } from './session/session-options-schema.js';
export { validateMessages } from './session/validate-messages.js';
export { isPlanStatus, MAX_PLAN_STEPS } from './planning/plan-item.js';
export { summarizeVerification } from './verification/verification-summary.js';

// ---- telemetry: the kernel's seam (the runtime's SessionTelemetry implements it) ----
export type { ConfirmationAnswer, KernelTelemetry, ToolTrace, TracedCall } from './telemetry/tool-trace.js';
export { checkTelemetryProviders, jsonTelemetryOptions } from './telemetry/telemetry-options.js';
