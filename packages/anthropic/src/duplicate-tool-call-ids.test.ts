import type { LlmStreamEvent } from '@a3s-lab/code-core';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { describe, expect, it } from 'vitest';
import { AnthropicEventMapper } from './anthropic-event-mapper.js';

const start = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 1, output_tokens: 1 } } };
const tool = (index: number, id: string, json: string): unknown[] => [
  { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'read', input: {} } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } },
  { type: 'content_block_stop', index },
];

describe('two tool_use blocks with the same id in one message', () => {
  it.each([
    ['twice', [tool(0, 'toolu_1', '{"file_path":"a"}'), tool(1, 'toolu_1', '{"file_path":"b"}')]],
    ['three times', [tool(0, 'toolu_1', '{"file_path":"a"}'), tool(1, 'toolu_1', '{"file_path":"b"}'), tool(2, 'toolu_1', '{"file_path":"c"}')]],
  ])('%s: every call survives with a distinct id', (_name, blocks) => {
    const mapper = new AnthropicEventMapper();
    const events: LlmStreamEvent[] = [start, ...blocks.flat(), { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 3 } }, { type: 'message_stop' }].flatMap((event) =>
      mapper.push(event as RawMessageStreamEvent),
    );
    const ids = events.flatMap((event) => (event.type === 'tool_call_end' ? [event.id] : []));
    expect(ids).toHaveLength(blocks.length);
    expect(new Set(ids).size).toBe(blocks.length);
    const message = events.find((event) => event.type === 'message_end');
    const contentIds = message?.type === 'message_end' ? message.content.flatMap((part) => (part.type === 'tool_call' ? [part.id] : [])) : [];
    expect(contentIds).toEqual(ids);
  });
});
