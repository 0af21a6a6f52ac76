import type { LlmStopReason } from '@a3s-lab/code-core';
import type { ScriptedResponse } from './scripted-response.js';

/** A tool call with its id and argument text fixed. */
export interface NormalizedToolCall {
  /** Call id (scripted or the deterministic default). */
  readonly id: string;
  /** Tool name. */
  readonly name: string;
  /** Argument text exactly as it will be streamed (possibly malformed JSON). */
  readonly arguments: string;
  /** The argument text split into the chunks to stream; their concatenation is `arguments`. */
  readonly chunks: readonly string[];
}

/** A {@link ScriptedResponse} with every default applied, ready for a protocol renderer. */
export interface NormalizedResponse {
  /** Reasoning deltas, in order (empty: no reasoning block). */
  readonly reasoning: readonly string[];
  /** Signature sent after the reasoning deltas. */
  readonly reasoningSignature: string;
  /** Data of a redacted reasoning block, when scripted. */
  readonly redactedReasoning: string | undefined;
  /** Text deltas, in order (empty: no text block). */
  readonly text: readonly string[];
  /** Tool calls, in order. */
  readonly toolCalls: readonly NormalizedToolCall[];
  /** Neutral stop reason; renderers map it to the protocol's value. */
  readonly stopReason: LlmStopReason;
  /** Usage with every counter present. */
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cacheReadTokens: number;
    readonly cacheWriteTokens: number;
  };
  /** OpenAI streams: usage on every chunk, not only the last. */
  readonly usageInEveryChunk: boolean;
}

/** Facts about the request a response answers, used for defaults. */
export interface NormalizeContext {
  /** Model request index in the scenario; part of default ids. */
  readonly turn: number;
  /** Prefix of default tool call ids (`toolu_scripted` or `call_scripted`). */
  readonly toolIdPrefix: string;
  /** Size of the request body, for the default input token estimate. */
  readonly requestBytes: number;
}

const DEFAULT_TOOL_INPUT_CHUNKS = 3;

/**
 * Splits `text` into at most `count` non-empty pieces of near-equal length whose concatenation
 * is `text`. Splits on code points, so a surrogate pair is never cut in half.
 */
export function splitIntoChunks(text: string, count: number): string[] {
  const codePoints = Array.from(text);
  const pieces = Math.max(1, Math.min(Math.floor(count), codePoints.length));
  if (codePoints.length === 0) return [];
  const size = Math.ceil(codePoints.length / pieces);
  const chunks: string[] = [];
  for (let start = 0; start < codePoints.length; start += size) {
    chunks.push(codePoints.slice(start, start + size).join(''));
  }
  return chunks;
}

function toList(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? (value === '' ? [] : [value]) : value;
}

/** Applies the documented defaults of {@link ScriptedResponse}. */
export function normalizeResponse(response: ScriptedResponse, context: NormalizeContext): NormalizedResponse {
  const chunkCount = response.toolInputChunks ?? DEFAULT_TOOL_INPUT_CHUNKS;
  const toolCalls = (response.toolCalls ?? []).map((call, index): NormalizedToolCall => {
    // `JSON.stringify(undefined)` is undefined: a call without input sends an empty object.
    const args = call.rawInput ?? JSON.stringify(call.input ?? {});
    return {
      id: call.id ?? `${context.toolIdPrefix}_${context.turn}_${index}`,
      name: call.name,
      arguments: args,
      chunks: splitIntoChunks(args, chunkCount),
    };
  });
  const text = toList(response.text);
  const reasoning = toList(response.reasoning);
  const outputChars =
    text.reduce((sum, piece) => sum + piece.length, 0) +
    reasoning.reduce((sum, piece) => sum + piece.length, 0) +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return {
    reasoning,
    reasoningSignature: response.reasoningSignature ?? `sig_scripted_${context.turn}`,
    redactedReasoning: response.redactedReasoning,
    text,
    toolCalls,
    stopReason: response.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
    usage: {
      inputTokens: response.usage?.inputTokens ?? Math.max(1, Math.ceil(context.requestBytes / 4)),
      outputTokens: response.usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / 4)),
      cacheReadTokens: response.usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: response.usage?.cacheWriteTokens ?? 0,
    },
    usageInEveryChunk: response.usageInEveryChunk === true,
  };
}
