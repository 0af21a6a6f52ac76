import { CodeError, createAgentEvent, toCodeError } from '@a3s-lab/code-core';
import { assertNever } from '@a3s-lab/code-core/util';
import type { AgentEvent, LlmClient, LlmContentPart, LlmMessage, LlmUsage, ToolDefinition, ToolResult } from '@a3s-lab/code-core';
import type { TurnLoopCompaction } from './context-compactor.js';
import type { Conversation } from './conversation.js';
import type { ToolCallRequest, ToolCallRunner } from './tool-call-runner.js';
import { usagePayload } from './usage-payload.js';
import { turnRules } from './turn-rules/turn-rules.js';
import type { TurnRule, TurnRuleLimits } from './turn-rules/turn-rule.js';

/** Limits of one run of the loop: its rules' limits, and the model call's. */
export interface TurnLoopLimits extends TurnRuleLimits {
  /** Deadline of one model call including retries, ms; `undefined` = none. */
  readonly llmApiTimeoutMs: number | undefined;
  /** Response token cap sent to the model. */
  readonly maxOutputTokens: number | undefined;
}

/** What the loop needs from its session. */
export interface TurnLoopContext {
  readonly llm: LlmClient;
  /** The system prompt, or a function read before every model call (it may change mid-run: the plan). */
  readonly system: string | (() => string);
  readonly tools: () => readonly ToolDefinition[];
  /** The conversation; the loop appends the prompt, each model turn and each tool round. */
  readonly conversation: Conversation;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  readonly limits: TurnLoopLimits;
  readonly toolCalls: ToolCallRunner;
  readonly onUsage: (usage: LlmUsage) => void;
  readonly onToolCalls: (count: number) => void;
  readonly onTurn: (turn: number) => void;
  /** Auto-compaction (session option `autoCompact`): runs before each model call and once after a context-overflow failure. Default none. */
  readonly compaction?: TurnLoopCompaction;
}

/** What a finished loop produced. */
export interface TurnLoopOutcome {
  readonly text: string;
  readonly turns: number;
  readonly toolCallsCount: number;
}

interface DraftCall {
  readonly id: string;
  readonly name: string;
  input: unknown;
  invalidInput: string | undefined;
}

/**
 * The agent loop: a model turn, then a tool turn with every requested call, repeated until the
 * model answers without tools. Emits v1 events through `context.emit`. Throws a CodeError when
 * the run cannot finish (model failure, limits, cancellation); the caller records it.
 */
export async function runTurnLoop(context: TurnLoopContext, userMessage: LlmMessage): Promise<TurnLoopOutcome> {
  const { conversation, emit, signal, limits } = context;
  const rules = turnRules(limits);
  conversation.append(userMessage);
  let toolCallsCount = 0;
  let finalText = '';
  let continuedText = '';

  for (let turn = 1; ; turn += 1) {
    throwIfCancelled(signal);
    context.onTurn(turn);
    await context.compaction?.beforeModelCall();
    emit(createAgentEvent('turn_start', { turn, attempt: 1 }));
    const response = await streamCompactingOnOverflow(context, turn);
    context.onUsage(response.usage);
    conversation.append({ role: 'assistant', content: response.content });
    finalText = continuedText + response.text;
    const view = { turn, stopReason: response.stopReason, calls: response.calls };
    const turnEnd = (toolCalls: number): void => emit(createAgentEvent('turn_end', { turn, usage: usagePayload(response.usage), stop_reason: response.stopReason, tool_calls: toolCalls }));

    if (response.calls.length === 0) {
      turnEnd(0);
      const prompt = firstAnswer(rules, (rule) => rule.afterTextTurn?.(view) ?? null);
      if (prompt === null) return { text: finalText, turns: turn, toolCallsCount };
      // Cut at the output limit: ask for the rest; the run's text is the concatenation.
      continuedText = finalText;
      conversation.append({ role: 'user', content: [{ type: 'text', text: prompt }] });
      continue;
    }
    continuedText = '';
    const refusal = firstAnswer(rules, (rule) => rule.beforeToolRound?.(view) ?? null);
    if (refusal !== null) {
      conversation.append({ role: 'user', content: response.calls.map((c) => refusedResult(c.id, refusal.reason)) });
      turnEnd(0);
      throw refusal.error;
    }

    const requests: ToolCallRequest[] = response.calls.map((call) => {
      // Every rule sees every call (their counters run over the whole history); the first refusal wins.
      const refusals = rules.map((rule) => rule.refuseCall?.(call));
      const refused = refusals.find((r) => r !== undefined);
      return {
        id: call.id,
        name: call.name,
        args: call.input,
        ...(call.invalidInput === undefined ? {} : { invalidInput: call.invalidInput }),
        ...(refused === undefined ? {} : { refusal: refused }),
      };
    });
    const settled: (ToolResult | undefined)[] = new Array<ToolResult | undefined>(requests.length);
    let results: ToolResult[];
    try {
      results = await context.toolCalls.runAll(requests, signal, (i, result) => (settled[i] = result));
    } catch (error) {
      // Budget exhausted / session closed mid-round: answer every call truthfully (real results
      // for the calls that ran, "not executed" for the rest) so history stays valid and honest.
      const reason = error instanceof Error ? error.message : String(error);
      const ran = settled.filter((r) => r !== undefined).length;
      toolCallsCount += ran;
      context.onToolCalls(ran);
      conversation.append({ role: 'user', content: requests.map((request, i) => {
        const result = settled[i];
        return result === undefined ? refusedResult(request.id, `not executed: ${reason}`) : toToolResultPart(request, result);
      }) });
      throw error;
    }
    toolCallsCount += results.length;
    context.onToolCalls(results.length);
    conversation.append({ role: 'user', content: results.map((r, i) => toToolResultPart(requests[i] as ToolCallRequest, r)) });
    turnEnd(results.length);
    throwIfCancelled(signal);
    const stop = firstAnswer(rules, (rule) => rule.afterToolRound?.(results) ?? null);
    if (stop !== null) throw stop;
  }
}

