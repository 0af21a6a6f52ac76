import { CodeError, createAgentEvent, toCodeError } from '@a3s-lab/code-core';
import type { AgentEvent, LlmClient, LlmMessage, LlmUsage, ToolDefinition } from '@a3s-lab/code-core';
import { buildCompactedHistory, renderTranscript, selectRetainedSuffix, suffixHasPrompt } from './compaction-plan.js';
import type { Conversation } from './conversation.js';
import { summarizeConversation } from './summarize-conversation.js';
import { CHARS_PER_TOKEN, estimateFixedTokens, estimateMessagesTokens } from './token-estimate.js';

/** Why a compaction was attempted. */
/** Why a compaction runs: above the threshold, after a provider overflow, or asked for (`/compact`). */
export type CompactionReason = 'threshold' | 'context_overflow' | 'manual';

/** Options of {@link ContextCompactor}. */
export interface ContextCompactorOptions {
  /** Model used for the summary (the session's own model). */
  readonly llm: LlmClient;
  /** Context window of the model, tokens. */
  readonly maxContextTokens: number;
  /** Fraction of the window above which the history is compacted before a model call (default 0.8). */
  readonly threshold?: number;
  /** Fraction of the window the request may fill right after a compaction: system, tools, summary and retained suffix (default 0.4). */
  readonly retainFraction?: number;
  /** Response cap of the summarisation call, tokens (default 10% of the window, within 256..4096). */
  readonly summaryMaxTokens?: number;
  /** Deadline of the summarisation call, ms (default none). */
  readonly llmApiTimeoutMs?: number;
}

/** What one compaction needs from the running loop. */
export interface CompactionContext {
  readonly system: string;
  readonly tools: () => readonly ToolDefinition[];
  /** The conversation; replaced when a compaction is accepted. */
  readonly conversation: Conversation;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  /** Usage of the summarisation call (it is a real, billed model call). */
  readonly onUsage?: (usage: LlmUsage) => void;
  /** The summarisation model of this run (durable runs journal it); default the compactor's. */
  readonly llm?: (compactorLlm: LlmClient) => LlmClient;
}

/** The hook {@link runTurnLoop} calls; one per run, from {@link ContextCompactor.forRun}. */
export interface TurnLoopCompaction {
  /** Compacts when the next request is estimated above the threshold. Records the estimate for calibration. */
  beforeModelCall(): Promise<void>;
  /** After a failed model call: true when the failure was a context overflow and the history was compacted (retry the turn once). */
  recoverFromError(error: CodeError): Promise<boolean>;
  /** Compactions accepted in this run. */
  readonly compactions: number;
}

/** The outcome of one compaction attempt. */
export type CompactionOutcome = 'compacted' | 'not_needed' | 'rejected' | 'failed';

const DEFAULT_RETAIN_FRACTION = 0.4;
// Calibration factors outside this range mean a usage report we cannot relate to our request.
const MIN_RATIO = 0.25;
const MAX_RATIO = 4;

/**
 * True when a model call failed because the request was larger than the model's context window:
 * an `LLM_ERROR` whose adapter set `details.contextOverflow`, or HTTP 413 (request too large).
 */
export function isContextOverflowError(error: unknown): boolean {
  if (!CodeError.hasCode(error, 'LLM_ERROR')) return false;
  return error.details['contextOverflow'] === true || error.details['status'] === 413;
}

/**
 * Rolling auto-compaction of one session's conversation. Estimates each request (chars/4,
 * calibrated by the provider's reported input usage for the previous request), and when a
 * request would exceed `threshold x maxContextTokens` replaces the oldest part of the history
 * with a model-written summary, keeping a suffix chosen by token budget. A replacement that
 * would not shrink the estimated history is rejected and the history is kept.
 *
 * A failed summarisation never fails the run: the history is kept and a `context_compacted`
 * event with `failed: true` says why (see docs/decisions/context-compaction.md).
 */
export class ContextCompactor {
  readonly maxContextTokens: number;
  readonly threshold: number;
  readonly retainFraction: number;
  readonly summaryMaxTokens: number;
  readonly #llm: LlmClient;
  readonly #timeoutMs: number | undefined;
  #ratio = 1;
  #lastEstimate = 0;
  // After a rejected or failed attempt, threshold compaction waits until the history has grown
  // by a tenth of the window: retrying at once would pay for a summary every turn.
  #retryAboveRaw = 0;

  constructor(options: ContextCompactorOptions) {
    this.#llm = options.llm;
    this.maxContextTokens = options.maxContextTokens;
    this.threshold = options.threshold ?? 0.8;
    this.retainFraction = options.retainFraction ?? DEFAULT_RETAIN_FRACTION;
    this.summaryMaxTokens = options.summaryMaxTokens ?? Math.min(4096, Math.max(256, Math.floor(options.maxContextTokens / 10)));
    this.#timeoutMs = options.llmApiTimeoutMs;
  }

  /** Provider tokens per estimated token, learnt from the last usage report (1 until then). */
  get calibration(): number {
    return this.#ratio;
  }

