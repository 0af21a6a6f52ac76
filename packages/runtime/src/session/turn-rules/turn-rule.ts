import type { CodeError, ToolResult } from '@a3s-lab/code-core';

/** A tool call of a model turn, as the rules see it. */
export interface TurnCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** Why the arguments are not valid JSON; `undefined` when they are. */
  readonly invalidInput: string | undefined;
}

/** A model turn, as the rules see it. */
export interface TurnView {
  readonly turn: number;
  readonly stopReason: string;
  readonly calls: readonly TurnCall[];
}

/** A round the run does not execute: every call is answered with `reason`, then `error` ends the run. */
export interface RoundRefusal {
  readonly reason: string;
  readonly error: CodeError;
}

/**
 * One stop or refusal rule of the turn loop (like the kernel's stages): each keeps its own state
 * over the run's turns and answers at the points of the loop it cares about. The loop asks every
 * rule in order (see `turn-rules.ts`); the first that answers decides.
 */
export interface TurnRule {
  readonly name: string;
  /** A turn without tool calls: a prompt to continue the reply with, or `null` to let the run end. */
  afterTextTurn?(turn: TurnView): string | null;
  /** A turn with tool calls, before any runs: a refusal of the whole round, or `null`. */
  beforeToolRound?(turn: TurnView): RoundRefusal | null;
  /** One call of an admitted round: why it is refused (answered, not executed), or `undefined`. */
  refuseCall?(call: TurnCall): string | undefined;
  /** The results of a round: the error that stops the run, or `null`. */
  afterToolRound?(results: readonly ToolResult[]): CodeError | null;
}

/** The limits the turn rules enforce (session options, defaults applied). */
export interface TurnRuleLimits {
  /** Model turns that may request tools before the run stops. */
  readonly maxToolRounds: number;
  /** Consecutive rounds whose tool calls all failed before the run stops. */
  readonly circuitBreakerThreshold: number;
  /** Identical consecutive calls (same tool, same args) allowed before they are refused. */
  readonly duplicateToolCallThreshold: number;
  /**
   * Consecutive model turns whose tool calls had malformed JSON arguments that are answered with
   * an error for the model to retry; one more stops the run (LLM_ERROR).
   */
  readonly maxParseRetries: number;
  /** Times a reply cut at the output-token limit is continued (`continuationEnabled`); 0 = never. */
  readonly maxContinuationTurns: number;
}
