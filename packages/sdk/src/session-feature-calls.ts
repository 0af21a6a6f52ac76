import type { PlanItem, SkillDefinition, SlashCommandHandler, SlashCommandInfo, SubagentDefinition, SubagentFanOutOptions, SubagentTaskRequest, VerificationCommand, VerificationReportV1, VerificationSummary, WorkerAgentSpec } from '@a3s-lab/code-core';
import { CodeError } from '@a3s-lab/code-core';
import type { SessionFeatures } from '@a3s-lab/code-runtime';
import { SessionAliases } from './session-aliases.js';
import { toTaskResult } from './tool-result-view.js';
import type { TaskResult } from './tool-result-view.js';

/**
 * The calls of a session that its runtime's features answer (dynamic workflows, slash commands,
 * skills, the plan, subagents, verification evidence, labels), each one call of the feature.
 * `Session` extends this class; hosts use `Session`.
 */
export abstract class SessionFeatureCalls extends SessionAliases {
  readonly #features: SessionFeatures;

  protected constructor(features: SessionFeatures) {
    super();
    this.#features = features;
  }

  /**
   * Adds the opt-in `dynamic_workflow` tool: a workflow module's `run(ctx, inputs)` runs in the
   * PTC sandbox (same limits, governed nested calls) and returns `{ type: 'complete', output }` or
   * `{ type: 'fail', error }`. Remove it with `unregisterDynamicTool('dynamic_workflow')`. Kept in
   * the session's snapshot: a resumed session has it again. SESSION_CLOSED after close.
   */
  registerDynamicWorkflowRuntime(): void {
    if (this.closed) throw new CodeError('SESSION_CLOSED', 'session is closed; registerDynamicWorkflowRuntime() rejected');
    this.#features.workflow.enable();
  }

  // ---- slash commands -----------------------------------------------------------------------

  /** Registers `/name`: typed into `send()` / `stream()`, it runs `handler` instead of a model turn. */
  registerCommand(name: string, description: string, handler: SlashCommandHandler): void {
    this.#features.commands.register(name, description, handler);
  }

  /** Every slash command (built-ins: help, tools, model, cost, history, status, compact, clear). */
  listCommands(): SlashCommandInfo[] {
    return this.#features.commands.list();
  }

  /** The skills of this session (instruction and persona): from `skillDirs`, agent directories and `inlineSkills`. */
  skills(): SkillDefinition[] {
    return this.#features.skills.list();
  }

  /** The session's plan (planning phase and `update_plan`), in order; `task_updated` streams it. */
  plan(): PlanItem[] {
    return this.#features.planning.items();
  }

  // ---- subagents ----------------------------------------------------------------------------

  /**
   * Runs one subagent task: `await session.task({ agent: 'explore', description, prompt })`.
   * The child is a full session on this workspace (its own context, tools and prompt) that can
   * never do more than this session allows. Resolves with its result (status, text, usage,
   * transcript) and, as the `task` tool returns it, `name: 'task'`, `exitCode` (0 when
   * completed), `output` (what the model reads) and `metadataJson`; a failed child is a result
   * with `status: 'failed'` and `exitCode: 1`, not a rejection.
   */
  task(task: SubagentTaskRequest & { readonly background?: boolean }): Promise<TaskResult> {
    const { background, ...request } = task;
    if (background !== undefined && background !== false) {
      throw new CodeError('SESSION_CONFIGURATION_ERROR', "task({ background: true }) is not supported yet: await session.task(...) or run tasks concurrently with session.tasks([...])", { details: { field: 'background' } });
    }
    return this.#features.subagents.task(request).then(toTaskResult);
  }

  /**
   * Runs tasks concurrently (at most `maxParallelTasks` at once); results in request order, each
   * with the ToolResult fields of {@link task}.
   */
  tasks(tasks: readonly SubagentTaskRequest[], options: SubagentFanOutOptions = {}): Promise<TaskResult[]> {
    return this.#features.subagents.tasks(tasks, options).then((results) => results.map(toTaskResult));
  }

  /**
   * Registers a worker agent at run time; delegate to it by name through `task`. Returns the
   * registered definition (its kind's tools and prompt, `maxSteps`, `confirmationInheritance`).
   */
  registerWorkerAgent(spec: WorkerAgentSpec): SubagentDefinition {
    return this.#features.subagents.registerWorkerAgent(spec);
  }

  /** Agents this session can delegate to (built-ins and workers). */
  agents(): readonly SubagentDefinition[] {
    return this.#features.subagents.agents();
  }

  // ---- evidence ----------------------------------------------------------------------------

  /**
   * Attaches external `a3s.verification_report.v1` documents to the session's evidence. All are
   * validated first: one bad document rejects with SESSION_ERROR and nothing is recorded.
   */
  async recordVerificationReports(reports: readonly unknown[]): Promise<VerificationReportV1[]> {
    return this.#features.verification.record(reports);
  }

  /**
   * Runs each command through the governed bash path (permission policy, confirmation and hooks
   * apply) and records the resulting report: `await session.verifyCommands('release', [{ id,
   * kind, description, command, required, timeoutMs }])`.
   */
  verifyCommands(subject: string, commands: readonly VerificationCommand[]): Promise<VerificationReportV1> {
    return this.#features.verification.verifyCommands(subject, commands);
  }

  /** Every retained verification report, oldest first. */
  verificationReports(): VerificationReportV1[] {
    return this.#features.verification.reports();
  }

  /** What the next `agent_end` would carry as `verification_summary` (`null` without reports). */
  verificationSummary(): VerificationSummary | null {
    return this.#features.verification.summary();
  }

  /** Sets (or with `null` removes) a label kept in snapshots. */
  setLabel(key: string, value: string | null): void {
    this.#features.labels.set(key, value);
  }

  /** The session's labels. */
  labels(): Record<string, string> {
    return this.#features.labels.all();
  }
}
