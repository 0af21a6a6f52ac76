import type { LlmContentPart, LlmStopReason, LlmStreamEvent, LlmUsage } from '@a3s-lab/code-core';
import { parseToolCallInput, ToolCallIdAllocator } from '@a3s-lab/code-core/provider';
import type { RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages/messages';

type BlockState =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; signature?: string; redacted: boolean }
  | { kind: 'tool'; id: string; name: string; json: string; input?: unknown; invalidInput?: string }
  // Server-side tools and other blocks we do not model: kept out of the content.
  | { kind: 'ignored' };

/** Maps an Anthropic stop reason to ours. */
export function toStopReason(reason: StopReason | null | undefined): LlmStopReason {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    // The output was cut by the context window: for the caller that is a length stop.
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}

interface MutableUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/**
 * Turns the raw Messages SSE events of ONE attempt into {@link LlmStreamEvent}s. Stateful:
 * create one per attempt. `message_end` is produced on `message_stop`; {@link completed} tells
 * whether the stream got that far.
 */
export class AnthropicEventMapper {
  /** Keeps this message's tool-call ids unique (a replayed or repeated block id). */
  private readonly ids = new ToolCallIdAllocator();
  private readonly blocks = new Map<number, BlockState>();
  private readonly usage: MutableUsage = { inputTokens: 0, outputTokens: 0 };
  private stopReason: StopReason | null = null;
  private done = false;

  /** True once `message_stop` arrived and `message_end` was produced. */
  get completed(): boolean {
    return this.done;
  }

  /** Maps one raw event; returns the events to emit, in order. */
  push(event: RawMessageStreamEvent): LlmStreamEvent[] {
    if (this.done) return [];
    switch (event.type) {
      case 'message_start':
        this.mergeUsage(event.message.usage);
        return [];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.mergeUsage(event.usage);
        return [];
      case 'message_stop':
        this.done = true;
        return [{ type: 'message_end', stopReason: toStopReason(this.stopReason), usage: this.finalUsage(), content: this.content() }];
      default:
        return [];
    }
  }

  private startBlock(index: number, block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block']): LlmStreamEvent[] {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text', text: block.text });
        return block.text === '' ? [] : [{ type: 'text_delta', text: block.text }];
      case 'thinking':
        this.blocks.set(index, { kind: 'reasoning', text: block.thinking, redacted: false, ...(block.signature === '' ? {} : { signature: block.signature }) });
        return block.thinking === '' ? [] : [{ type: 'reasoning_delta', text: block.thinking }];
      case 'redacted_thinking':
        // The opaque payload travels in `signature`: it is what must be sent back, not text.
        this.blocks.set(index, { kind: 'reasoning', text: '', signature: block.data, redacted: true });
        return [];
      case 'tool_use': {
        const id = this.ids.unique(block.id);
        this.blocks.set(index, { kind: 'tool', id, name: block.name, json: '' });
        return [{ type: 'tool_call_start', id, name: block.name }];
      }
      default:
        this.blocks.set(index, { kind: 'ignored' });
        return [];
    }
  }

  private delta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): LlmStreamEvent[] {
    const block = this.blocks.get(index);
    if (block === undefined) return [];
    if (delta.type === 'text_delta' && block.kind === 'text') {
      block.text += delta.text;
      return delta.text === '' ? [] : [{ type: 'text_delta', text: delta.text }];
    }
    if (delta.type === 'thinking_delta' && block.kind === 'reasoning') {
      block.text += delta.thinking;
      return delta.thinking === '' ? [] : [{ type: 'reasoning_delta', text: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && block.kind === 'reasoning') {
      block.signature = (block.signature ?? '') + delta.signature;
      return [];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool') {
      block.json += delta.partial_json;
      return delta.partial_json === '' ? [] : [{ type: 'tool_call_delta', id: block.id, partialJson: delta.partial_json }];
    }
    return [];
  }

  private stopBlock(index: number): LlmStreamEvent[] {
    const block = this.blocks.get(index);
    if (block?.kind !== 'tool' || 'input' in block || block.invalidInput !== undefined) return [];
    const parsed = parseToolCallInput(block.json);
    block.input = parsed.input;
    if (parsed.invalidInput !== undefined) {
      block.invalidInput = parsed.invalidInput;
      return [{ type: 'tool_call_end', id: block.id, name: block.name, input: undefined, invalidInput: parsed.invalidInput }];
    }
    return [{ type: 'tool_call_end', id: block.id, name: block.name, input: parsed.input }];
  }

  /**
   * Usage reported so far (from `message_start`, then `message_delta`): what an attempt that
   * fails now has already been billed. Zero before `message_start`.
   */
  usageSoFar(): LlmUsage {
    return { ...this.usage };
  }

  private mergeUsage(usage: { input_tokens?: number | null; output_tokens?: number | null; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null }): void {
    // `message_delta` usage is cumulative; null means "unchanged since message_start".
    if (typeof usage.input_tokens === 'number') this.usage.inputTokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.usage.outputTokens = usage.output_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') this.usage.cacheReadTokens = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') this.usage.cacheWriteTokens = usage.cache_creation_input_tokens;
  }

  private finalUsage(): LlmUsage {
    return { ...this.usage };
  }

  private content(): LlmContentPart[] {
    const parts: LlmContentPart[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = this.blocks.get(index);
      if (block === undefined) continue;
      if (block.kind === 'text' && block.text !== '') parts.push({ type: 'text', text: block.text });
      if (block.kind === 'reasoning') {
        parts.push({ type: 'reasoning', text: block.text, ...(block.signature === undefined ? {} : { signature: block.signature }), ...(block.redacted ? { redacted: true } : {}) });
      }
      if (block.kind === 'tool') {
        // A block that never got content_block_stop is parsed here so content is always complete.
        const input = 'input' in block || block.invalidInput !== undefined ? block.input : parseToolCallInput(block.json).input;
        parts.push({ type: 'tool_call', id: block.id, name: block.name, input });
      }
    }
    return parts;
  }
}
