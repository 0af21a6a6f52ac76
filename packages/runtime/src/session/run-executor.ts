import type { BudgetGuard, HookRegistry, InvocationKernel } from '@a3s-lab/code-core/kernel';
import { CodeError, createAgentEvent, toCodeError, verificationSummaryText } from '@a3s-lab/code-core';
import type { AgentEvent, EventStream, LlmClient, LlmMessage, LlmUsage, RunJournal, RunRecord, SecurityProvider, SendRequest, SendResult, ToolDefinition, VerificationSummary } from '@a3s-lab/code-core';
import type { AdmissionLease } from './admission-gate.js';
import { isContextOverflowError } from './context-compactor.js';
import type { ContextCompactor, TurnLoopCompaction } from './context-compactor.js';
import type { Conversation, ConversationCheckpoint } from './conversation.js';
import type { RunHandle, RunStore } from './run-store.js';
import { toUserMessage } from './normalize-send-request.js';
import type { SessionEventBus } from './session-event-bus.js';
import type { ResolvedSessionOptions } from './resolve-session-options.js';
import { ToolCallRunner } from './tool-call-runner.js';
import { journaledLlmClient } from '../journal/journaled-llm-client.js';
import { runTurnLoop } from './turn-loop.js';
import { looksMultiStep } from '../planning/planning-mode.js';
import { usagePayload } from './usage-payload.js';
import { llmUsageOf } from './run-usage.js';
import type { UsageSink } from './usage-sink.js';
import type { SessionTelemetry } from '../telemetry/session-telemetry.js';
import { traceparentContext } from '../telemetry/traceparent.js';

/** What the executor drives a run with: the session's single owners, never copies of them. */
export interface RunExecutorDeps {
  readonly sessionId: string;
  readonly options: ResolvedSessionOptions;
  readonly llm: LlmClient;
  readonly conversation: Conversation;
  readonly runs: RunStore;
  readonly bus: SessionEventBus;
  readonly kernel: InvocationKernel;
  readonly hooks: HookRegistry;
  readonly security: SecurityProvider;
  /** The session's evidence: `agent_end` carries its summary. */
  readonly verification: { summary(): VerificationSummary | null };
  readonly budget: BudgetGuard | null;
  /** Where the run's model usage goes (the run's record and the budget). */
  readonly usage: UsageSink;
  readonly compactor: ContextCompactor | null;
  readonly system: () => string;
  readonly tools: () => readonly ToolDefinition[];
  /** Aborted when the session closes. */
  readonly closeSignal: AbortSignal;
  /** The planning phase (`planningMode`); absent = never plans. */
  readonly planning?: { readonly mode: 'auto' | 'enabled' | 'disabled'; run(task: string, runId: string, signal: AbortSignal, journal: RunJournal | null): Promise<void> };
  /** Tool names whose consecutive calls in one model turn run concurrently (`task` with autoParallel). */
  readonly concurrentTools?: ReadonlySet<string>;
  /** OpenTelemetry: the `invoke_agent` span of each run (and `plan` for planning). Default none. */
  readonly telemetry?: SessionTelemetry | null;
}

interface ActiveRun {
  readonly run: RunHandle;
  readonly controller: AbortController;
  readonly stream: EventStream<SendResult> | null;
  readonly done: Promise<void>;
}

/**
 * Drives one run at a time (admission is the caller's): `agent_start`, the `pre_prompt` hook,
 * the turn loop over the kernel, `post_response`, then the terminal event after cleanup. The
 * run store is the only source of its counters; the conversation is checkpointed first and a
 * run that left no trace of the model is rolled back exactly.
 */
export class RunExecutor {
  readonly #deps: RunExecutorDeps;
  readonly #toolCalls: ToolCallRunner;
  #active: ActiveRun | null = null;
  #journal: RunJournal | null = null;

  constructor(deps: RunExecutorDeps) {
    this.#deps = deps;
    this.#toolCalls = new ToolCallRunner(deps.kernel, deps.concurrentTools);
  }

  /** True while a run is executing. */
  get busy(): boolean {
    return this.#active !== null;
  }

  /** The running run's id, or `null`. */
  get activeRunId(): string | null {
    return this.#active?.run.id ?? null;
  }

  /** The running run's journal (a durable run), or `null`. */
  get activeJournal(): RunJournal | null {
    return this.#journal;
  }

