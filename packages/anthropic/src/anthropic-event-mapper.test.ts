import type { LlmStreamEvent } from '@a3s-lab/code-core';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import { AnthropicEventMapper, toStopReason } from './anthropic-event-mapper.js';

// Raw events as the API sends them (fields the mapper does not read are cast away).
const raw = (event: unknown): RawMessageStreamEvent => event as RawMessageStreamEvent;

function run(events: unknown[]): { out: LlmStreamEvent[]; mapper: AnthropicEventMapper } {
  const mapper = new AnthropicEventMapper();
  const out = events.flatMap((event) => mapper.push(raw(event)));
  return { out, mapper };
}

const start = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 } } };

describe('AnthropicEventMapper', () => {
  it('maps thinking, text and a tool call with partial JSON, then message_end', () => {
    const { out, mapper } = run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Reading.' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"file_' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'path":"a.ts"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } },
      { type: 'message_stop' },
    ]);
    expect(mapper.completed).toBe(true);
    expect(out).toEqual([
      { type: 'reasoning_delta', text: 'Let me ' },
      { type: 'reasoning_delta', text: 'think.' },
      { type: 'text_delta', text: 'Reading.' },
      { type: 'tool_call_start', id: 'toolu_1', name: 'read' },
      { type: 'tool_call_delta', id: 'toolu_1', partialJson: '{"file_' },
      { type: 'tool_call_delta', id: 'toolu_1', partialJson: 'path":"a.ts"}' },
      { type: 'tool_call_end', id: 'toolu_1', name: 'read', input: { file_path: 'a.ts' } },
      {
        type: 'message_end',
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 42, cacheReadTokens: 7, cacheWriteTokens: 3 },
        content: [
          { type: 'reasoning', text: 'Let me think.', signature: 'sig-1' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_call', id: 'toolu_1', name: 'read', input: { file_path: 'a.ts' } },
        ],
      },
    ]);
  });

  it('reports malformed tool input as invalidInput without throwing', () => {
    const { out } = run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'write', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"file_path": "a' } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(out.at(-1)).toEqual({ type: 'tool_call_end', id: 't', name: 'write', input: undefined, invalidInput: '{"file_path": "a' });
  });

  it('keeps redacted thinking as an opaque signed reasoning part', () => {
    const { out } = run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'opaque==' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
      { type: 'message_stop' },
    ]);
    expect(out).toEqual([
      { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 7, cacheWriteTokens: 3 }, content: [{ type: 'reasoning', text: '', signature: 'opaque==', redacted: true }] },
    ]);
  });

  it('is not completed until message_stop', () => {
    const { mapper, out } = run([start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'hi' } }]);
    expect(out).toEqual([{ type: 'text_delta', text: 'hi' }]);
    expect(mapper.completed).toBe(false);
  });
});

describe('toStopReason', () => {
  it('maps Anthropic stop reasons', () => {
    expect(toStopReason('end_turn')).toBe('end_turn');
    expect(toStopReason('refusal')).toBe('refusal');
    expect(toStopReason('model_context_window_exceeded')).toBe('max_tokens');
    expect(toStopReason('pause_turn')).toBe('other');
    expect(toStopReason(null)).toBe('other');
  });
});