/** Asks every rule in order (each updates its own state) and returns the first non-null answer. */
function firstAnswer<T>(rules: readonly TurnRule[], ask: (rule: TurnRule) => T | null): T | null {
  let first: T | null = null;
  for (const rule of rules) {
    const answer = ask(rule);
    if (first === null && answer !== null) first = answer;
  }
  return first;
}

/** A model turn; when the provider says the request overflowed the window, compacts once and retries. */
async function streamCompactingOnOverflow(context: TurnLoopContext, turn: number): Promise<TurnResponse> {
  try {
    return await streamModelTurn(context, turn);
  } catch (error) {
    if (context.compaction === undefined || !CodeError.isInstance(error) || context.signal.aborted || !(await context.compaction.recoverFromError(error))) throw error;
    context.emit(createAgentEvent('turn_start', { turn, attempt: 2, retry: true, reason: 'context_overflow' }));
    return streamModelTurn(context, turn);
  }
}

interface TurnResponse {
  readonly text: string;
  readonly content: LlmContentPart[];
  readonly calls: DraftCall[];
  readonly usage: LlmUsage;
  readonly stopReason: string;
}

async function streamModelTurn(context: TurnLoopContext, turn: number): Promise<TurnResponse> {
  const { emit, signal } = context;
  let text = '';
  let calls = new Map<string, DraftCall>();
  const names = new Map<string, string>();
  try {
    const stream = context.llm.stream(
      {
        system: typeof context.system === 'function' ? context.system() : context.system,
        messages: context.conversation.messages(),
        tools: context.tools(),
        ...(context.limits.maxOutputTokens === undefined ? {} : { maxTokens: context.limits.maxOutputTokens }),
      },
      { abortSignal: signal, ...(context.limits.llmApiTimeoutMs === undefined ? {} : { timeoutMs: context.limits.llmApiTimeoutMs }) },
    );
    for await (const event of stream) {
      switch (event.type) {
        case 'attempt_start':
          if (event.attempt > 1) {
            // Everything streamed by the abandoned attempt was provisional: hosts reset their drafts.
            text = '';
            calls = new Map();
            emit(createAgentEvent('turn_start', { turn, attempt: event.attempt, retry: true, ...(event.retryReason === undefined ? {} : { reason: event.retryReason }) }));
          }
          break;
        case 'text_delta':
          text += event.text;
          emit(createAgentEvent('text_delta', { text: event.text, turn }));
          break;
        case 'reasoning_delta':
          emit(createAgentEvent('reasoning_delta', { text: event.text, turn }));
          break;
        case 'tool_call_start':
          names.set(event.id, event.name);
          break;
        case 'tool_call_delta':
          emit(createAgentEvent('tool_input_delta', { tool_id: event.id, tool_name: names.get(event.id) ?? '', delta: event.partialJson }));
          break;
        case 'tool_call_end':
          calls.set(event.id, { id: event.id, name: event.name, input: event.input, invalidInput: event.invalidInput });
          break;
        case 'message_end':
          return {
            text,
            content: [...event.content],
            calls: [...calls.values()],
            usage: event.usage,
            stopReason: event.stopReason,
          };
        default:
          assertNever(event, 'model stream event');
      }
    }
  } catch (error) {
    if (signal.aborted) throw cancelledError(signal);
    throw toCodeError(error, 'LLM_ERROR');
  }
  if (signal.aborted) throw cancelledError(signal);
  throw new CodeError('LLM_ERROR', 'the model stream ended without a final message', { details: { turn } });
}

function toToolResultPart(request: ToolCallRequest, result: ToolResult): LlmContentPart {
  const images = (result.attachments ?? [])
    .filter((a) => a.mediaType.startsWith('image/'))
    .map((a) => ({ mediaType: a.mediaType, data: toBase64(a.data) }));
  return {
    type: 'tool_result',
    toolCallId: request.id,
    content: result.output,
    isError: result.exitCode !== 0,
    ...(images.length === 0 ? {} : { images }),
  };
}

function refusedResult(id: string, message: string): LlmContentPart {
  return { type: 'tool_result', toolCallId: id, content: message, isError: true };
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelledError(signal);
}

/** The CodeError a cancelled run ends with. */
export function cancelledError(signal: AbortSignal): CodeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : typeof signal.reason === 'string' ? signal.reason : 'cancelled';
  return CodeError.cancelled(`run cancelled: ${reason}`);
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of bytes without Buffer (core stays runtime-neutral). */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += BASE64_ALPHABET[(n >> 18) & 63]! + BASE64_ALPHABET[(n >> 12) & 63]! + BASE64_ALPHABET[(n >> 6) & 63]! + BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += `${BASE64_ALPHABET[(n >> 18) & 63]!}${BASE64_ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += `${BASE64_ALPHABET[(n >> 18) & 63]!}${BASE64_ALPHABET[(n >> 12) & 63]!}${BASE64_ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}