  /** Adds usage of work done for the running run elsewhere (a subagent's model calls). */
  attributeUsage(usage: LlmUsage): void {
    this.#active?.run.addUsage(usage);
  }

  /** True when `stream` belongs to the running run. */
  owns(stream: EventStream<SendResult>): boolean {
    return this.#active !== null && this.#active.stream === stream;
  }

  /** Aborts the running run when its id is `runId` (or any run when `runId` is undefined). */
  abort(reason: string, runId?: string): boolean {
    const active = this.#active;
    if (active === null || (runId !== undefined && active.run.id !== runId)) return false;
    active.controller.abort(new Error(reason));
    return true;
  }

  /** Resolves once the running run (if any) has finished its cleanup. */
  async settled(): Promise<void> {
    await this.#active?.done;
  }

  /**
   * Runs `request` to its terminal event, then calls `afterRun` (autoSave captures the state)
   * before the stream ends and the promise settles. Resolves with the result; rejects with the
   * run's CodeError.
   */
  async execute(
    kind: string,
    request: SendRequest,
    lease: AdmissionLease,
    stream: EventStream<SendResult> | null,
    afterRun?: () => void,
    command?: (signal: AbortSignal) => Promise<string>,
  ): Promise<SendResult> {
    const d = this.#deps;
    const run = d.runs.start(kind, request.prompt);
    const trace = d.telemetry == null ? null : d.telemetry.startRun(run.id, kind, traceparentContext(request.traceparent));
    const controller = new AbortController();
    const onClose = (): void => controller.abort(new Error('session closed'));
    d.closeSignal.addEventListener('abort', onClose, { once: true });
    const limitMs = d.options.maxExecutionTimeMs;
    const deadline = limitMs === undefined ? undefined : setTimeout(() => controller.abort(new Error(`maxExecutionTimeMs (${limitMs} ms) exceeded`)), limitMs);
    let settle!: () => void;
    this.#active = { run, controller, stream, done: new Promise<void>((r) => (settle = r)) };
    const sink = { record: (event: AgentEvent) => run.append(event), push: (event: AgentEvent) => stream?.push(event) };
    d.bus.attachRun(sink);
    const checkpoint = d.conversation.checkpoint();
    // Durable runs: the model (turns, planning, compaction) and the kernel consult the run's
    // journal for this run only; subagent tasks journal there under their task ids.
    const journal = request.journal ?? null;
    if (journal !== null) d.kernel.attachJournal(journal);
    this.#journal = journal;
    let userMessage: LlmMessage | undefined;
    let compaction: TurnLoopCompaction | undefined;
    let outcome: { ok: true; text: string } | { ok: false; error: CodeError };
    try {
      if (request.history !== undefined) d.conversation.replace(request.history);
      d.bus.emit(createAgentEvent('agent_start', { run_id: run.id, session_id: d.sessionId, prompt: request.prompt, kind }));
      if (command !== undefined) {
        // A slash command: answered by the session, never sent to the model. Its answer is host
        // output like a tool's: redacted before it reaches events, run records and snapshots.
        const text = d.security.redact(await command(controller.signal));
        d.bus.emit(createAgentEvent('text_delta', { text, command: true }));
        outcome = { ok: true, text };
      } else {
        const prompt = await this.#promptAfterHooks(request.prompt, run.id);
        const planning = d.planning;
        if (planning !== undefined && (planning.mode === 'enabled' || (planning.mode === 'auto' && looksMultiStep(prompt)))) {
          if (trace === null) await planning.run(prompt, run.id, controller.signal, journal);
          else await trace.phase('plan', { 'gen_ai.operation.name': 'plan', 'a3s_code.run.id': run.id }, () => planning.run(prompt, run.id, controller.signal, journal));
        }
        // The session's usage sink: the run's record and the budget together.
        const recordUsage = (usage: LlmUsage): void => d.usage.record(usage);
        userMessage = toUserMessage({ ...request, prompt });
        const emit = (event: AgentEvent): void => void d.bus.emit(event);
        let compactionLlm: LlmClient | null = null;
        compaction = d.compactor?.forRun({
          system: d.system(), tools: d.tools, conversation: d.conversation, emit, signal: controller.signal, onUsage: recordUsage,
          ...(journal === null ? {} : { llm: (llm: LlmClient) => (compactionLlm ??= journaledLlmClient(llm, journal, 'compaction')) }),
        });
        const loop = await runTurnLoop(
          {
            llm: journal === null ? d.llm : journaledLlmClient(d.llm, journal, 'model'),
            system: d.system,
            tools: d.tools,
            conversation: d.conversation,
            emit,
            signal: controller.signal,
            limits: {
              maxToolRounds: d.options.maxToolRounds,
              circuitBreakerThreshold: d.options.circuitBreakerThreshold,
              duplicateToolCallThreshold: d.options.duplicateToolCallThreshold,
              llmApiTimeoutMs: d.options.llmApiTimeoutMs,
              maxOutputTokens: d.options.maxOutputTokens,
              maxParseRetries: d.options.maxParseRetries,
              maxContinuationTurns: d.options.continuationEnabled === false ? 0 : d.options.maxContinuationTurns,
            },
            toolCalls: this.#toolCalls,
            onUsage: (usage) => {
              recordUsage(usage);
              d.compactor?.observeUsage(usage);
            },
            onToolCalls: (count) => run.addToolCalls(count),
            onTurn: (turn) => {
              run.setTurns(turn);
              this.#checkModelBudget();
            },
            ...(compaction === undefined ? {} : { compaction }),
          },
          userMessage,
        );
        if (d.hooks.has('post_response')) await d.hooks.run('post_response', { text: loop.text, session_id: d.sessionId, run_id: run.id });
        outcome = { ok: true, text: loop.text };
      }
    } catch (thrown) {
      const error = controller.signal.aborted && !CodeError.hasCode(thrown, 'BUDGET_EXHAUSTED') ? cancelledRunError(controller.signal, thrown) : surfacedError(thrown);
      outcome = { ok: false, error };
      this.#restoreConversation(checkpoint, request.history !== undefined, userMessage, compaction, error.message);
      if (d.hooks.has('on_error')) await d.hooks.run('on_error', { code: error.code, message: error.message, run_id: run.id }).catch(() => undefined);
    } finally {
      d.closeSignal.removeEventListener('abort', onClose);
      clearTimeout(deadline);
      if (journal !== null) d.kernel.attachJournal(null);
      this.#journal = null;
    }
    // Cleanup BEFORE the terminal event: a consumer that saw it can send again immediately.
    const record = outcome.ok
      ? run.finish('completed', { text: outcome.text })
      : run.finish(CodeError.isCancelled(outcome.error) ? 'cancelled' : 'failed', { error: { code: outcome.error.code, message: d.security.redact(outcome.error.message) } });
    if (trace !== null) {
      trace.end(record.status, llmUsageOf(record.usage), outcome.ok ? undefined : outcome.error.code);
      d.telemetry!.endRun(trace);
    }
    this.#active = null;
    lease.release();
    settle();
    const summary = d.verification.summary();
    const terminal = outcome.ok
      ? createAgentEvent('agent_end', {
          run_id: run.id,
          text: outcome.text,
          usage: usagePayload(llmUsageOf(record.usage)),
          tool_calls: record.toolCallsCount,
          verification_summary: summary,
        })
      : createAgentEvent('error', { run_id: run.id, code: outcome.error.code, message: d.security.redact(outcome.error.message), details: d.security.redactValue(outcome.error.details) as Record<string, unknown> });
    // Detached first (a listener may start the next run on the terminal event); the terminal
    // event is still recorded in this run and pushed to its stream.
    d.bus.detachRun(sink);
    d.bus.emitToRun(sink, terminal);
    afterRun?.();
    if (stream !== null) {
      stream.end(outcome.ok ? { ok: true, value: resultOf(record, outcome.text, summary) } : { ok: false, error: redactedError(outcome.error, d.security) });
    }
    if (!outcome.ok) throw redactedError(outcome.error, d.security);
    return resultOf(record, outcome.text, summary);
  }

