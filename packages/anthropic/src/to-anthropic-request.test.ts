import { CodeError } from '@a3s-lab/code-core';
import type { LlmRequest } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from './to-anthropic-request.js';

const settings = { model: 'claude-test', maxTokens: 8192, promptCaching: false };

describe('toAnthropicRequest', () => {
  it('maps every content part and places tool results first', () => {
    const request: LlmRequest = {
      system: 'be brief',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mediaType: 'image/png', data: 'iVBO' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm', signature: 'sig' },
            { type: 'reasoning', text: 'unsigned, dropped' },
            { type: 'text', text: '' },
            { type: 'tool_call', id: 't1', name: 'read', input: { file_path: 'a' } },
            { type: 'tool_call', id: 't2', name: 'read', input: undefined },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'and?' },
            { type: 'tool_result', toolCallId: 't1', content: 'data', isError: false },
            { type: 'tool_result', toolCallId: 't2', content: 'bad', isError: true, images: [{ mediaType: 'image/jpeg', data: '/9j' }] },
          ],
        },
      ],
      tools: [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } }],
      toolChoice: { type: 'tool', name: 'read' },
      temperature: 0,
    };
    expect(toAnthropicRequest(request, { ...settings, thinking: { type: 'enabled', budgetTokens: 1024 } })).toEqual({
      model: 'claude-test',
      max_tokens: 8192,
      stream: true,
      system: [{ type: 'text', text: 'be brief' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'tool_use', id: 't1', name: 'read', input: { file_path: 'a' } },
            { type: 'tool_use', id: 't2', name: 'read', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'data' },
            {
              type: 'tool_result',
              tool_use_id: 't2',
              is_error: true,
              content: [
                { type: 'text', text: 'bad' },
                { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j' } },
              ],
            },
            { type: 'text', text: 'and?' },
          ],
        },
      ],
      tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
      tool_choice: { type: 'tool', name: 'read' },
      temperature: 0,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('adds cache breakpoints on the last tool, the system prompt and the last message', () => {
    const body = toAnthropicRequest(
      {
        system: 'sys',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }],
        tools: [
          { name: 'a', description: 'A', parameters: { type: 'object' } },
          { name: 'b', description: 'B', parameters: { type: 'object' } },
        ],
      },
      { ...settings, promptCaching: true },
    );
    expect(body.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools?.map((tool) => 'cache_control' in tool)).toEqual([false, true]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } }] }]);
  });

  it('omits empty system, tools and tool choice without tools; request maxTokens wins', () => {
    const body = toAnthropicRequest({ system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], toolChoice: { type: 'any' }, maxTokens: 5 }, settings);
    expect(body).toEqual({ model: 'claude-test', max_tokens: 5, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  });

  it('rejects misplaced parts and unsupported images with a typed error', () => {
    const misplaced = (): unknown => toAnthropicRequest({ system: '', tools: [], messages: [{ role: 'user', content: [{ type: 'tool_call', id: 'x', name: 'y', input: {} }] }] }, settings);
    expect(misplaced).toThrow(CodeError);
    try {
      toAnthropicRequest({ system: '', tools: [], messages: [{ role: 'user', content: [{ type: 'image', mediaType: 'image/tiff', data: 'x' }] }] }, settings);
    } catch (error) {
      expect(CodeError.hasCode(error, 'LLM_ERROR')).toBe(true);
      expect((error as CodeError).details).toMatchObject({ retryable: false, reason: 'invalid_request', mediaType: 'image/tiff' });
      return;
    }
    throw new Error('expected a failure');
  });

  it('merges consecutive messages of one role (a run that failed after a tool round, an emptied message) so roles alternate', () => {
    const body = toAnthropicRequest(
      {
        system: '',
        tools: [],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'list' }] },
          { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'ls', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', toolCallId: 't1', content: 'a.txt', isError: false }] },
          // The next prompt after the failed run.
          { role: 'user', content: [{ type: 'text', text: 'try again' }] },
          // An assistant message left without sendable content (unsigned reasoning only) is dropped...
          { role: 'assistant', content: [{ type: 'reasoning', text: 'unsigned' }] },
          // ...which must not leave two user turns in a row either.
          { role: 'user', content: [{ type: 'text', text: 'hello?' }] },
        ],
      },
      settings,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' },
          { type: 'text', text: 'try again' },
          { type: 'text', text: 'hello?' },
        ],
      },
    ]);
  });
});
