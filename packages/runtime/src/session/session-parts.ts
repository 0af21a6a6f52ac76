import { ArtifactStore, BudgetGuard, ConfirmationManager, DEFAULT_DEFER_MCP_TOOLS_THRESHOLD, DeferredTools, HookRegistry, InvocationKernel, jsonTelemetryOptions, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { CodeError, createAgentEvent, DefaultSecurityProvider, parseSessionSnapshot, SESSION_SNAPSHOT_SCHEMA } from '@a3s-lab/code-core';
import type { AgentEvent, LlmClient, PermissionPolicy, SandboxStatus, SecurityProvider, SessionSnapshotV1 } from '@a3s-lab/code-core';
import { SessionTelemetry } from '../telemetry/session-telemetry.js';
import { AdmissionGate } from './admission-gate.js';
import type { AgentSessionInit } from './agent-session-init.js';
import { ContextCompactor } from './context-compactor.js';
import { Conversation } from './conversation.js';
import type { FeatureContext } from './features/feature-context.js';
import { dynamicWorkflowFeature } from './features/dynamic-workflow-feature.js';
import { generationFeature } from './features/generation-feature.js';
import { labelsFeature } from './features/labels-feature.js';
import { planningFeature } from './features/planning-feature.js';
import { skillsFeature } from './features/skills-feature.js';
import { slashCommandsFeature } from './features/slash-commands-feature.js';
import { subagentsFeature } from './features/subagents-feature.js';
import { verificationFeature } from './features/verification-feature.js';
import { HostCalls } from './host-calls.js';
import { hookedLlmClient } from './hooked-llm-client.js';
import { preparingLlmClient, prepareTools } from './preparing-llm-client.js';
import { RunExecutor } from './run-executor.js';
import { RunStore } from './run-store.js';
import { SessionEventBus } from './session-event-bus.js';
import { FeatureSet } from './session-feature.js';
import type { ResolvedSessionOptions } from './resolve-session-options.js';
import { SessionPersistence } from './session-persistence.js';
import type { SnapshotDraft } from './session-persistence.js';
import { buildSystemPrompt } from './system-prompt.js';
import { UsageSink } from './usage-sink.js';

/**
 * The session's features, in the order their prompt sections follow the base prompt. Adding a
 * feature is one file (its factory) and one line here.
 */
function registerFeatures(ctx: FeatureContext, parts: { readonly compactor: () => ContextCompactor | null; readonly system: () => string; readonly requestTools: DeferredTools['requestTools'] }) {
  const subagents = subagentsFeature(ctx);
  const planning = planningFeature(ctx);
  return {
    subagents,
    skills: skillsFeature(ctx, subagents),
    planning,
    verification: verificationFeature(ctx),
    generation: generationFeature(ctx),
    commands: slashCommandsFeature(ctx, { planning, ...parts }),
    labels: labelsFeature(),
    workflow: dynamicWorkflowFeature(ctx.registry),
  };
}

/** The features of a session, by name (typed: `session.features.verification.reports()`). */
export type SessionFeatures = ReturnType<typeof registerFeatures>;

/** Everything an `AgentSession` runs on: each piece of state has one owner here. */
export interface SessionParts {
  readonly sandboxStatus: SandboxStatus;
  readonly security: SecurityProvider;
  readonly registry: ToolRegistry;
  readonly hooks: HookRegistry;
  readonly confirmation: ConfirmationManager;
  readonly budget: BudgetGuard | null;
  readonly artifacts: ArtifactStore;
  readonly runs: RunStore;
  readonly conversation: Conversation;
  readonly bus: SessionEventBus;
  readonly kernel: InvocationKernel;
  readonly executor: RunExecutor;
  readonly hostCalls: HostCalls;
  readonly persistence: SessionPersistence | null;
  readonly gate: AdmissionGate;
  readonly closeScope: AbortController;
  readonly features: SessionFeatures;
  /** The system prompt sent with every request: the base prompt and the features' sections. */
  readonly system: () => string;
  /** Captures the whole session: its own state and the union of the features' slices. */
  readonly capture: () => SnapshotDraft;
  /** Restores from a validated snapshot: the session's own state and every feature's slice. */
  readonly restore: (snapshot: SessionSnapshotV1) => void;
}

/**
 * The composition root: builds a session's parts from its init, composes its features (their
 * tools, services, prompt sections, commands, hooks and snapshot slices), and restores the
 * init's snapshot when it resumes one.
 */
export function composeSession(init: AgentSessionInit): SessionParts {
  const { sessionId, workspace, options } = init;
  const sandboxStatus = init.sandboxStatus ?? Object.freeze({ active: false, kind: 'none', network: 'full', reason: 'no sandbox was set up for this session' });
  // Host-only opt-in: bash that runs inside the sandbox skips confirmation (deny and ask rules still win).
  const policy = effectivePolicy(options.permissionPolicy, sandboxStatus.active && options.sandbox?.autoAllowBash === true);
  const security = init.security ?? new DefaultSecurityProvider();
  const registry = new ToolRegistry(init.tools);
  const deferred = new DeferredTools(registry, { enabled: options.deferMcpTools !== false, threshold: options.deferMcpToolsThreshold ?? DEFAULT_DEFER_MCP_TOOLS_THRESHOLD, contextTokens: options.maxContextTokens });
  const hooks = new HookRegistry({ security });
  const artifacts = new ArtifactStore(options.artifactStoreLimits ?? {});
  const runs = new RunStore(sessionId, options.retentionLimits ?? {});
  const conversation = new Conversation();
  const bus = new SessionEventBus();
  const gate = new AdmissionGate();
  const closeScope = new AbortController();
  const emit = (event: AgentEvent): void => void bus.emit(event);
  // A disabled policy still gets a manager: it denies every 'ask' (fail closed) with a reason.
  const confirmation = init.confirmation ?? new ConfirmationManager(options.confirmationPolicy ?? {});
  const budget = init.budget !== undefined ? init.budget : options.budget === undefined ? null : new BudgetGuard(options.budget, { emit });
  const telemetry = SessionTelemetry.create(options.telemetry, { sessionId, agentName: init.agentName ?? 'a3s-code', provider: init.llm.provider, model: init.llm.model, security, ...(init.telemetryParent === undefined ? {} : { parent: init.telemetryParent }) });
  // `kernel`, `executor` and `persistence` are built below: the closures that name them run
  // only once the session exists.
  let persistence: SessionPersistence | null = null;
  const activeRunId = (): string | null => executor.activeRunId;
  const scope = { sessionId, runId: activeRunId, telemetry };
  // The session's first model request, whatever its purpose, is the wait its tools are prepared in.
  const model = init.whenRequestSent === undefined ? init.llm : preparingLlmClient(init.llm, init.whenRequestSent, () => prepareTools(workspace));
  const llm = (purpose: string): LlmClient => hookedLlmClient(model, hooks, scope, purpose);
  const usage = new UsageSink((u) => executor.attributeUsage(u), budget);
  const hostCalls = new HostCalls((request) => kernel.invoke(request), bus, closeScope.signal);
  const ctx: FeatureContext = {
    init, sessionId, options, workspace, registry, hooks, confirmation, budget, telemetry, conversation, runs, policy, usage, llm,
    closeSignal: closeScope.signal,
    emit,
    activeRunId,
    journalOfCall: (toolId) => kernel.journalOfCall(toolId),
    activeJournal: () => executor.activeJournal,
    hostCall: (request) => hostCalls.call(request),
    afterOperation: (operation) => persistence?.afterOperation(operation),
    requireOpen: (what) => {
      if (gate.closed) throw new CodeError('SESSION_CLOSED', `session is closed; ${what} rejected`);
    },
  };
  const compactor = options.autoCompact ? new ContextCompactor({ llm: llm('compaction'), maxContextTokens: options.maxContextTokens, threshold: options.autoCompactThreshold, ...(options.llmApiTimeoutMs === undefined ? {} : { llmApiTimeoutMs: options.llmApiTimeoutMs }) }) : null;
  const prompt = { base: '' };
  const features = registerFeatures(ctx, { compactor: () => compactor, system: () => featureSet.prompt(prompt.base), requestTools: () => deferred.requestTools() });
  const featureSet = new FeatureSet(Object.values(features));
  for (const name of featureSet.withdrawnTools()) registry.unregister(name);
  const kernel = new InvocationKernel({
    registry, workspace, sessionId, emit, hooks, confirmation, security, artifacts, telemetry,
    ...(policy === undefined ? {} : { permissionPolicy: policy }),
    ...(init.inheritedPolicies === undefined ? {} : { inheritedPolicies: init.inheritedPolicies }),
    ...(init.activeSkillTools === undefined ? {} : { activeSkillTools: ((allowed) => () => allowed)([...init.activeSkillTools]) }),
    ...(budget === null ? {} : { budget }),
    toolTimeoutMs: options.toolTimeoutMs,
    services: { ...init.services, ...featureSet.services() },
    selfJournalingTools: featureSet.selfJournalingTools(),
  });
  prompt.base =
    options.systemPrompt ??
    buildSystemPrompt({
      workspace: workspace.root,
      toolNames: registry.names(),
      ...(options.instructions === undefined && init.projectInstructions === undefined ? {} : { instructions: [options.instructions, init.projectInstructions].filter((part) => part !== undefined && part !== '').join('\n\n') }),
    });
  const system = (): string => featureSet.prompt(prompt.base);
  const executor = new RunExecutor({
    sessionId, options, conversation, runs, bus, kernel, hooks, security, budget, usage, compactor, system, telemetry,
    llm: llm('turn'),
    verification: features.verification,
    ...(features.planning.phase === null ? {} : { planning: features.planning.phase }),
    tools: init.modelToolCalls === false ? () => [] : () => deferred.requestTools(),
    closeSignal: closeScope.signal,
    concurrentTools: options.autoParallel ? new Set(['task']) : new Set(),
  });
  for (const command of featureSet.commands()) features.commands.registerBuiltin(command);
  for (const { id, hook } of featureSet.hooks()) hooks.register(id, hook.event, hook.matcher ?? null, null, hook.handler);
  const capture = (): SnapshotDraft => ({
    schema: SESSION_SNAPSHOT_SCHEMA,
    version: 1,
    sessionId,
    workspace: workspace.root,
    options: serializableOptions(options),
    systemPrompt: prompt.base,
    conversation: [...conversation.messages()],
    runs: runs.snapshot(),
    artifacts: artifacts.snapshot(),
    traces: bus.trace(),
    pendingConfirmations: [...confirmation.pending()],
    ...featureSet.capture(),
  });
  const restore = (snapshot: SessionSnapshotV1): void => {
    // Everything was validated by parseSessionSnapshot: these cannot fail half-way.
    conversation.replace(snapshot.conversation);
    runs.restore(snapshot.runs);
    artifacts.restore(snapshot.artifacts);
    prompt.base = snapshot.systemPrompt;
    featureSet.restore(snapshot);
    bus.restoreTrace(snapshot.traces);
    // Nobody can answer a confirmation of another process: it expired with it.
    for (const pending of snapshot.pendingConfirmations) {
      bus.emit(createAgentEvent('confirmation_timeout', { tool_id: pending.toolId, tool_name: pending.toolName, action: 'expired_on_resume' }));
    }
  };
  if (init.snapshot !== undefined) {
    const built = prompt.base;
    const restored = parseSessionSnapshot(init.snapshot, { store: init.store?.name ?? 'snapshot', sessionId });
    restore(restored);
    deferred.restore(conversation.messages());
    // A resume keeps the prompt the conversation was built on, unless it reconfigures the prompt
    // (`systemPrompt`, `instructions`, `projectInstructions` differ from the saved ones): then the
    // new prompt is what the model gets.
    if (promptOptionsChanged(restored.options, options)) prompt.base = built;
  }
  const store = init.store ?? options.sessionStore;
  if (options.autoSave === true && store === undefined) {
    throw new CodeError('SESSION_CONFIGURATION_ERROR', "autoSave needs a sessionStore (the session option, or the agent's storage_backend)", { details: { field: 'autoSave' } });
  }
  persistence = store === undefined ? null : new SessionPersistence({ store, capture, emit, autoSave: options.autoSave === true, generation: init.snapshot?.generation ?? 0 });
  return { sandboxStatus, security, registry, hooks, confirmation, budget, artifacts, runs, conversation, bus, kernel, executor, hostCalls, persistence, gate, closeScope, features, system, capture, restore };
}

/** The policy the kernel applies: none when `enabled: false`, the rules without the flag otherwise. */
function effectivePolicy(policy: ResolvedSessionOptions['permissionPolicy'], autoAllowBash: boolean): PermissionPolicy | undefined {
  if (policy === undefined || policy.enabled === false) return undefined;
  const { enabled: _enabled, ...rules } = policy;
  // `sandbox.autoAllowBash` with an active sandbox: a bare `bash` allow (never persisted), which
  // answers what would be asked; a `deny` default stays a deny.
  return autoAllowBash && rules.defaultDecision !== 'deny' ? { ...rules, allow: [...(rules.allow ?? []), 'bash'] } : rules;
}

/** The options that build the system prompt. */
const PROMPT_OPTIONS = ['systemPrompt', 'instructions', 'projectInstructions'] as const;

/** True when `options` (a resume's) set the prompt differently from the `saved` options. */
function promptOptionsChanged(saved: Readonly<Record<string, unknown>>, options: ResolvedSessionOptions): boolean {
  return PROMPT_OPTIONS.some((name) => (saved[name] ?? undefined) !== (options[name] ?? undefined));
}

function serializableOptions(options: ResolvedSessionOptions): Record<string, unknown> {
  const { workspaceBackend: _w, sessionStore: _s, sessionId: _i, telemetry, ...rest } = options;
  // Telemetry providers are live objects: a snapshot keeps only the JSON switches.
  return JSON.parse(JSON.stringify(telemetry === undefined ? rest : { ...rest, telemetry: jsonTelemetryOptions(telemetry) })) as Record<string, unknown>;
}
