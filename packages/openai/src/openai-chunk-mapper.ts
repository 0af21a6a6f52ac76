import type { LlmContentPart, LlmStopReason, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import { parseToolCallInput, ToolCallIdAllocator } from '@a3s-lab/code-core/provider';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

type FinishReason = ChatCompletionChunk.Choice['finish_reason'] | string;

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
  ended: boolean;
  input?: unknown;
}

/** Maps an OpenAI `finish_reason` to ours; tool calls win over a server's plain `stop`. */
export function toStopReason(reason: FinishReason | null | undefined, hasToolCalls: boolean): LlmStopReason {
  if (hasToolCalls && (reason === 'tool_calls' || reason === 'function_call' || reason === 'stop')) return 'tool_use';
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

// Reasoning text of OpenAI-compatible servers: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (vLLM >= 0.10, OpenRouter, Ollama).
function reasoningOf(delta: object): string | undefined {
  const record = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof record.reasoning_content === 'string') return record.reasoning_content;
  if (typeof record.reasoning === 'string') return record.reasoning;
  return undefined;
}

/**
 * Turns the Chat Completions chunks of ONE attempt into {@link LlmStreamEvent}s, reassembling
 * tool calls from their per-index deltas. Stateful: create one per attempt. A response is
 * complete once a `finish_reason` arrived; `message_end` is produced by {@link finish} after the
 * stream ends, because the usage chunk comes last.
 */
export class OpenAIChunkMapper {
  /** Keeps this message's tool-call ids unique (a server may repeat one). */
  private readonly ids = new ToolCallIdAllocator();
  private text = '';
  private reasoning = '';
  private readonly calls = new Map<number, ToolCallState>();
  private finishReason: FinishReason | null = null;
  private usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  private usageReported = false;

  /** True once a choice reported a `finish_reason`. */
  get completed(): boolean {
    return this.finishReason !== null;
  }

  /** The latest usage a chunk reported (cumulative on this wire), or `undefined` when none did yet. */
  reportedUsage(): LlmUsage | undefined {
    return this.usageReported ? { ...this.usage } : undefined;
  }

  /** Maps one chunk; returns the events to emit, in order. */
  push(chunk: ChatCompletionChunk): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = [];
    if (chunk.usage) {
      this.usage = toUsage(chunk.usage);
      this.usageReported = true;
    }
    // One completion is requested (n = 1); other choices would be a server quirk.
    const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0];
    if (choice === undefined || this.completed) return events;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      this.reasoning += reasoning;
      events.push({ type: 'reasoning_delta', text: reasoning });
    }
    const text = (delta.content ?? '') + (delta.refusal ?? '');
    if (text !== '') {
      this.text += text;
      events.push({ type: 'text_delta', text });
    }
    for (const call of delta.tool_calls ?? []) events.push(...this.toolDelta(call));
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      events.push(...this.endCalls());
    }
    return events;
  }

  /** The closing `message_end` (ends any open tool call first); call when the stream ended. */
  finish(): LlmStreamEvent[] {
    const events = this.endCalls();
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    const content: LlmContentPart[] = [
      ...(this.reasoning === '' ? [] : [{ type: 'reasoning' as const, text: this.reasoning }]),
      ...(this.text === '' ? [] : [{ type: 'text' as const, text: this.text }]),
      ...calls.map((call): LlmContentPart => ({ type: 'tool_call', id: call.id, name: call.name, input: call.input })),
    ];
    events.push({ type: 'message_end', stopReason: toStopReason(this.finishReason, calls.length > 0), usage: this.usage, content });
    return events;
  }

  private toolDelta(delta: ChatCompletionChunk.Choice.Delta.ToolCall): LlmStreamEvent[] {
    const index = delta.index ?? this.calls.size;
    let call = this.calls.get(index);
    if (call === undefined) {
      // Some servers omit ids; a stable synthetic id keeps calls and results paired.
      call = { id: delta.id ?? `call_${index}`, name: '', arguments: '', started: false, ended: false };
      this.calls.set(index, call);
    }
    if (delta.id && !call.started) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    const piece = delta.function?.arguments ?? '';
    call.arguments += piece;
    const events: LlmStreamEvent[] = [];
    // Start once the name is known; arguments that arrived before it are flushed with the start.
    if (!call.started && call.name !== '') {
      call.started = true;
      call.id = this.ids.unique(call.id);
      events.push({ type: 'tool_call_start', id: call.id, name: call.name });
      if (call.arguments !== '') events.push({ type: 'tool_call_delta', id: call.id, partialJson: call.arguments });
    } else if (call.started && piece !== '') {
      events.push({ type: 'tool_call_delta', id: call.id, partialJson: piece });
    }
    return events;
  }

  private endCalls(): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = [];
    for (const [, call] of [...this.calls.entries()].sort(([a], [b]) => a - b)) {
      if (call.ended) continue;
      call.ended = true;
      if (!call.started) {
        call.started = true;
        call.id = this.ids.unique(call.id);
        events.push({ type: 'tool_call_start', id: call.id, name: call.name });
        if (call.arguments !== '') events.push({ type: 'tool_call_delta', id: call.id, partialJson: call.arguments });
      }
      const parsed = parseToolCallInput(call.arguments);
      call.input = parsed.input;
      events.push(
        parsed.invalidInput === undefined
          ? { type: 'tool_call_end', id: call.id, name: call.name, input: parsed.input }
          : { type: 'tool_call_end', id: call.id, name: call.name, input: undefined, invalidInput: parsed.invalidInput },
      );
    }
    return events;
  }
}

/**
 * Usage with Anthropic semantics (core's convention): `inputTokens` excludes cached tokens, so
 * `prompt_tokens` (which includes them) is split into uncached input and `cacheReadTokens`.
 */
export function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): LlmUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    outputTokens: usage.completion_tokens ?? 0,
    ...(usage.prompt_tokens_details?.cached_tokens === undefined || usage.prompt_tokens_details.cached_tokens === null ? {} : { cacheReadTokens: cached }),
  };
}
