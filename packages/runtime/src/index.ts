// Public surface of @a3s-lab/code-runtime: the session runtime built on @a3s-lab/code-core's
// contracts and kernel. `AgentSession` is one conversation bound to one workspace (turn loop, runs,
// persistence, and its features: subagents, skills, planning, verification, slash commands,
// labels); the facade `@a3s-lab/code` builds it (`Agent.session()`) and wraps it as `Session`.
// Every export is listed by name; the API report (api/) pins the list.

export { AgentSession } from './session/agent-session.js';
export type { AgentSessionInit } from './session/agent-session-init.js';
export type { RequestSentSignal } from './session/preparing-llm-client.js';
export { resolveSessionOptions, SESSION_OPTION_NAMES } from './session/resolve-session-options.js';
export type { ResolvedSessionOptions } from './session/resolve-session-options.js';
export { builtinSubagents, workerDefinition } from './subagents/builtin-subagents.js';
export type { ChildSession, ChildSessionRequest, SessionFactory } from './subagents/session-factory.js';
export type { SessionFeature } from './session/session-feature.js';
export type { SessionFeatures } from './session/session-parts.js';
export { COMPACTION_SUMMARY_MARKER } from './session/compaction-plan.js';
export { COMPACTION_SYSTEM_PROMPT } from './session/summarize-conversation.js';
export { journaledLlmClient } from './journal/journaled-llm-client.js';
export { otelApi, preloadOpenTelemetry } from './telemetry/otel-api.js';
