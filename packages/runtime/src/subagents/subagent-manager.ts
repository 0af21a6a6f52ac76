import type { SessionTelemetry } from '../telemetry/session-telemetry.js';
import type { BudgetGuard, SubagentService } from '@a3s-lab/code-core/kernel';
import { CONFIRMATION_LANES, ConfirmationManager } from '@a3s-lab/code-core/kernel';
import { CodeError, createAgentEvent, toCodeError, toolStepKey } from '@a3s-lab/code-core';
import type { AgentEvent, ConfirmationInheritance, LlmUsage, PermissionPolicy, RunJournal, SubagentAuthority, SubagentDefinition, SubagentFanOutOptions, SubagentRunOptions, SubagentTaskRequest, SubagentTaskResult, SubagentTaskSnapshot, WorkerAgentSpec, WorkspaceBackend } from '@a3s-lab/code-core';
import { EMPTY_RUN_USAGE } from '../session/run-usage.js';
import { DelegatedConfirmationManager } from './delegated-confirmation.js';
import { DenyOnAskConfirmationManager } from './deny-on-ask-confirmation.js';
import type { ChildSession, ChildSessionRequest, SessionFactory } from './session-factory.js';
import { builtinSubagents, subagentAuthority, workerDefinition } from './builtin-subagents.js';
import { childRunJournal, childTaskScope } from '../journal/child-run-journal.js';
import { HostTaskScopes } from '../journal/host-task-scope.js';
import { cancelled, isReconciliation, reconciliationOfChild } from './child-errors.js';
import { taskStop } from './fan-out-signal.js';

/** What the manager needs from its parent session. */
export interface SubagentManagerDeps {
  readonly factory: SessionFactory;
  readonly sessionId: string;
  readonly workspace: WorkspaceBackend;
  readonly model: string | undefined;
  readonly toolNames: () => readonly string[];
  readonly policy: PermissionPolicy | undefined;
  readonly inheritedPolicies: readonly PermissionPolicy[];
  readonly confirmation: ConfirmationManager;
  readonly budget: BudgetGuard | null;
  readonly maxParallelTasks: number;
  /** `autoDelegation.maxTasks`: tasks per parent run; undefined = unbounded. */
  readonly maxTasksPerRun: number | undefined;
  readonly workers: readonly WorkerAgentSpec[];
  /** `subagentConfirmationInheritance`: how children of agents that do not say answer `ask` (default `auto_approve`). */
  readonly defaultConfirmationInheritance?: ConfirmationInheritance | undefined;
  /** Checks a worker's model against the configuration (throws SESSION_CONFIGURATION_ERROR naming it). */
  readonly checkModel: (model: string, worker: string) => void;
  readonly emit: (event: AgentEvent) => void;
  readonly currentRunId: () => string | null;
  /** Attributes a child's model usage to the parent's running run. */
  readonly addUsage: (usage: LlmUsage) => void;
  /** Aborted when the parent closes. */
  readonly closeSignal: AbortSignal;
  /** The parent session's telemetry, inherited by children. Default none. */
  readonly telemetry?: SessionTelemetry | null;
  /**
   * Durable runs: the run journal the parent's call `toolId` (a `task` / `parallel_task` /
   * `Skill` call) is a step of, or `null`. Children of a journaled call journal their own steps
   * there (see {@link childRunJournal}). Default: never journaled.
   */
  readonly journalOfCall?: (toolId: string) => RunJournal | null;
  /**
   * Durable runs: the running run's journal, or `null`. A host-direct task (no parent call) made
   * during a journaled run journals there (see {@link HostTaskScopes}). Default: never journaled.
   */
  readonly activeJournal?: () => RunJournal | null;
}

/** What one task runs with besides its request. */
interface RunOneExtra {
  /** The kernel's active-skill restriction (a skill's child run). */
  readonly activeSkillTools?: readonly string[];
  /** The fan-out's own stop (`timeout_ms`, fail fast): see {@link taskStop}. */
  readonly fanOut?: AbortSignal;
  /** A host-direct task of a journaled run: the run's journal and the task's scope in it. */
  readonly host?: { readonly journal: RunJournal; readonly scope: string };
}

