import type { LlmStreamEvent } from '../llm/llm-client.js';
import type { ToolOutput } from '../tools/tool-result.js';

/** What the journal holds for one tool call (`tool-<tool_call_id>`). */
export interface JournaledToolCall {
  /** The outcome, when the call finished before the process stopped; `null` = started only. */
  readonly outcome: ToolOutput | null;
  /**
   * The host decided a started call without an outcome may run again
   * (`reconcile(..., { retry: true })`): it is executed once more even when not idempotent.
   */
  readonly retry: boolean;
  /**
   * When the call's start was recorded (epoch ms, the recording process's clock), if the journal
   * keeps it: what a call that keeps a deadline across attempts (a resumed `parallel_task`'s
   * `timeout_ms`) measures from. Absent: the journal does not know, and such a call starts over.
   */
  readonly startedAt?: number;
}

/** A recorded answer to a confirmation (`confirmation-<tool_call_id>`). */
export interface JournaledAnswer {
  readonly approved: boolean;
  readonly reason?: string;
}

/** Options of {@link RunJournal.recordToolStart}. */
export interface ToolStartOptions {
  /** The call may execute again without harm: its start need not be durable before it runs. */
  readonly idempotent?: boolean;
}

/**
 * What a durable run needs from the runtime so that a run interrupted by process death resumes on
 * another process from its last step: every completed model response (`model-<runId>-<n>`,
 * compactions `compaction-<runId>-<n>`), every tool call's start and outcome
 * (`tool-<tool_call_id>`) and every confirmation request and answer is a step, written (the
 * promise resolved) before the next step begins. On replay a recorded response is served instead
 * of asking the model, a recorded outcome is returned instead of executing the tool again, a
 * recorded answer is applied instead of asking again.
 *
 * A run inside a step (a subagent task's child run) journals into the same journal under its
 * task id, derived from the parent's call id (`tool-<task id>/<tool_call_id>`, model responses
 * `model-<runId>/<task id>-<n>`; the planner's response is `planning-<runId>-<n>`), and so does
 * a host-direct task made during the run (`session.task()`: task id `host_<digest>_<n>`).
 *
 * Passed per run (`SendRequest.journal`); core never stores it. `@a3s-lab/code-postgres`
 * implements it over PostgreSQL; {@link MemoryRunJournal} is the in-memory reference.
 */
export interface RunJournal {
  /** The durable run these steps belong to (stable across the processes that resume it). */
  readonly runId: string;
  /** The recorded events of a model response, or `null` when this response was never completed. */
  modelResponse(key: string): Promise<readonly LlmStreamEvent[] | null>;
  /** Records a completed model response (the events of its final attempt, `message_end` last). */
  recordModelResponse(key: string, events: readonly LlmStreamEvent[]): Promise<void>;
  /**
   * The recorded state of a tool call, or `null` when it never started. `resumable`: a started
   * call without an outcome is entered again without a new start (a subagent task, whose child
   * run's steps follow under its id): a journal that drops the events a replay regenerates keeps
   * dropping them until one of those steps is live.
   */
  toolCall(key: string, options?: { readonly resumable?: boolean }): Promise<JournaledToolCall | null>;
  /**
   * Records that a tool call is about to execute (after every governance stage allowed it).
   * `idempotent`: the call is safe to execute again (a start without an outcome would run again on
   * resume, exactly as a call never started does), so the journal may write this start together
   * with the call's outcome instead of before the call: one write instead of two.
   */
  recordToolStart(key: string, call: { readonly toolName: string; readonly args: unknown }, options?: ToolStartOptions): Promise<void>;
  /** Records a tool call's (redacted) outcome. */
  recordToolOutcome(key: string, outcome: ToolOutput): Promise<void>;
  /** A recorded answer to the confirmation of `toolId` (given here or by another process), or `null`. */
  confirmationAnswer(toolId: string): Promise<JournaledAnswer | null>;
  /** Records that the call `toolId` waits for a human: a durable pending confirmation. */
  recordConfirmationRequest(toolId: string, request: { readonly toolName: string; readonly args: unknown }): Promise<void>;
  /** Records the answer the session received. */
  recordConfirmationAnswer(toolId: string, answer: JournaledAnswer): Promise<void>;
  /**
   * Asked when a model response is not recorded: `true` when it is the first live step of an
   * attempt that replayed an earlier attempt's steps. The turn then starts with `turn_start`
   * (`retry: true`, `reason: 'resumed'`), so hosts drop what the lost attempt streamed of it.
   * Default: never.
   */
  liveAfterReplay?(): boolean;
}

/** The journal key of a tool call. */
export function toolStepKey(toolId: string): string {
  return `tool-${toolId}`;
}

/** Details of the error a run stops with when a non-idempotent call's outcome is unknown. */
export interface ReconciliationDetails {
  readonly needs_reconciliation: true;
  readonly tool_id: string;
  readonly tool_name: string;
}
