import type { LlmMessage } from '../llm/llm-client.js';
import type { SubagentAuthority, SubagentDefinition } from './subagent-definition.js';

/** One delegated task. */
export interface SubagentTaskRequest {
  /** Agent name: a built-in (`explore`, `plan`, `general`, `verification`, `review`) or a registered worker. */
  readonly agent: string;
  /** Short label shown in events and UIs. */
  readonly description: string;
  /** What the child is asked to do. */
  readonly prompt: string;
  /** Overrides the agent's maxSteps (capped by it). */
  readonly maxSteps?: number;
}

/** Terminal status of a task. */
export type SubagentTaskStatus = 'completed' | 'failed' | 'cancelled';

/** Token usage of a task (the child's whole run). */
export interface SubagentUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** The outcome of one task; the full child transcript is kept with it. */
export interface SubagentTaskResult {
  readonly taskId: string;
  readonly agent: string;
  readonly description: string;
  readonly status: SubagentTaskStatus;
  /** The child's final answer ('' unless completed). */
  readonly text: string;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly usage: SubagentUsage;
  readonly toolCallsCount: number;
  readonly turns: number;
  readonly durationMs: number;
  readonly childSessionId: string;
  /** The parent run the task ran in, or `null` for a host call outside a run. */
  readonly parentRunId: string | null;
  /** The child's whole conversation. */
  readonly transcript: readonly LlmMessage[];
}

/** Options of a fan-out. */
export interface SubagentFanOutOptions {
  /** Let the call succeed when some tasks fail (default false: any failure fails it). */
  readonly allowPartialFailure?: boolean;
  /** Deadline of the whole fan-out, ms; unfinished tasks are cancelled. */
  readonly timeoutMs?: number;
  /** Successes needed for the call to succeed (default: all, or 1 with allowPartialFailure). */
  readonly minSuccessCount?: number;
}

/** How a run is attributed: the parent call it runs under and its cancellation. */
export interface SubagentRunOptions {
  readonly signal: AbortSignal;
  /** The `task` / `parallel_task` call id, when a tool started it. */
  readonly parentToolId?: string;
}

/**
 * The session service `task` and `parallel_task` call (`context.services.subagents`), and what
 * `session.task()` / `session.tasks()` use.
 */
export interface SubagentService {
  /** Agents this session can delegate to. */
  agents(): readonly SubagentDefinition[];
  /**
   * What a task for `agent` lets its child do (its tools, its `confirmationInheritance`, what it
   * may run without asking): what the `task` / `parallel_task` confirmation tells the human.
   * Throws SESSION_ERROR for an unknown agent.
   */
  authority(agent: string): SubagentAuthority;
  /** Bound of concurrent children (`maxParallelTasks`). */
  readonly maxParallelTasks: number;
  /** Runs one task to its end (never rejects for a failed child: the result says so). */
  run(task: SubagentTaskRequest, options: SubagentRunOptions): Promise<SubagentTaskResult>;
  /** Runs tasks concurrently (at most `maxParallelTasks` at once); results in request order. */
  runAll(tasks: readonly SubagentTaskRequest[], options: SubagentRunOptions & SubagentFanOutOptions): Promise<SubagentTaskResult[]>;
}

/** True when `value` is a {@link SubagentService} (how tools read `context.services.subagents`). */
export function isSubagentService(value: unknown): value is SubagentService {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['run'] === 'function' && typeof (value as Record<string, unknown>)['runAll'] === 'function';
}