  /** Calibrated token estimate of a request made of `system`, `tools` and `messages`. */
  estimate(system: string, tools: readonly ToolDefinition[], messages: readonly LlmMessage[]): number {
    return Math.ceil((estimateFixedTokens(system, tools) + estimateMessagesTokens(messages)) * this.#ratio);
  }

  /**
   * Learns the calibration from the usage the provider reported for the last request whose
   * estimate was recorded by `beforeModelCall`. Cached tokens are part of the prompt too.
   */
  observeUsage(usage: LlmUsage): void {
    const actual = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
    if (actual <= 0 || this.#lastEstimate <= 0) return;
    this.#ratio = Math.min(MAX_RATIO, Math.max(MIN_RATIO, actual / this.#lastEstimate));
    this.#lastEstimate = 0;
  }

  /** The per-run hook for the turn loop. */
  forRun(context: CompactionContext): TurnLoopCompaction {
    let compactions = 0;
    const track = (outcome: CompactionOutcome): CompactionOutcome => {
      if (outcome === 'compacted') compactions += 1;
      return outcome;
    };
    return {
      beforeModelCall: async () => {
        track(await this.compact(context, 'threshold'));
        this.#lastEstimate = estimateFixedTokens(context.system, context.tools()) + estimateMessagesTokens(context.conversation.messages());
      },
      recoverFromError: async (error) => {
        if (!isContextOverflowError(error)) return false;
        const outcome = track(await this.compact(context, 'context_overflow'));
        this.#lastEstimate = estimateFixedTokens(context.system, context.tools()) + estimateMessagesTokens(context.conversation.messages());
        return outcome === 'compacted';
      },
      get compactions() {
        return compactions;
      },
    };
  }

  /**
   * One compaction attempt. `threshold` compacts only above the threshold; `context_overflow`
   * always tries (the provider said the request did not fit). Throws only on cancellation.
   */
  async compact(context: CompactionContext, reason: CompactionReason): Promise<CompactionOutcome> {
    const history = context.conversation.messages();
    const tools = context.tools();
    const fixedRaw = estimateFixedTokens(context.system, tools);
    const historyRaw = estimateMessagesTokens(history);
    const before = Math.ceil((fixedRaw + historyRaw) * this.#ratio);
    if (reason === 'threshold' && (before <= this.threshold * this.maxContextTokens || historyRaw < this.#retryAboveRaw)) return 'not_needed';

    // The provider refused a request of `before` tokens: the real window is smaller than that,
    // whatever maxContextTokens says, so size the retained part against the refused request.
    const window = reason === 'context_overflow' ? Math.min(this.maxContextTokens, before) : this.maxContextTokens;
    const suffixBudget = Math.max(0, (this.retainFraction * window - this.summaryMaxTokens) / this.#ratio - fixedRaw);
    const cut = selectRetainedSuffix(history, suffixBudget);
    if (cut === null) return this.#giveUp(historyRaw, 'rejected');

    const prefix = history.slice(0, cut);
    // The summarisation request must fit the window itself, with room for the summary.
    const transcriptChars = Math.max(2000, Math.floor(((window * 0.6 - this.summaryMaxTokens) / this.#ratio) * CHARS_PER_TOKEN));
    let summary: string;
    try {
      summary = await summarizeConversation(context.llm === undefined ? this.#llm : context.llm(this.#llm), renderTranscript(prefix, transcriptChars), {
        maxTokens: this.summaryMaxTokens,
        signal: context.signal,
        ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }),
        ...(context.onUsage === undefined ? {} : { onUsage: context.onUsage }),
      });
    } catch (thrown) {
      if (context.signal.aborted) throw thrown;
      const error = toCodeError(thrown, 'LLM_ERROR');
      context.emit(
        createAgentEvent('context_compacted', {
          ...this.#payload(reason, before, before, 0, history.length, 0),
          failed: true,
          error: { code: error.code, message: error.message },
        }),
      );
      return this.#giveUp(historyRaw, 'failed');
    }

    const replacement = buildCompactedHistory(history, cut, summary, suffixHasPrompt(history, cut));
    const replacementRaw = estimateMessagesTokens(replacement);
    if (replacementRaw >= historyRaw) return this.#giveUp(historyRaw, 'rejected');
    context.conversation.replace(replacement);
    this.#retryAboveRaw = 0;
    const after = Math.ceil((fixedRaw + replacementRaw) * this.#ratio);
    context.emit(createAgentEvent('context_compacted', this.#payload(reason, before, after, cut, replacement.length - 1, new TextEncoder().encode(summary).length)));
    return 'compacted';
  }

  #giveUp(historyRaw: number, outcome: 'rejected' | 'failed'): CompactionOutcome {
    this.#retryAboveRaw = historyRaw + (0.1 * this.maxContextTokens) / this.#ratio;
    return outcome;
  }

  #payload(reason: CompactionReason, before: number, after: number, removed: number, retained: number, summaryBytes: number): Record<string, unknown> {
    return {
      before_tokens: before,
      after_tokens: after,
      removed_messages: removed,
      retained_messages: retained,
      summary_bytes: summaryBytes,
      reason,
      max_context_tokens: this.maxContextTokens,
    };
  }
}
