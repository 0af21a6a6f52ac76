import { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Artifact } from '../artifacts/artifact-store.js';
import { BudgetGuard } from '../budget/budget-guard.js';
import { ConfirmationManager } from '../confirmation/confirmation-manager.js';
import type { PendingConfirmation } from '../confirmation/confirmation-manager.js';
import { CodeError } from '../errors/code-error.js';
import { createAgentEvent } from '../events/agent-event.js';
import type { AgentEvent } from '../events/agent-event.js';
import { HookRegistry } from '../hooks/hook-registry.js';
import type { HookConfig, HookEventName, HookHandler, HookMatcher } from '../hooks/hook-registry.js';
import { InvocationKernel } from '../kernel/invocation-kernel.js';
import type { GenerationService } from '../llm/generation-service.js';
import type { LlmClient, LlmMessage, LlmRequest, LlmStreamEvent } from '../llm/llm-client.js';
import { DefaultSecurityProvider } from '../security/security-provider.js';
import type { SecurityProvider } from '../security/security-provider.js';
import type { ToolDefinition, ToolServices } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { DEFAULT_DEFER_MCP_TOOLS_THRESHOLD, DeferredTools } from '../tools/deferred-tools.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import { PlanBoard } from '../planning/plan-board.js';
import type { PlanItem } from '../planning/plan-board.js';
import { runPlanningPhase } from '../planning/planning-phase.js';
import { delegationSection, DEFAULT_AUTO_DELEGATION_MAX_TASKS } from '../subagents/delegation-prompt.js';
import type { SessionFactory } from '../subagents/session-factory.js';
import { DELEGATION_TOOLS } from '../subagents/subagent-definition.js';
import type { SubagentDefinition } from '../subagents/subagent-definition.js';
import { SubagentManager } from '../subagents/subagent-manager.js';
import type { SubagentFanOutOptions, SubagentTaskRequest, SubagentTaskResult } from '../subagents/subagent-service.js';
import { VerificationLedger } from '../verification/verification-ledger.js';
import { inlineSkills } from '../skills/inline-skills.js';
import { SkillLibrary } from '../skills/skill-library.js';
import type { SkillDefinition } from '../skills/skill-library.js';
import type { SkillService } from '../skills/skill-service.js';
import type { VerificationReportV1 } from '../verification/verification-report.js';
import type { VerificationSummary } from '../verification/verification-summary.js';
import type { WorkspaceBackend } from '../workspace/workspace-backend.js';
import type { SandboxStatus } from '../workspace/sandbox-options.js';
import { AdmissionGate } from './admission-gate.js';
import { ContextCompactor } from './context-compactor.js';
import { hookedLlmClient } from './hooked-llm-client.js';
import { Conversation } from './conversation.js';
import { EventStream } from './event-stream.js';
import { RunExecutor } from './run-executor.js';
import { RunStore } from './run-store.js';
import type { RunEventPage, RunRecord } from './run-store.js';
import { normalizeSendRequest } from './send-request.js';
import type { SendRequest, SendResult } from './send-request.js';
import { SessionEventBus } from './session-event-bus.js';
import { resolveSessionOptions } from './session-options.js';
import type { ResolvedSessionOptions, WorkerAgentSpec } from './session-options.js';
import { SessionPersistence } from './session-persistence.js';
import type { SnapshotDraft } from './session-persistence.js';
import { parseSessionSnapshot, SESSION_SNAPSHOT_SCHEMA } from './session-snapshot.js';
import type { SessionSnapshotV1 } from './session-snapshot.js';
import type { SessionStateV1 } from './session-state.js';
import { SESSION_STATE_VERSION } from './session-state.js';
import type { SessionStore } from './session-store.js';
import { buildSystemPrompt } from './system-prompt.js';
import { SlashCommandRegistry } from './slash-commands.js';
import type { SlashCommandHandler, SlashCommandInfo } from './slash-commands.js';
import { runVerificationCommands } from './verify-commands.js';
import type { VerificationCommand } from './verify-commands.js';
import { jsonTelemetryOptions, SessionTelemetry } from '../telemetry/index.js';
import type { Context as TelemetryContext } from '@opentelemetry/api';