/** Most task snapshots a session keeps (oldest dropped first). */
export const MAX_TASK_SNAPSHOTS = 64;

/**
 * Runs a session's subagents: each task is a full child session (built by the host's
 * {@link SessionFactory}) on the same workspace and through its own kernel, whose permission
 * decisions are the strictest of its own and every ancestor's, whose `ask` decisions follow the
 * agent's `confirmationInheritance`, and whose budget is the parent's. Children never delegate
 * further. Cancelling the parent (or a call's signal) cancels every child, and a task's result is
 * only published once its child has settled.
 */
export class SubagentManager implements SubagentService {
  readonly #deps: SubagentManagerDeps;
  readonly #agents = new Map<string, SubagentDefinition>();
  readonly #tasksPerRun = new Map<string, number>();
  #snapshots: SubagentTaskSnapshot[] = [];
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  #counter = 0;
  readonly #hostTasks = new HostTaskScopes();

  constructor(deps: SubagentManagerDeps) {
    this.#deps = deps;
    for (const agent of builtinSubagents(deps.defaultConfirmationInheritance)) this.#agents.set(agent.name, agent);
    for (const spec of deps.workers) this.registerWorker(spec);
  }

  get maxParallelTasks(): number {
    return this.#deps.maxParallelTasks;
  }