  /** `pre_prompt` hooks may block the prompt or rewrite it. */
  async #promptAfterHooks(prompt: string, runId: string): Promise<string> {
    const d = this.#deps;
    if (!d.hooks.has('pre_prompt')) return prompt;
    const decision = await d.hooks.run('pre_prompt', { prompt, session_id: d.sessionId, run_id: runId });
    if (decision.action === 'block' || decision.action === 'retry') {
      throw new CodeError('SESSION_ERROR', `prompt blocked by hook${decision.hookId === undefined ? '' : ` '${decision.hookId}'`}: ${decision.reason ?? 'no reason given'}`, {
        details: { hook: decision.hookId ?? null, blocked: true },
      });
    }
    const modified = decision.modified?.['prompt'];
    return typeof modified === 'string' ? modified : prompt;
  }

  /**
   * After a failed run: when nothing the model said survived (blocked prompt, failed first
   * model call) the conversation goes back exactly to its checkpoint, including a `history` the
   * request would have installed — except that a compaction accepted in this run (a billed
   * summary of the same conversation) is kept and only the prompt is dropped. Otherwise the
   * run's turns stay and dangling tool calls are answered so the next request is valid. The
   * prompt is looked up where it is now (-1 once summarised, which only follows a model answer).
   */
  #restoreConversation(
    checkpoint: ConversationCheckpoint,
    installedHistory: boolean,
    userMessage: LlmMessage | undefined,
    compaction: TurnLoopCompaction | undefined,
    reason: string,
  ): void {
    const conversation = this.#deps.conversation;
    const at = userMessage === undefined ? -1 : conversation.indexOf(userMessage);
    const compacted = (compaction?.compactions ?? 0) > 0;
    const modelAnswered = (at === -1 && compacted) || (at >= 0 && conversation.length > at + 1);
    if (modelAnswered) conversation.answerDanglingToolCalls(reason);
    else if (compacted && !installedHistory && at >= 0) conversation.truncate(at);
    else conversation.rollback(checkpoint);
  }

  /**
   * Budget gate before a model call: tokens and wall time. `BudgetGuard.check()` also asks
   * whether one more TOOL call fits; that must not stop a model turn, or a run that used exactly
   * `maxToolCalls` could never give its final answer (and every later send would fail at once).
   */
  #checkModelBudget(): void {
    const budget = this.#deps.budget;
    if (budget === null) return;
    try {
      budget.check();
    } catch (error) {
      if (!CodeError.hasCode(error, 'BUDGET_EXHAUSTED') || error.details['kind'] !== 'tool_calls') throw error;
      const limits = budget.limits();
      const usage = budget.usage();
      if (usage.tokens >= limits.tokens) throw budgetExhausted('tokens', limits.tokens, usage.tokens);
      if (usage.wallTimeMs >= limits.wall_time_ms) throw budgetExhausted('wall_time_ms', limits.wall_time_ms, usage.wallTimeMs);
    }
  }
}

