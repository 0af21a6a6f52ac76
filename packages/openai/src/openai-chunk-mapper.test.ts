import type { LlmStreamEvent } from '@a3s-lab/code-core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { OpenAIChunkMapper, toStopReason, toUsage } from './openai-chunk-mapper.js';

function chunk(delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] } as unknown as ChatCompletionChunk;
}
const usageChunk = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 100, completion_tokens: 9, total_tokens: 109, prompt_tokens_details: { cached_tokens: 60 } } } as unknown as ChatCompletionChunk;

function run(chunks: ChatCompletionChunk[]): { out: LlmStreamEvent[]; mapper: OpenAIChunkMapper } {
  const mapper = new OpenAIChunkMapper();
  return { out: chunks.flatMap((item) => mapper.push(item)), mapper };
}

describe('OpenAIChunkMapper', () => {
  it('maps reasoning, text and tool calls reassembled by index, then usage', () => {
    const { out, mapper } = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning: 'more' }),
      chunk({ content: 'Calling.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
      chunk({}, 'tool_calls'),
      usageChunk,
    ]);
    expect(mapper.completed).toBe(true);
    expect([...out, ...mapper.finish()]).toEqual([
      { type: 'reasoning_delta', text: 'think ' },
      { type: 'reasoning_delta', text: 'more' },
      { type: 'text_delta', text: 'Calling.' },
      { type: 'tool_call_start', id: 'call_a', name: 'read' },
      { type: 'tool_call_start', id: 'call_b', name: 'ls' },
      { type: 'tool_call_delta', id: 'call_b', partialJson: '{}' },
      { type: 'tool_call_delta', id: 'call_a', partialJson: '{"file_path":' },
      { type: 'tool_call_delta', id: 'call_a', partialJson: '"a"}' },
      { type: 'tool_call_end', id: 'call_a', name: 'read', input: { file_path: 'a' } },
      { type: 'tool_call_end', id: 'call_b', name: 'ls', input: {} },
      {
        type: 'message_end',
        stopReason: 'tool_use',
        usage: { inputTokens: 40, outputTokens: 9, cacheReadTokens: 60 },
        content: [
          { type: 'reasoning', text: 'think more' },
          { type: 'text', text: 'Calling.' },
          { type: 'tool_call', id: 'call_a', name: 'read', input: { file_path: 'a' } },
          { type: 'tool_call', id: 'call_b', name: 'ls', input: {} },
        ],
      },
    ]);
  });

  it('handles a whole call in one chunk, missing ids and malformed arguments', () => {
    const { out } = run([chunk({ tool_calls: [{ index: 0, function: { name: 'write', arguments: '{"a": ' } }] }), chunk({}, 'stop')]);
    expect(out).toEqual([
      { type: 'tool_call_start', id: 'call_0', name: 'write' },
      { type: 'tool_call_delta', id: 'call_0', partialJson: '{"a": ' },
      { type: 'tool_call_end', id: 'call_0', name: 'write', input: undefined, invalidInput: '{"a": ' },
    ]);
  });

  it('is not completed without a finish_reason', () => {
    const { mapper } = run([chunk({ content: 'hi' })]);
    expect(mapper.completed).toBe(false);
  });
});

describe('helpers', () => {
  it('maps finish reasons', () => {
    expect(toStopReason('stop', false)).toBe('end_turn');
    expect(toStopReason('stop', true)).toBe('tool_use');
    expect(toStopReason('length', false)).toBe('max_tokens');
    expect(toStopReason('content_filter', false)).toBe('refusal');
    expect(toStopReason(null, false)).toBe('other');
  });
  it('omits cache tokens the server did not report', () => {
    expect(toUsage({ prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 })).toEqual({ inputTokens: 5, outputTokens: 1 });
  });
});