  agents(): readonly SubagentDefinition[] {
    return [...this.#agents.values()];
  }

  /** Adds (or replaces) a worker; its model is checked against the configuration first. */
  registerWorker(spec: WorkerAgentSpec): SubagentDefinition {
    if (this.#agents.get(spec.name)?.builtin === true) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', `worker name '${spec.name}' is taken by a built-in agent`, { details: { field: 'workerAgents.name', worker: spec.name } });
    }
    if (spec.model !== undefined) this.#deps.checkModel(spec.model, spec.name);
    const definition = workerDefinition(spec, this.#deps.defaultConfirmationInheritance);
    this.#agents.set(spec.name, definition);
    return definition;
  }

  /** The definition of `name`, or a SESSION_ERROR listing the known agents. */
  agent(name: string): SubagentDefinition {
    const agent = this.#agents.get(name);
    if (agent === undefined) {
      throw new CodeError('SESSION_ERROR', `unknown agent '${name}'; known: ${[...this.#agents.keys()].join(', ')}`, { details: { field: 'agent', agent: name } });
    }
    return agent;
  }

  authority(name: string): SubagentAuthority {
    return subagentAuthority(this.agent(name), this.#deps.toolNames());
  }

  /** Snapshots of the finished tasks (for `SessionSnapshotV1.subagentTasks`). */
  snapshots(): SubagentTaskSnapshot[] {
    return structuredClone(this.#snapshots);
  }

  restore(snapshots: readonly SubagentTaskSnapshot[]): void {
    this.#snapshots = structuredClone([...snapshots]).slice(-MAX_TASK_SNAPSHOTS);
  }

  async run(task: SubagentTaskRequest, options: SubagentRunOptions): Promise<SubagentTaskResult> {
    const [result] = await this.runAll([task], { ...options, allowPartialFailure: true });
    return result as SubagentTaskResult;
  }

  /**
   * Runs one task as `agent` (a definition that need not be registered, e.g. a skill), with the
   * kernel's active-skill restriction set to `activeSkillTools` when given.
   */
  async runAs(agent: SubagentDefinition, task: SubagentTaskRequest, options: SubagentRunOptions, activeSkillTools?: readonly string[]): Promise<SubagentTaskResult> {
    this.#chargeRunQuota(1);
    const signal = AbortSignal.any([options.signal, this.#deps.closeSignal]);
    const [host] = this.#hostScopes([{ agent: agent.name, task }], options.parentToolId);
    return this.#withSlot(() => this.#runOne(task, agent, signal, options.parentToolId, 0, { ...(activeSkillTools === undefined ? {} : { activeSkillTools }), ...(host === undefined ? {} : { host }) }));
  }

  async runAll(tasks: readonly SubagentTaskRequest[], options: SubagentRunOptions & SubagentFanOutOptions): Promise<SubagentTaskResult[]> {
    // Everything is checked before any child starts: a bad task list runs nothing.
    const agents = tasks.map((t, i) => {
      if (typeof t.prompt !== 'string' || t.prompt.length === 0) throw new CodeError('SESSION_ERROR', `tasks[${i}].prompt must be a non-empty string`, { details: { field: `tasks[${i}].prompt` } });
      return this.agent(t.agent);
    });
    this.#chargeRunQuota(tasks.length);
    // Scopes are taken in request order before anything awaits: the same tasks get the same ones on every attempt.
    const hosts = this.#hostScopes(tasks.map((task, i) => ({ agent: (agents[i] as SubagentDefinition).name, task })), options.parentToolId);
    const scope = new AbortController();
    const signal = AbortSignal.any([options.signal, this.#deps.closeSignal]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (options.timeoutMs !== undefined) {
      // A resumed journaled call keeps the deadline of its first start; one that passed stops the
      // fan-out at once (its journaled tasks still replay what they recorded: see taskStop).
      const message = `parallel tasks exceeded timeout_ms ${options.timeoutMs}`;
      const remaining = (await this.#deadlineStart(options.parentToolId)) + options.timeoutMs - Date.now();
      if (remaining > 0) timer = setTimeout(() => scope.abort(new Error(message)), remaining);
      else scope.abort(new Error(message));
    }
    // Fail fast: once the successes still possible fall below what is required, the rest is cancelled.
    const required = options.minSuccessCount ?? (options.allowPartialFailure === true ? 1 : tasks.length);
    let failures = 0;
    const settle = (result: SubagentTaskResult): SubagentTaskResult => {
      if (result.status !== 'completed') {
        failures += 1;
        if (tasks.length - failures < required && !scope.signal.aborted) scope.abort(new Error(`only ${tasks.length - failures} of the ${required} required task(s) can still succeed`));
      }
      return result;
    };
    try {
      // Every child settles first: a child whose journaled call needs reconciliation stops the
      // parent's run, and its siblings' steps are recorded by then (none is cut off mid-call).
      const settled = await Promise.allSettled(tasks.map((task, i) => this.#withSlot(() => this.#runOne(task, agents[i] as SubagentDefinition, signal, options.parentToolId, i, { fanOut: scope.signal, ...(hosts[i] === undefined ? {} : { host: hosts[i] }) })).then(settle)));
      const stopped = settled.find((s) => s.status === 'rejected');
      if (stopped !== undefined) throw stopped.reason;
      return settled.map((s) => (s as PromiseFulfilledResult<SubagentTaskResult>).value);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * When a `parallel_task`'s `timeout_ms` runs from: now, or for a call of a durable run whose
   * start an earlier attempt recorded, that start (the journal's `startedAt`).
   */
  async #deadlineStart(parentToolId: string | undefined): Promise<number> {
    const journal = parentToolId === undefined ? null : (this.#deps.journalOfCall?.(parentToolId) ?? null);
    if (journal === null || parentToolId === undefined) return Date.now();
    const entry = await journal.toolCall(toolStepKey(parentToolId), { resumable: true });
    return entry?.startedAt ?? Date.now();
  }

  /** Host-direct tasks (no parent call) made during a journaled run journal in it (see {@link HostTaskScopes}). */
  #hostScopes(tasks: readonly { readonly agent: string; readonly task: SubagentTaskRequest }[], parentToolId: string | undefined): { journal: RunJournal; scope: string }[] {
    const journal = parentToolId === undefined ? (this.#deps.activeJournal?.() ?? null) : null;
    return journal === null ? [] : this.#hostTasks.take(journal, tasks);
  }

  #chargeRunQuota(count: number): void {
    const limit = this.#deps.maxTasksPerRun;
    const runId = this.#deps.currentRunId();
    if (limit === undefined || runId === null) return;
    const used = this.#tasksPerRun.get(runId) ?? 0;
    if (used + count > limit) {
      throw new CodeError('SESSION_ERROR', `autoDelegation.maxTasks (${limit}) reached for this run: ${used} task(s) already delegated`, { details: { limit: 'autoDelegation.maxTasks', maxTasks: limit, used } });
    }
    this.#tasksPerRun.clear();
    this.#tasksPerRun.set(runId, used + count);
  }

  /** At most `maxParallelTasks` children run at once across the session; the rest wait in order. */
  async #withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#deps.maxParallelTasks) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#running += 1;
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }

  async #runOne(task: SubagentTaskRequest, agent: SubagentDefinition, outer: AbortSignal, parentToolId: string | undefined, index: number, extra: RunOneExtra): Promise<SubagentTaskResult> {
    const d = this.#deps;
    const { activeSkillTools, fanOut, host } = extra;
    this.#counter += 1;
    // Durable runs: a child of a journaled call journals under a task id derived from the call's
    // id, the same on every attempt that replays the parent's recorded model response; a
    // host-direct task of a journaled run under its own scope (see hostTaskScope).
    const parentJournal = host?.journal ?? (parentToolId === undefined ? null : (d.journalOfCall?.(parentToolId) ?? null));
    const taskId = host?.scope ?? (parentJournal !== null && parentToolId !== undefined ? childTaskScope(parentToolId, index) : `task_${this.#counter.toString(36)}_${Math.floor(Math.random() * 0xffffff).toString(36)}`);
    const stop = taskStop(outer, fanOut, parentJournal !== null);
    const { signal, beforeLive } = stop;
    const journal = parentJournal === null ? null : childRunJournal(parentJournal, taskId, beforeLive === undefined ? {} : { beforeLive });
    const parentRunId = d.currentRunId();
    const started = Date.now();
    const base = { task_id: taskId, agent: agent.name, description: task.description, ...(parentToolId === undefined ? {} : { parent_tool_id: parentToolId }) };
    d.emit(createAgentEvent('subagent_start', { ...base, prompt: task.prompt }));
    let child: ChildSession | null = null;
    // deny_on_ask: the first ask ends the child run, and the task fails with the refusal.
    const denyOnAsk = agent.confirmationInheritance === 'deny_on_ask' ? new DenyOnAskConfirmationManager(agent.name, () => void child?.cancel()) : null;
    let outcome: { status: 'completed'; text: string } | { status: 'failed' | 'cancelled'; error: CodeError };
    try {
      if (signal.aborted) throw cancelled(signal);
      child = this.#createChild(taskId, agent, task, activeSkillTools, denyOnAsk, parentToolId);
      const running = child;
      const unsubscribe = running.subscribe((event) => this.#onChildEvent(event, base));
      const onAbort = (): void => void running.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await running.send(journal === null ? task.prompt : { prompt: task.prompt, journal });
        const refused = denyOnAsk?.refusal ?? null;
        if (refused !== null) throw refused;
        outcome = { status: 'completed', text: result.text };
      } finally {
        signal.removeEventListener('abort', onAbort);
        unsubscribe();
      }
    } catch (thrown) {
      const error = signal.aborted ? cancelled(signal, thrown) : (denyOnAsk?.refusal ?? toCodeError(thrown));
      outcome = { status: signal.aborted ? 'cancelled' : 'failed', error };
    }
    // The child settles (tools stopped, process groups killed) before the result is published.
    const record = child?.runs().at(-1);
    const transcript = child?.history() ?? [];
    await child?.close();
    stop.dispose();
    // A journaled child call whose outcome is unknown stops the parent's run, naming the call as
    // the journal and the parent's confirmations do (`<task id>/<tool_call_id>`).
    if (outcome.status === 'failed' && isReconciliation(outcome.error)) throw reconciliationOfChild(outcome.error, taskId);
    const { promptTokens, completionTokens, totalTokens } = record?.usage ?? EMPTY_RUN_USAGE;
    const usage = { promptTokens, completionTokens, totalTokens };
    const result: SubagentTaskResult = {
      taskId,
      agent: agent.name,
      description: task.description,
      status: outcome.status,
      text: outcome.status === 'completed' ? outcome.text : '',
      error: outcome.status === 'completed' ? null : { code: outcome.error.code, message: outcome.error.message },
      usage,
      toolCallsCount: record?.toolCallsCount ?? 0,
      turns: record?.turns ?? 0,
      durationMs: Date.now() - started,
      childSessionId: child?.id ?? `${d.sessionId}/${taskId}`,
      parentRunId,
      transcript,
    };
    this.#snapshots.push(structuredClone({ ...result, transcript: [...transcript] }) as unknown as SubagentTaskSnapshot);
    if (this.#snapshots.length > MAX_TASK_SNAPSHOTS) this.#snapshots.splice(0, this.#snapshots.length - MAX_TASK_SNAPSHOTS);
    d.emit(
      createAgentEvent('subagent_end', {
        ...base,
        status: result.status,
        usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens },
        tool_calls: result.toolCallsCount,
        turns: result.turns,
        duration_ms: result.durationMs,
        ...(result.error === null ? {} : { error: result.error }),
      }),
    );
    return result;
  }

  #createChild(taskId: string, agent: SubagentDefinition, task: SubagentTaskRequest, activeSkillTools: readonly string[] | undefined, denyOnAsk: DenyOnAskConfirmationManager | null, parentToolId?: string): ChildSession {
    const d = this.#deps;
    const confirmation =
      agent.confirmationInheritance === 'inherit_parent'
        ? new DelegatedConfirmationManager(d.confirmation, `${taskId}/`, (event) => d.emit(event))
        : (denyOnAsk ?? new ConfirmationManager({ yoloLanes: [...CONFIRMATION_LANES] }));
    const maxSteps = task.maxSteps === undefined ? agent.maxSteps : Math.min(task.maxSteps, agent.maxSteps);
    return d.factory({
      sessionId: `${d.sessionId}/${taskId}`,
      parentSessionId: d.sessionId,
      agent,
      model: agent.model ?? d.model,
      workspace: d.workspace,
      parentTools: d.toolNames(),
      permissionPolicy: agent.permissions,
      inheritedPolicies: d.policy === undefined ? d.inheritedPolicies : [...d.inheritedPolicies, d.policy],
      confirmation,
      budget: d.budget,
      maxSteps,
      instructions: agent.prompt,
      ...(activeSkillTools === undefined ? {} : { activeSkillTools }),
      ...(d.telemetry == null ? {} : { telemetry: childTelemetry(d.telemetry, parentToolId) }),
    });
  }

  /** Child events the parent shows: tool and turn progress, denials, and inherited confirmations. */
  #onChildEvent(event: AgentEvent, base: Readonly<Record<string, unknown>>): void {
    switch (event.type) {
      case 'turn_end': {
        const { turn, usage } = event.payload;
        this.#deps.addUsage({ inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 });
        this.#deps.emit(createAgentEvent('subagent_progress', { ...base, event: 'turn_end', turn, usage }));
        break;
      }
      case 'tool_end':
        this.#deps.emit(createAgentEvent('subagent_progress', { ...base, event: 'tool_end', tool_name: event.toolName, exit_code: event.exitCode }));
        break;
      case 'permission_denied':
        this.#deps.emit(createAgentEvent('subagent_progress', { ...base, event: 'permission_denied', tool_name: event.toolName, reason: event.payload.reason }));
        break;
      default:
        // The parent shows only these three kinds of a child's progress.
        break;
    }
  }

}

/** What a child inherits of its parent's telemetry: the providers, and the `task` call's span as the parent of its run. */
function childTelemetry(telemetry: SessionTelemetry, parentToolId: string | undefined): NonNullable<ChildSessionRequest['telemetry']> {
  const parent = parentToolId === undefined ? undefined : telemetry.contextOfCall(parentToolId);
  return { options: telemetry.options, ...(parent === undefined ? {} : { parent }) };
}