/** Everything an {@link AgentSession} is built from. The SDK facade fills it. */
export interface AgentSessionInit {
  readonly sessionId: string;
  readonly llm: LlmClient;
  readonly workspace: WorkspaceBackend;
  /** The session's tool surface (already filtered by workspace capabilities). */
  readonly tools: readonly AnyTool[];
  readonly options: ResolvedSessionOptions;
  /** Redaction; default {@link DefaultSecurityProvider}. */
  readonly security?: SecurityProvider;
  readonly services?: ToolServices;
  /** Closes the workspace backend with the session (true when the session created it). */
  readonly ownsWorkspace?: boolean;
  /** Where `save()` and `autoSave` publish; default `options.sessionStore` when it is a store. */
  readonly store?: SessionStore;
  /** State to start from (resume): validated whole before the session exists. */
  readonly snapshot?: SessionSnapshotV1;
  /** `provider/model` the session runs (children default to it). */
  readonly model?: string;
  /** Builds subagent sessions; without it `task` / `parallel_task` are unavailable. */
  readonly sessionFactory?: SessionFactory;
  /** Checks a worker's `model` against the configuration (SESSION_CONFIGURATION_ERROR naming it). */
  readonly checkModel?: (model: string, worker: string) => void;
  /** Child sessions: the ancestors' policies (the strictest decision of all applies). */
  readonly inheritedPolicies?: readonly PermissionPolicy[];
  /** Child sessions: how `ask` is answered (from `confirmationInheritance`). */
  readonly confirmation?: ConfirmationManager;
  /** Child sessions: the parent's budget guard (shared totals). */
  readonly budget?: BudgetGuard | null;
  /** The workspace's project instructions section (`AGENTS.md`...), appended to the built-in prompt. */
  readonly projectInstructions?: string;
  /** Skills (from `skillDirs`, agent directories, `inlineSkills`): `Skill` / `search_skills`, personas in the prompt. */
  readonly skills?: readonly SkillDefinition[];
  /** A child running a skill: the kernel's active-skill stage allows only these tools. */
  readonly activeSkillTools?: readonly string[];
  /** false when the model cannot call tools (ACL `tool_call = false`): requests offer none. Direct calls still work. */
  readonly modelToolCalls?: boolean;
  /** `gen_ai.agent.name` of the session's runs (a subagent's name); default `a3s-code`. */
  readonly agentName?: string;
  /** Child sessions: the parent of their runs' spans (the `task` call's span). */
  readonly telemetryParent?: TelemetryContext;
  /** The OS sandbox of the workspace's processes, as the host set it up (`session_start` carries it). */
  readonly sandboxStatus?: SandboxStatus;
}

/** Tools whose calls the session's subagent manager serves. */
const DELEGATION = new Set(DELEGATION_TOOLS);

/** A tool call running right now. */
export interface ActiveTool {
  readonly toolId: string;
  readonly toolName: string;
  readonly origin: string;
  readonly parentToolId?: string;
  readonly startedAtMs: number;
  readonly elapsedMs: number;
}

/**
 * The session runtime: one conversation bound to one workspace. Each piece of state has one
 * owner: the {@link Conversation} (messages), the {@link RunStore} (runs, their events and
 * counters), the {@link SessionEventBus} (fan-out and the trace of events outside runs), the
 * {@link VerificationLedger} (evidence), the kernel's artifact store; the {@link RunExecutor}
 * drives a run over them, and {@link SessionPersistence} publishes snapshots of them.
 */
export class AgentSession {
  readonly id: string;
  readonly workspace: WorkspaceBackend;
  readonly options: ResolvedSessionOptions;
  readonly #registry: ToolRegistry;
  /** MCP tool schemas on demand: the definitions each request carries. */
  readonly #deferred: DeferredTools;
  readonly #kernel: InvocationKernel;
  readonly #hooks: HookRegistry;
  readonly #confirmation: ConfirmationManager;
  readonly #budget: BudgetGuard | null;
  readonly #security: SecurityProvider;
  readonly #artifacts: ArtifactStore;
  readonly #runs: RunStore;
  readonly #conversation: Conversation;
  readonly #bus: SessionEventBus;
  readonly #verification = new VerificationLedger();
  readonly #executor: RunExecutor;
  readonly #persistence: SessionPersistence | null;
  readonly #gate = new AdmissionGate();
  readonly #closeScope = new AbortController();
  readonly #ownsWorkspace: boolean;
  readonly #hostCalls = new Set<Promise<unknown>>();
  readonly #hostIdPrefix = `host_${Math.floor(Math.random() * 0x100000000).toString(36)}_`;
  readonly #labels = new Map<string, string>();
  readonly #subagents: SubagentManager | null;
  readonly #plan: PlanBoard;
  readonly #skills: SkillLibrary;
  readonly #commands = new SlashCommandRegistry();
  readonly #compactor: ContextCompactor | null;
  readonly #llm: LlmClient;
  readonly #telemetry: SessionTelemetry | null;
  #hostCounter = 0;
  #system: string;
  #delegationPrompt: string | null = null;
  #starting: Promise<void> | null = null;
  readonly #resumed: boolean;
  /** The sandbox of the session's subprocesses (`{ active: false, kind: 'none' }` when none was set up). */
  readonly sandboxStatus: SandboxStatus;
  #closing: Promise<void> | null = null;

