import type { LlmStreamEvent } from '../llm/llm-client.js';
import type { ToolOutput } from '../tools/tool-result.js';
import type { JournaledAnswer, JournaledToolCall, RunJournal } from './run-journal.js';

/** One numbered step of a {@link MemoryRunJournal}. */
export interface MemoryJournalStep {
  readonly step: number;
  readonly key: string;
  readonly kind: 'model' | 'tool_start' | 'tool_outcome' | 'confirmation_request' | 'confirmation_answer';
}

/**
 * The in-memory {@link RunJournal}: the reference implementation (and what tests replay with).
 * It survives the session, not the process: hand the same instance to the next attempt.
 */
export class MemoryRunJournal implements RunJournal {
  readonly runId: string;
  readonly #models = new Map<string, readonly LlmStreamEvent[]>();
  readonly #tools = new Map<string, { outcome: ToolOutput | null; retry: boolean; startedAt?: number }>();
  readonly #answers = new Map<string, JournaledAnswer>();
  readonly #requests = new Map<string, { readonly toolName: string; readonly args: unknown }>();
  readonly #steps: MemoryJournalStep[] = [];

  constructor(runId: string) {
    this.runId = runId;
  }

  /** Every step recorded, in order. */
  steps(): readonly MemoryJournalStep[] {
    return this.#steps;
  }

  /** Confirmations requested and not answered yet, by tool call id. */
  pendingConfirmations(): string[] {
    return [...this.#requests.keys()].filter((id) => !this.#answers.has(id));
  }

  /** Host decisions on a started call whose outcome is unknown (what `reconcile` records). */
  reconcile(key: string, decision: { readonly retry: true } | { readonly output: string; readonly exitCode: number }): void {
    if ('retry' in decision) this.#tools.set(key, { outcome: null, retry: true });
    else this.#tools.set(key, { outcome: { output: decision.output, exitCode: decision.exitCode }, retry: false });
  }

  /** Answers a confirmation as another process would (recorded; applied by whoever resumes). */
  answer(toolId: string, answer: JournaledAnswer): void {
    this.#answers.set(toolId, answer);
  }

  modelResponse(key: string): Promise<readonly LlmStreamEvent[] | null> {
    return Promise.resolve(this.#models.get(key) ?? null);
  }

  recordModelResponse(key: string, events: readonly LlmStreamEvent[]): Promise<void> {
    this.#models.set(key, structuredClone([...events]));
    this.#push(key, 'model');
    return Promise.resolve();
  }

  toolCall(key: string): Promise<JournaledToolCall | null> {
    const entry = this.#tools.get(key);
    if (entry === undefined) return Promise.resolve(null);
    return Promise.resolve({ outcome: entry.outcome, retry: entry.retry, ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }) });
  }

  recordToolStart(key: string): Promise<void> {
    this.#tools.set(key, { outcome: null, retry: false, startedAt: Date.now() });
    this.#push(key, 'tool_start');
    return Promise.resolve();
  }

  recordToolOutcome(key: string, outcome: ToolOutput): Promise<void> {
    const startedAt = this.#tools.get(key)?.startedAt;
    this.#tools.set(key, { outcome: structuredClone(outcome), retry: false, ...(startedAt === undefined ? {} : { startedAt }) });
    this.#push(key, 'tool_outcome');
    return Promise.resolve();
  }

  confirmationAnswer(toolId: string): Promise<JournaledAnswer | null> {
    return Promise.resolve(this.#answers.get(toolId) ?? null);
  }

  recordConfirmationRequest(toolId: string, request: { readonly toolName: string; readonly args: unknown }): Promise<void> {
    this.#requests.set(toolId, request);
    this.#push(`confirmation-${toolId}`, 'confirmation_request');
    return Promise.resolve();
  }

  recordConfirmationAnswer(toolId: string, answer: JournaledAnswer): Promise<void> {
    this.#answers.set(toolId, answer);
    this.#push(`confirmation-${toolId}`, 'confirmation_answer');
    return Promise.resolve();
  }

  #push(key: string, kind: MemoryJournalStep['kind']): void {
    this.#steps.push({ step: this.#steps.length + 1, key, kind });
  }
}
