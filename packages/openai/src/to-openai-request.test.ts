import { CodeError } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { toOpenAIRequest } from './to-openai-request.js';

const settings = { model: 'gpt-test', maxTokensField: 'max_tokens' } as const;

describe('toOpenAIRequest', () => {
  it('puts tool results right after the call and moves tool images to a user message', () => {
    const body = toOpenAIRequest(
      {
        system: '',
        messages: [
          { role: 'assistant', content: [{ type: 'reasoning', text: 'dropped' }, { type: 'tool_call', id: 'c1', name: 'shot', input: undefined }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'thanks' },
              { type: 'tool_result', toolCallId: 'c1', content: 'took it', isError: false, images: [{ mediaType: 'image/png', data: 'AAA' }] },
            ],
          },
        ],
        tools: [],
        toolChoice: { type: 'any' },
        maxTokens: 10,
      },
      settings,
    );
    expect(body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'took it' },
        { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call c1:' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } }] },
        { role: 'user', content: 'thanks' },
      ],
      max_tokens: 10,
    });
  });

  it('maps tool choice and the max tokens field', () => {
    const tools = [{ name: 't', description: 'T', parameters: { type: 'object' } }];
    const base = { system: 's', messages: [], tools };
    expect(toOpenAIRequest({ ...base, toolChoice: { type: 'any' } }, { ...settings, maxTokens: 7, maxTokensField: 'max_completion_tokens' })).toMatchObject({
      tool_choice: 'required',
      max_completion_tokens: 7,
      messages: [{ role: 'system', content: 's' }],
    });
    expect(toOpenAIRequest({ ...base, toolChoice: { type: 'tool', name: 't' } }, settings).tool_choice).toEqual({ type: 'function', function: { name: 't' } });
  });

  it('rejects misplaced parts with a typed error', () => {
    expect(() => toOpenAIRequest({ system: '', tools: [], messages: [{ role: 'assistant', content: [{ type: 'tool_result', toolCallId: 'x', content: '', isError: false }] }] }, settings)).toThrow(CodeError);
  });
});
