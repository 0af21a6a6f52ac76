import type { ScriptedError, ScriptedResponse, ScriptedToolCall } from './scripted-response.js';

/** Extra fields for the helpers: anything of {@link ScriptedResponse} (usage, faults, reasoning...). */
export type ScriptedResponseOptions = Omit<ScriptedResponse, 'text' | 'toolCalls' | 'error'>;

/** A plain text answer; an array streams one delta per element. Stops with `end_turn`. */
export function textResponse(text: string | readonly string[], options: ScriptedResponseOptions = {}): ScriptedResponse {
  return { ...options, text };
}

/** A text answer preceded by reasoning (Anthropic thinking block, OpenAI `reasoning_content`). */
export function reasoningResponse(reasoning: string | readonly string[], text: string | readonly string[], options: ScriptedResponseOptions = {}): ScriptedResponse {
  return { ...options, reasoning, text };
}

/** Options of {@link toolCallResponse}. */
export interface ToolCallResponseOptions extends ScriptedResponseOptions {
  /** Call id. Default: deterministic per server (`toolu_scripted_<turn>_0` / `call_scripted_<turn>_0`). */
  readonly id?: string;
  /** Text streamed before the call. Default: none. */
  readonly text?: string | readonly string[];
}

/** One tool call (stops with `tool_use`). */
export function toolCallResponse(name: string, input: unknown, options: ToolCallResponseOptions = {}): ScriptedResponse {
  const { id, ...rest } = options;
  const call: ScriptedToolCall = id === undefined ? { name, input } : { id, name, input };
  return { ...rest, toolCalls: [call] };
}

/** Several tool calls in one response (parallel tool use). */
export function toolCallsResponse(calls: readonly ScriptedToolCall[], options: ScriptedResponseOptions & { readonly text?: string | readonly string[] } = {}): ScriptedResponse {
  return { ...options, toolCalls: calls };
}

/** A tool call whose argument text is `rawInput` verbatim, e.g. malformed JSON. */
export function malformedToolCallResponse(name: string, rawInput: string, options: ToolCallResponseOptions = {}): ScriptedResponse {
  const { id, ...rest } = options;
  const call: ScriptedToolCall = id === undefined ? { name, rawInput } : { id, name, rawInput };
  return { ...rest, toolCalls: [call] };
}

/**
 * An HTTP error. `status` 429 gives a rate limit, 529 Anthropic's overloaded error, 500 a server
 * error, 400/401 client errors; `retryAfterMs` adds `retry-after-ms` / `retry-after` headers.
 */
export function errorResponse(status: number, options: Omit<ScriptedError, 'status'> & { readonly latencyMs?: number } = {}): ScriptedResponse {
  const { latencyMs, ...error } = options;
  return { ...(latencyMs === undefined ? {} : { latencyMs }), error: { ...error, status } };
}

/** A request that is never answered (client timeouts). */
export function hangResponse(): ScriptedResponse {
  return { hang: true };
}
