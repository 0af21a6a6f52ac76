import type { LlmStreamEvent } from '@a3s-lab/code-core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { OpenAIChunkMapper } from './openai-chunk-mapper.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) as unknown as ChatCompletionChunk;

function ends(chunks: ChatCompletionChunk[]): { ids: string[]; contentIds: string[]; inputs: unknown[] } {
  const mapper = new OpenAIChunkMapper();
  const events: LlmStreamEvent[] = [...chunks.flatMap((item) => mapper.push(item)), ...mapper.finish()];
  const endEvents = events.filter((event): event is Extract<LlmStreamEvent, { type: 'tool_call_end' }> => event.type === 'tool_call_end');
  const message = events.find((event): event is Extract<LlmStreamEvent, { type: 'message_end' }> => event.type === 'message_end');
  const contentIds = (message?.content ?? []).flatMap((part) => (part.type === 'tool_call' ? [part.id] : []));
  return { ids: endEvents.map((event) => event.id), contentIds, inputs: endEvents.map((event) => event.input) };
}

const call = (index: number, id: string | undefined, name: string, args: string) => chunk({ tool_calls: [{ index, ...(id === undefined ? {} : { id }), type: 'function', function: { name, arguments: args } }] });

describe('two tool calls with the same id in one message (OpenAI-compatible servers)', () => {
  it.each([
    ['two calls sharing an id', [call(0, 'call_0', 'read', '{"file_path":"a"}'), call(1, 'call_0', 'read', '{"file_path":"b"}')], 2],
    ['three calls sharing an id', [call(0, 'x', 'ls', '{}'), call(1, 'x', 'ls', '{"path":"src"}'), call(2, 'x', 'ls', '{"path":"lib"}')], 3],
    ['an explicit id equal to a synthetic one', [call(0, undefined, 'ls', '{}'), call(1, 'call_0', 'ls', '{"path":"src"}')], 2],
    ['a suffix collision', [call(0, 'y', 'ls', '{}'), call(1, 'y_dup2', 'ls', '{"path":"a"}'), call(2, 'y', 'ls', '{"path":"b"}')], 3],
  ])('%s: every call survives with a distinct id', (_name, chunks, count) => {
    const { ids, contentIds, inputs } = ends([...chunks, chunk({}, 'tool_calls')]);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect(contentIds).toEqual(ids);
    expect(new Set(inputs.map((input) => JSON.stringify(input))).size).toBe(count);
  });
});