  constructor(init: AgentSessionInit) {
    this.id = init.sessionId;
    this.workspace = init.workspace;
    this.options = init.options;
    this.#ownsWorkspace = init.ownsWorkspace ?? false;
    this.#resumed = init.snapshot !== undefined;
    this.sandboxStatus = init.sandboxStatus ?? Object.freeze({ active: false, kind: 'none', network: 'full', reason: 'no sandbox was set up for this session' });
    // Host-only opt-in: bash that runs inside the sandbox skips confirmation (deny and ask rules still win).
    const autoAllowBash = this.sandboxStatus.active && init.options.sandbox?.autoAllowBash === true;
    this.#llm = init.llm;
    this.#security = init.security ?? new DefaultSecurityProvider();
    this.#registry = new ToolRegistry(init.tools);
    this.#deferred = new DeferredTools(this.#registry, {
      enabled: init.options.deferMcpTools !== false,
      threshold: init.options.deferMcpToolsThreshold ?? DEFAULT_DEFER_MCP_TOOLS_THRESHOLD,
      contextTokens: init.options.maxContextTokens,
    });
    this.#hooks = new HookRegistry({ security: this.#security });
    this.#artifacts = new ArtifactStore(init.options.artifactStoreLimits ?? {});
    this.#runs = new RunStore(this.id, init.options.retentionLimits ?? {});
    this.#conversation = new Conversation();
    this.#bus = new SessionEventBus();
    const emit = (event: AgentEvent): void => void this.#bus.emit(event);
    // A disabled policy still gets a manager: it denies every 'ask' (fail closed) with a reason.
    this.#confirmation = init.confirmation ?? new ConfirmationManager(init.options.confirmationPolicy ?? {});
    this.#budget = init.budget !== undefined ? init.budget : init.options.budget === undefined ? null : new BudgetGuard(init.options.budget, { emit });
    this.#telemetry = SessionTelemetry.create(init.options.telemetry, {
      sessionId: this.id, agentName: init.agentName ?? 'a3s-code', provider: init.llm.provider, model: init.llm.model, security: this.#security, ...(init.telemetryParent === undefined ? {} : { parent: init.telemetryParent }),
    });
    const delegationOffered = init.options.manualDelegationEnabled !== false || init.options.autoDelegation?.enabled === true;
    if (!delegationOffered || init.sessionFactory === undefined) {
      for (const name of DELEGATION) this.#registry.unregister(name);
    }
    this.#subagents =
      init.sessionFactory === undefined
        ? null
        : new SubagentManager({
            factory: init.sessionFactory,
            sessionId: this.id,
            workspace: this.workspace,
            model: init.model,
            toolNames: () => this.#registry.names(),
            policy: effectivePolicy(init.options.permissionPolicy, autoAllowBash),
            inheritedPolicies: init.inheritedPolicies ?? [],
            confirmation: this.#confirmation,
            budget: this.#budget,
            maxParallelTasks: init.options.maxParallelTasks,
            maxTasksPerRun: init.options.autoDelegation?.enabled === true ? (init.options.autoDelegation.maxTasks ?? DEFAULT_AUTO_DELEGATION_MAX_TASKS) : undefined,
            workers: init.options.workerAgents ?? [],
            defaultConfirmationInheritance: init.options.subagentConfirmationInheritance,
            checkModel: init.checkModel ?? (() => undefined),
            emit,
            currentRunId: () => this.#executor.activeRunId,
            addUsage: (usage) => this.#executor.attributeUsage(usage),
            closeSignal: this.#closeScope.signal,
            telemetry: this.#telemetry,
          });
    const scope = { sessionId: this.id, runId: () => this.#executor.activeRunId, telemetry: this.#telemetry };
    const generation: GenerationService = {
      provider: init.llm.provider,
      model: init.llm.model,
      stream: (request, options) => this.#generate(hookedLlmClient(init.llm, this.#hooks, scope, options.purpose), request, options.signal),
    };
    this.#plan = new PlanBoard(emit);
    this.#skills = new SkillLibrary([...(init.skills ?? []), ...inlineSkills(init.options.inlineSkills ?? [])]);
    if (this.#skills.list().every((s) => s.kind !== 'instruction') || this.#subagents === null) {
      this.#registry.unregister('Skill');
      this.#registry.unregister('search_skills');
    }
    const skills: SkillService = {
      search: (query, limit) => this.#skills.search(query, limit),
      get: (name) => this.#skills.get(name),
      run: (name, prompt, options) => this.#runSkill(name, prompt, options),
    };
    const services = { ...init.services, generation, plan: this.#plan, skills, ...(this.#subagents === null ? {} : { subagents: this.#subagents }) };
    this.#kernel = new InvocationKernel({
      registry: this.#registry,
      workspace: this.workspace,
      sessionId: this.id,
      emit,
      ...(effectivePolicy(init.options.permissionPolicy, autoAllowBash) === undefined ? {} : { permissionPolicy: effectivePolicy(init.options.permissionPolicy, autoAllowBash) }),
      ...(init.inheritedPolicies === undefined ? {} : { inheritedPolicies: init.inheritedPolicies }),
      ...(init.activeSkillTools === undefined ? {} : { activeSkillTools: ((allowed) => () => allowed)([...init.activeSkillTools]) }),
      confirmation: this.#confirmation,
      hooks: this.#hooks,
      ...(this.#budget === null ? {} : { budget: this.#budget }),
      security: this.#security,
      artifacts: this.#artifacts,
      toolTimeoutMs: init.options.toolTimeoutMs,
      services,
      telemetry: this.#telemetry,
    });
    this.#system =
      init.options.systemPrompt ??
      buildSystemPrompt({
        workspace: this.workspace.root,
        toolNames: this.#registry.names(),
        ...(init.options.instructions === undefined && init.projectInstructions === undefined
          ? {}
          : { instructions: [init.options.instructions, init.projectInstructions].filter((part) => part !== undefined && part !== '').join('\n\n') }),
      });
    this.#compactor = init.options.autoCompact
      ? new ContextCompactor({
          llm: hookedLlmClient(init.llm, this.#hooks, scope, 'compaction'),
          maxContextTokens: init.options.maxContextTokens,
          threshold: init.options.autoCompactThreshold,
          ...(init.options.llmApiTimeoutMs === undefined ? {} : { llmApiTimeoutMs: init.options.llmApiTimeoutMs }),
        })
      : null;
    this.#executor = new RunExecutor({
      sessionId: this.id,
      options: init.options,
      llm: hookedLlmClient(init.llm, this.#hooks, scope, 'turn'),
      conversation: this.#conversation,
      runs: this.#runs,
      bus: this.#bus,
      kernel: this.#kernel,
      hooks: this.#hooks,
      security: this.#security,
      verification: this.#verification,
      budget: this.#budget,
      compactor: this.#compactor,
      system: () => this.#systemWithDelegation(),
      ...(init.options.planningMode === 'disabled'
        ? {}
        : {
            planning: {
              mode: init.options.planningMode,
              run: (task: string, runId: string, signal: AbortSignal) =>
                runPlanningPhase(
                  {
                    llm: hookedLlmClient(init.llm, this.#hooks, scope, 'planning'),
                    hooks: this.#hooks,
                    board: this.#plan,
                    emit,
                    sessionId: this.id,
                    toolNames: () => this.#registry.names(),
                    onUsage: (usage) => {
                      this.#executor.attributeUsage(usage);
                      this.#budget?.recordTokens(usage.inputTokens + usage.outputTokens);
                    },
                    llmApiTimeoutMs: init.options.llmApiTimeoutMs,
                  },
                  task,
                  runId,
                  signal,
                ),
            },
          }),
      tools: init.modelToolCalls === false ? () => [] : () => this.#deferred.requestTools(),
      closeSignal: this.#closeScope.signal,
      concurrentTools: init.options.autoParallel ? new Set(['task']) : new Set(),
      telemetry: this.#telemetry,
    });
    this.#registerBuiltinCommands();
    if (init.snapshot !== undefined) {
      const built = this.#system;
      const restored = parseSessionSnapshot(init.snapshot, { store: init.store?.name ?? 'snapshot', sessionId: this.id });
      this.#restore(restored);
      this.#deferred.restore(this.#conversation.messages());
      // A resume keeps the prompt the conversation was built on, unless it reconfigures the
      // prompt (`systemPrompt`, `instructions`, `projectInstructions` differ from the saved ones):
      // then the new prompt is what the model gets.
      if (promptOptionsChanged(restored.options, init.options)) this.#system = built;
    }
    const store = init.store ?? init.options.sessionStore;
    if (init.options.autoSave === true && store === undefined) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', "autoSave needs a sessionStore (the session option, or the agent's storage_backend)", { details: { field: 'autoSave' } });
    }
    this.#persistence =
      store === undefined
        ? null
        : new SessionPersistence({ store, capture: () => this.#capture(), emit, autoSave: init.options.autoSave === true, generation: init.snapshot?.generation ?? 0 });
  }

  /**
   * A generation outside the turn loop (`generate_object`, planning): its usage counts in the
   * running run and the budget, and the budget is checked first.
   */
  async *#generate(llm: LlmClient, request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamEvent> {
    this.#budget?.check();
    const timeoutMs = this.options.llmApiTimeoutMs;
    for await (const event of llm.stream(request, { abortSignal: signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) })) {
      if (event.type === 'message_end') {
        this.#executor.attributeUsage(event.usage);
        this.#budget?.recordTokens(event.usage.inputTokens + event.usage.outputTokens);
      }
      yield event;
    }
  }

  /** Runs the `session_start` hooks once, before the session's first operation (`resumed` after a resume). */
  #started(): Promise<void> {
    this.#starting ??= this.#hooks.has('session_start') ? this.#hooks.run('session_start', { session_id: this.id, resumed: this.#resumed, workspace: this.workspace.root, sandbox: this.sandboxStatus }).then(() => undefined, () => undefined) : Promise.resolve();
    return this.#starting;
  }

  // ---- conversation -------------------------------------------------------------------------

  /** Runs one prompt to completion. Rejects with SESSION_BUSY on overlap, SESSION_CLOSED after close. */
  async send(request: string | SendRequest): Promise<SendResult> {
    const normalized = normalizeSendRequest(request);
    await this.#started();
    const lease = this.#gate.acquire('send');
    const command = this.#commandOf(normalized);
    return this.#executor.execute(command === undefined ? 'send' : 'command', normalized, lease, null, () => this.#afterOperation('send'), command);
  }

  /**
   * Runs one prompt and streams its v1 events. The returned stream holds admission until its
   * producer stops; consuming it to the end is a lifecycle barrier.
   */
  async stream(request: string | SendRequest): Promise<EventStream<SendResult>> {
    const normalized = normalizeSendRequest(request);
    await this.#started();
    const lease = this.#gate.acquire('stream');
    let cancel: () => void = () => undefined;
    const stream = new EventStream<SendResult>(() => cancel());
    const command = this.#commandOf(normalized);
    const running = this.#executor.execute(command === undefined ? 'stream' : 'command', normalized, lease, stream, () => this.#afterOperation('stream'), command);
    running.catch(() => undefined);
    cancel = () => {
      if (this.#executor.owns(stream)) this.#executor.abort('stream consumer stopped');
    };
    return stream;
  }

  /**
   * Observes every event of this session (runs and host-direct calls). Returns an unsubscribe
   * function. Listeners must not throw.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.#bus.subscribe(listener);
  }

  /**
   * Emits an event from outside the run loop (a tool source's, e.g. `mcp_tools_changed`): into
   * the running run (its record and stream) when one runs, else to subscribers and the trace.
   */
  emitEvent(event: AgentEvent): void {
    if (this.#gate.closed) return;
    this.#bus.emit(event);
  }

  /** A copy of the conversation. */
  history(): LlmMessage[] {
    return [...this.#conversation.messages()];
  }

  /** The system prompt sent with every model request. */
  systemPrompt(): string {
    return this.#systemWithDelegation();
  }

  /**
   * The base prompt, plus the agents the model can delegate to (when it is offered delegation),
   * plus the current plan (when there is one).
   */
  #systemWithDelegation(): string {
    let system = this.#system;
    if (this.#subagents !== null && this.#registry.has('task')) {
      this.#delegationPrompt ??= delegationSection(this.#subagents.agents(), this.options);
      system = `${system}\n\n${this.#delegationPrompt}`;
    }
    const persona = this.#skills.personaSection();
    if (persona !== '') system = `${system}\n\n${persona}`;
    if (this.#registry.has('Skill')) system = `${system}\n\n# Skills\nInstruction skills exist for this project: find them with search_skills and run one with Skill.`;
    const plan = this.#plan.promptSection();
    return plan === '' ? system : `${system}\n\n${plan}`;
  }

  /** Skills of this session (instruction and persona). */
  skills(): SkillDefinition[] {
    return this.#skills.list();
  }

  /** Runs an instruction skill as a child run whose kernel allows only the skill's tools. */
  #runSkill(name: string, prompt: string, options: { readonly signal: AbortSignal; readonly parentToolId?: string }): Promise<SubagentTaskResult> {
    const skill = this.#skills.get(name);
    if (skill === undefined || skill.kind !== 'instruction') {
      throw new CodeError('SESSION_ERROR', `unknown skill '${name}'${this.#skills.size === 0 ? '' : `; skills: ${this.#skills.list().filter((s) => s.kind === 'instruction').map((s) => s.name).join(', ')}`}`, { details: { field: 'name', skill: name } });
    }
    const definition: SubagentDefinition = {
      name: `skill:${skill.name}`,
      description: skill.description,
      kind: 'custom',
      prompt: `You are running the skill '${skill.name}': ${skill.description}\n\n${skill.body}`,
      tools: skill.allowedTools,
      maxSteps: 16,
      confirmationInheritance: 'inherit_parent',
      builtin: false,
    };
    return this.#requireSubagents().runAs(definition, { agent: definition.name, description: `skill ${skill.name}`, prompt }, options, skill.allowedTools);
  }

  /** The session's plan (from the planning phase and `update_plan`), in order. */
  plan(): PlanItem[] {
    return this.#plan.items();
  }

  // ---- slash commands ------------------------------------------------------------------------

  /**
   * Registers a slash command: `/name args` sent to this session runs `handler` instead of a
   * model turn (recorded as a run of kind `command`). Built-in commands cannot be replaced.
   */
  registerCommand(name: string, description: string, handler: SlashCommandHandler): void {
    this.#commands.register(name, description, handler);
  }

  /** Every command, built-ins included, by name. */
  listCommands(): SlashCommandInfo[] {
    return this.#commands.list();
  }

  #commandOf(request: SendRequest): ((signal: AbortSignal) => Promise<string>) | undefined {
    if (request.history !== undefined || (request.attachments?.length ?? 0) > 0) return undefined;
    const match = this.#commands.match(request.prompt);
    if (match === null) return undefined;
    return async (signal) => String(await match.handler({ args: match.args, signal }));
  }

  #registerBuiltinCommands(): void {
    const add = (name: string, description: string, handler: SlashCommandHandler): void => this.#commands.register(name, description, handler, true);
    add('help', 'List the commands', () => this.#commands.list().map((c) => `/${c.name} — ${c.description}`).join('\n'));
    add('tools', 'List the tools the model can call', () => this.#registry.names().join('\n'));
    add('model', 'Show the model of this session', () => `${this.#llm.provider}/${this.#llm.model}`);
    add('cost', 'Token usage of this session', () => {
      const runs = this.#runs.runs().filter((r) => r.kind !== 'command');
      const sum = (pick: (r: RunRecord) => number): number => runs.reduce((total, r) => total + pick(r), 0);
      return `${runs.length} run(s): ${sum((r) => r.usage.promptTokens)} prompt + ${sum((r) => r.usage.completionTokens)} completion = ${sum((r) => r.usage.totalTokens)} tokens (cache read ${sum((r) => r.usage.cacheReadTokens)}, cache write ${sum((r) => r.usage.cacheWriteTokens)})`;
    });
    add('history', 'Summarise the conversation', () => {
      const messages = this.#conversation.messages();
      const lines = messages.slice(-10).map((m) => `${m.role}: ${m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(' ').slice(0, 120)}`);
      return `${messages.length} message(s)${messages.length > 10 ? ' (last 10)' : ''}\n${lines.join('\n')}`;
    });
    add('status', 'Session id, workspace, runs, plan and pending confirmations', () => {
      const plan = this.#plan.items();
      return [
        `session ${this.id}`,
        `workspace ${this.workspace.root}`,
        `model ${this.#llm.provider}/${this.#llm.model}`,
        `${this.#runs.runs().length} run(s), ${this.#conversation.length} message(s)`,
        plan.length === 0 ? 'no plan' : `plan ${plan.filter((p) => p.status === 'completed').length}/${plan.length} completed`,
        `${this.#confirmation.pending().length} pending confirmation(s)`,
      ].join('\n');
    });
    add('clear', 'Start the conversation afresh (runs and artifacts are kept)', () => {
      const count = this.#conversation.length;
      this.#conversation.replace([]);
      return `conversation cleared (${count} message(s) removed)`;
    });
    add('compact', 'Summarise the older part of the conversation now', async ({ signal }) => {
      const compactor =
        this.#compactor ??
        new ContextCompactor({ llm: hookedLlmClient(this.#llm, this.#hooks, { sessionId: this.id, runId: () => this.#executor.activeRunId, telemetry: this.#telemetry }, 'compaction'), maxContextTokens: this.options.maxContextTokens, threshold: this.options.autoCompactThreshold });
      const before = this.#conversation.length;
      const outcome = await compactor.compact(
        {
          system: this.#systemWithDelegation(),
          tools: () => this.#deferred.requestTools(),
          conversation: this.#conversation,
          emit: (event) => void this.#bus.emit(event),
          signal,
          // The summary is model work of this session: it counts in the run and in the budget.
          onUsage: (usage) => {
            this.#executor.attributeUsage(usage);
            this.#budget?.recordTokens(usage.inputTokens + usage.outputTokens);
          },
        },
        'manual',
      );
      return outcome === 'compacted' ? `compacted: ${before} -> ${this.#conversation.length} message(s)` : `not compacted (${outcome})`;
    });
  }

  // ---- subagents ----------------------------------------------------------------------------

  /**
   * Runs one subagent task to its end: a child session of `task.agent` on this workspace. Never
   * rejects for a failed child (the result says so); SESSION_ERROR for an unknown agent.
   */
  async task(task: SubagentTaskRequest, options: { readonly abortSignal?: AbortSignal } = {}): Promise<SubagentTaskResult> {
    return this.#requireSubagents().run(task, { signal: options.abortSignal ?? this.#closeScope.signal });
  }

  /** Runs tasks concurrently (at most `maxParallelTasks` at once); results in request order. */
  async tasks(tasks: readonly SubagentTaskRequest[], options: SubagentFanOutOptions & { readonly abortSignal?: AbortSignal } = {}): Promise<SubagentTaskResult[]> {
    const { abortSignal, ...fanOut } = options;
    return this.#requireSubagents().runAll(tasks, { ...fanOut, signal: abortSignal ?? this.#closeScope.signal });
  }

  /** Adds a worker agent at run time (its model is checked against the configuration); returns its definition. */
  registerWorkerAgent(spec: WorkerAgentSpec): SubagentDefinition {
    const [checked] = resolveSessionOptions({ workerAgents: [spec] }).workerAgents ?? [];
    const definition = this.#requireSubagents().registerWorker(checked as WorkerAgentSpec);
    this.#delegationPrompt = null;
    return definition;
  }

  /** Agents this session can delegate to (built-ins and workers). */
  agents(): readonly SubagentDefinition[] {
    return this.#subagents?.agents() ?? [];
  }

  #requireSubagents(): SubagentManager {
    if (this.#subagents === null) throw new CodeError('SESSION_ERROR', 'this session cannot run subagents (no session factory; child sessions do not delegate further)', { details: { sessionId: this.id } });
    if (this.#gate.closed) throw new CodeError('SESSION_CLOSED', 'session is closed; task rejected');
    return this.#subagents;
  }

  // ---- runs ---------------------------------------------------------------------------------

  runs(): RunRecord[] {
    return this.#runs.runs();
  }

  runEvents(runId: string): AgentEvent[] | null {
    return this.#runs.events(runId);
  }

  runEventPage(runId: string, afterSequence?: number, limit?: number): RunEventPage | null {
    return this.#runs.page(runId, afterSequence, limit);
  }

  currentRun(): RunRecord | null {
    return this.#runs.current();
  }

  /** Cancels the run `runId` if it is the running one; a stale id cancels nothing. */
  cancelRun(runId: string): boolean {
    return this.#executor.abort(`run ${runId} cancelled`, runId);
  }

  /** Cancels the running run (if any) and waits until it has stopped. */
  async cancel(): Promise<void> {
    if (this.#executor.abort('cancelled by host')) await this.#executor.settled();
  }

  /** Tool calls running right now (model, nested and host-direct). */
  activeTools(): ActiveTool[] {
    const now = Date.now();
    return this.#kernel.activeInvocations().map((a) => ({
      toolId: a.toolId,
      toolName: a.toolName,
      origin: a.origin,
      ...(a.parentToolId === undefined ? {} : { parentToolId: a.parentToolId }),
      startedAtMs: a.startedAtMs,
      elapsedMs: now - a.startedAtMs,
    }));
  }

  /** Events outside runs (host-direct calls, verification commands, persistence failures), oldest first. */
  traceEvents(): AgentEvent[] {
    return this.#bus.trace();
  }

  // ---- governance ---------------------------------------------------------------------------

  pendingConfirmations(): PendingConfirmation[] {
    return [...this.#confirmation.pending()];
  }

  /** Answers a pending confirmation. `false` when refused (unknown, already answered, timed out). */
  confirmToolUse(toolId: string, approved: boolean, reason?: string): boolean {
    const accepted = this.#confirmation.confirm(toolId, approved, reason);
    if (accepted) this.#afterOperation('confirmation');
    return accepted;
  }

  registerHook(id: string, event: HookEventName, matcher: HookMatcher | null, config: HookConfig | null, handler: HookHandler): void {
    this.#hooks.register(id, event, matcher, config, handler);
  }

  unregisterHook(id: string): boolean {
    return this.#hooks.unregister(id);
  }

  /**
   * The session's budget guard (`options.budget`), or `null` without one. The budget is
   * session-wide: it is not reset per run. After BUDGET_EXHAUSTED the session stays open; the
   * host may `raise()` the limits or `reset()` the usage before the next send.
   */
  get budget(): BudgetGuard | null {
    return this.#budget;
  }

  // ---- verification -------------------------------------------------------------------------

  /**
   * Records `a3s.verification_report.v1` documents. Every document is validated first; one bad
   * document is refused with SESSION_ERROR and nothing is recorded. Returns the recorded copies.
   */
  async recordVerificationReports(reports: readonly unknown[]): Promise<VerificationReportV1[]> {
    if (!Array.isArray(reports)) throw new CodeError('SESSION_ERROR', 'recordVerificationReports expects an array of reports', { details: { field: 'reports' } });
    const recorded = this.#verification.record(reports);
    this.#afterOperation('verification');
    return recorded;
  }

  /**
   * Runs each command through the governed `bash` path (origin `verification`: permission
   * policy, confirmation and hooks apply; a denied command is an `error` check), records the
   * report and returns it.
   */
  async verifyCommands(subject: string, commands: readonly VerificationCommand[]): Promise<VerificationReportV1> {
    if (this.#gate.closed) throw new CodeError('SESSION_CLOSED', 'session is closed; verifyCommands rejected');
    const report = await runVerificationCommands(subject, commands, {
      hasBash: this.#registry.get('bash') !== null,
      invoke: (command, timeoutMs) => this.#trackedCall({ toolName: 'bash', args: { command, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) }, origin: 'verification' }),
    });
    const [recorded] = this.#verification.record([report]);
    this.#afterOperation('verification');
    return recorded as VerificationReportV1;
  }

  /** Every retained verification report, oldest first. */
  verificationReports(): VerificationReportV1[] {
    return this.#verification.reports();
  }

  /** The summary `agent_end` would carry now; `null` without reports. */
  verificationSummary(): VerificationSummary | null {
    return this.#verification.summary();
  }

  // ---- tools --------------------------------------------------------------------------------

  /**
   * Host-direct tool call: skips permission and confirmation by policy; hooks, budget,
   * timeouts, cancellation (session close), recursion guard and redaction apply. Needs no
   * admission and leaves the conversation unchanged.
   */
  async tool(name: string, args: unknown, options: { readonly abortSignal?: AbortSignal } = {}): Promise<ToolResult> {
    if (this.#gate.closed) throw new CodeError('SESSION_CLOSED', `session is closed; tool '${name}' rejected`, { details: { tool: name } });
    await this.#started();
    const result = await this.#trackedCall({ toolName: name, args, origin: 'host-direct', ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) });
    this.#afterOperation('tool');
    return result;
  }

  /**
   * A call outside the conversation (host-direct or verification): its events stay out of the
   * running run, and close() waits for it (the workspace must not close under a running tool).
   */
  #trackedCall(request: { readonly toolName: string; readonly args: unknown; readonly origin: 'host-direct' | 'verification'; readonly abortSignal?: AbortSignal }): Promise<ToolResult> {
    const signal = request.abortSignal === undefined ? this.#closeScope.signal : AbortSignal.any([this.#closeScope.signal, request.abortSignal]);
    const toolId = this.#hostIdPrefix + (this.#hostCounter += 1).toString(36);
    this.#bus.trackHostCall(toolId);
    const call = this.#kernel.invoke({ toolName: request.toolName, args: request.args, origin: request.origin, abortSignal: signal, toolId });
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.#hostCalls.add(settled);
    void settled.then(() => {
      this.#hostCalls.delete(settled);
      this.#bus.untrackHostCall(toolId);
    });
    return call;
  }

  toolNames(): string[] {
    return this.#registry.names();
  }

  toolDefinitions(): ToolDefinition[] {
    return this.#registry.definitions();
  }

  /** Adds a tool to the session surface (custom tools, MCP tools, `dynamic_workflow`). */
  registerTool(tool: AnyTool, options: { readonly replace?: boolean } = {}): void {
    this.#registry.register(tool, options);
  }

  unregisterTool(name: string): boolean {
    return this.#registry.unregister(name);
  }

  /** A retained artifact by URI, or `null`. */
  getArtifact(uri: string): Artifact | null {
    return this.#artifacts.get(uri);
  }

  // ---- labels -------------------------------------------------------------------------------

  /** Host labels kept in snapshots (tenant, ticket, branch...). `null` removes one. */
  setLabel(key: string, value: string | null): void {
    if (typeof key !== 'string' || key.length === 0 || key.length > 128) throw new CodeError('SESSION_ERROR', 'label keys are 1-128 characters', { details: { field: 'key' } });
    if (value === null) this.#labels.delete(key);
    else if (typeof value !== 'string' || value.length > 4096) throw new CodeError('SESSION_ERROR', 'label values are strings of at most 4096 characters', { details: { field: 'value' } });
    else this.#labels.set(key, value);
  }

  /** The session's labels. */
  labels(): Record<string, string> {
    return Object.fromEntries(this.#labels);
  }

  // ---- state & persistence ------------------------------------------------------------------

  /** True when the session closes its workspace backend (it created it). */
  get ownsWorkspace(): boolean {
    return this.#ownsWorkspace;
  }

  /** The store `save()` publishes to, or `null`. */
  get store(): SessionStore | null {
    return this.#persistence?.store ?? null;
  }

  /** Generation of the last captured snapshot (0 before the first save of a new session). */
  get generation(): number {
    return this.#persistence?.generation ?? 0;
  }

  /**
   * Publishes one {@link SessionSnapshotV1} generation to the session's store and resolves with
   * it. SESSION_ERROR without a store; the store's error when the write fails.
   */
  async save(): Promise<SessionSnapshotV1> {
    if (this.#persistence === null) throw new CodeError('SESSION_ERROR', `session '${this.id}' has no sessionStore to save to`, { details: { sessionId: this.id } });
    return this.#persistence.save();
  }

  /** The whole session as one snapshot (not published; generation = the last saved one). */
  snapshot(): SessionSnapshotV1 {
    return { ...this.#capture(), generation: this.generation, savedAtMs: Date.now() };
  }

  /** Legacy plain-data state (`SessionStateV1`); prefer {@link snapshot}. */
  state(): SessionStateV1 {
    const draft = this.#capture();
    return {
      version: SESSION_STATE_VERSION,
      sessionId: this.id,
      history: structuredClone(draft.conversation),
      runs: draft.runs,
      artifacts: draft.artifacts,
      pendingConfirmations: draft.pendingConfirmations,
      options: draft.options,
      systemPrompt: draft.systemPrompt,
    };
  }

  /**
   * Restores conversation, runs and artifacts from a {@link SessionStateV1} or a
   * {@link SessionSnapshotV1} (idle sessions only). The document is validated whole first: a
   * malformed one is refused with SERIALIZATION_ERROR and nothing changes.
   */
  restoreState(state: SessionStateV1 | SessionSnapshotV1): void {
    if (this.#executor.busy) throw new CodeError('SESSION_BUSY', 'cannot restore state while a run is active');
    const version = typeof state === 'object' && state !== null ? (state as { version?: unknown }).version : undefined;
    if (version !== SESSION_STATE_VERSION) {
      throw new CodeError('SERIALIZATION_ERROR', `unsupported session state version ${String(version)}`, { details: { version: version ?? null } });
    }
    this.#restore(parseSessionSnapshot(state, { store: 'restoreState', sessionId: this.id }));
  }

  #restore(snapshot: SessionSnapshotV1): void {
    // Everything was validated by parseSessionSnapshot: these cannot fail half-way.
    this.#conversation.replace(snapshot.conversation);
    this.#runs.restore(snapshot.runs);
    this.#artifacts.restore(snapshot.artifacts);
    this.#verification.restore(snapshot.verificationReports);
    this.#system = snapshot.systemPrompt;
    this.#subagents?.restore(snapshot.subagentTasks);
    this.#plan.restore(snapshot.plan ?? []);
    this.#labels.clear();
    for (const [k, v] of Object.entries(snapshot.labels)) this.#labels.set(k, v);
    this.#bus.restoreTrace(snapshot.traces);
    // Nobody can answer a confirmation of another process: it expired with it.
    for (const pending of snapshot.pendingConfirmations) {
      this.#bus.emit(createAgentEvent('confirmation_timeout', { tool_id: pending.toolId, tool_name: pending.toolName, action: 'expired_on_resume' }));
    }
  }

  /**
   * A consistent copy of the state at this instant, between two writes. Arrays are copied;
   * their entries (messages, event envelopes, artifacts) are never mutated after creation.
   */
  #capture(): SnapshotDraft {
    return {
      schema: SESSION_SNAPSHOT_SCHEMA,
      version: 1,
      sessionId: this.id,
      workspace: this.workspace.root,
      options: serializableOptions(this.options),
      systemPrompt: this.#system,
      conversation: [...this.#conversation.messages()],
      runs: this.#runs.snapshot(),
      artifacts: this.#artifacts.snapshot(),
      traces: this.#bus.trace(),
      verificationReports: this.#verification.reports(),
      subagentTasks: this.#subagents?.snapshots() ?? [],
      plan: this.#plan.items(),
      pendingConfirmations: this.pendingConfirmations(),
      labels: this.labels(),
    };
  }

  /** autoSave after a completed operation: captured now, written in the background; never throws. */
  #afterOperation(operation: string): void {
    this.#persistence?.afterOperation(operation);
  }

  /**
   * Resolves when every state captured so far (explicit saves and autoSave) is published or has
   * failed. `close()` waits for it too.
   */
  flushSaves(): Promise<void> {
    return this.#persistence?.flush() ?? Promise.resolve();
  }

  /**
   * Publishes a session that was never saved as generation 0 of its store, so it can be resumed
   * before its first operation (the next save is generation 1). Rejects with the store's error,
   * also reported as `persistence_failed` (`operation: 'open'`); does nothing without a store,
   * for a resumed session or once anything was saved.
   */
  publishInitial(): Promise<void> {
    if (this.#resumed) return Promise.resolve();
    return this.#persistence?.publishInitial() ?? Promise.resolve();
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  get closed(): boolean {
    return this.#gate.closed;
  }

  /**
   * Closes the session: cancels the running run and host-direct tools and waits for them to
   * settle (and for started saves to land) before `session_end` hooks run and an owned
   * workspace is closed. Idempotent.
   */
  close(): Promise<void> {
    if (this.#closing !== null) return this.#closing;
    this.#gate.close();
    this.#closeScope.abort(new Error('session closed'));
    this.#kernel.close('session closed');
    this.#closing = (async () => {
      await this.#executor.settled();
      await Promise.all([...this.#hostCalls]);
      await this.#persistence?.flush();
      if (this.#hooks.has('session_end')) await this.#hooks.run('session_end', { session_id: this.id }).catch(() => undefined);
      if (this.#ownsWorkspace) await this.workspace.close?.();
    })();
    return this.#closing;
  }
}

/** The policy the kernel applies: none when `enabled: false`, the rules without the flag otherwise. */
function effectivePolicy(policy: ResolvedSessionOptions['permissionPolicy'], autoAllowBash = false): PermissionPolicy | undefined {
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