/** A run's result, every counter read from its record. */
function resultOf(record: RunRecord, text: string, summary: VerificationSummary | null): SendResult {
  return {
    text,
    runId: record.id,
    toolCallsCount: record.toolCallsCount,
    turns: record.turns,
    promptTokens: record.usage.promptTokens,
    completionTokens: record.usage.completionTokens,
    totalTokens: record.usage.totalTokens,
    cacheReadTokens: record.usage.cacheReadTokens,
    cacheWriteTokens: record.usage.cacheWriteTokens,
    verificationSummary: summary,
    verificationSummaryText: verificationSummaryText(summary),
  };
}

/**
 * The error a run reports: a provider's "the request is larger than the context window" is
 * CONTEXT_ERROR (the model is fine; the conversation is too long), anything else as classified.
 */
function surfacedError(thrown: unknown): CodeError {
  const error = toCodeError(thrown);
  if (!isContextOverflowError(error)) return error;
  return new CodeError('CONTEXT_ERROR', `${error.message} (the conversation exceeds the model's context window: enable autoCompact, raise maxContextTokens or start a new session)`, {
    details: { ...error.details },
    cause: error,
  });
}

/** The run's error as the host receives it: message and details redacted (provider bodies can echo secrets). */
function redactedError(error: CodeError, security: SecurityProvider): CodeError {
  const message = security.redact(error.message);
  if (message === error.message) return error;
  return new CodeError(error.code, message, { details: security.redactValue(error.details) as Record<string, unknown> });
}

function budgetExhausted(kind: string, limit: number, used: number): CodeError {
  return new CodeError('BUDGET_EXHAUSTED', `${kind} budget exhausted: used ${used} of ${limit}`, { details: { kind, limit, used } });
}

function cancelledRunError(signal: AbortSignal, thrown: unknown): CodeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled';
  return CodeError.cancelled(`run cancelled: ${reason}`, { cause: thrown });
}
