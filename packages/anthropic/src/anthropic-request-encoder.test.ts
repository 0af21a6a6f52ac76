import { CodeError } from '@a3s-lab/code-core';
import type { LlmMessage, LlmRequest, ToolDefinition } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import { AnthropicRequestEncoder } from './anthropic-request-encoder.js';
import type { AnthropicRequestSettings } from './to-anthropic-request.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

const plain: AnthropicRequestSettings = { model: 'claude-test', maxTokens: 8192, promptCaching: false };
const cached: AnthropicRequestSettings = { ...plain, promptCaching: true };
const read: ToolDefinition = { name: 'read', description: 'Read a file "quoted" \u2028 é', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };
const bash: ToolDefinition = { name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string', description: 'the\ncommand' } } } };

const mixed: readonly LlmMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mediaType: 'image/png', data: 'iVBO' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'hmm', signature: 'sig' },
      { type: 'reasoning', text: 'unsigned, dropped' },
      { type: 'reasoning', text: '', signature: 'OPAQUE', redacted: true },
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
  // Empty after mapping (dropped), then two user messages in a row: merged, results first.
  { role: 'assistant', content: [{ type: 'text', text: '' }] },
  { role: 'user', content: [{ type: 'text', text: 'second' }] },
  { role: 'user', content: [{ type: 'tool_result', toolCallId: 't3', content: '', isError: false }, { type: 'text', text: 'third' }] },
];

/** What the SDK's `messages.create` sends for the same request: the reference every encoding must equal byte for byte. */
const reference = (request: LlmRequest, settings: AnthropicRequestSettings): string => JSON.stringify(toAnthropicRequest(request, settings));

describe('AnthropicRequestEncoder', () => {
  it('encodes exactly what JSON.stringify gives for toAnthropicRequest, for every setting', () => {
    const requests: LlmRequest[] = [
      { system: 'be brief', messages: mixed, tools: [read, bash], toolChoice: { type: 'tool', name: 'read' }, temperature: 0, maxTokens: 100 },
      { system: '', messages: mixed, tools: [] , toolChoice: { type: 'any' } },
      { system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [read], toolChoice: { type: 'auto' }, temperature: 0.5 },
      // The last block is not cacheable (thinking): no breakpoint on it.
      { system: 'sys', messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'x', signature: 's' }] }], tools: [{ name: 'n', description: 'd', parameters: {} }] },
      { system: 'sys', messages: [], tools: [bash] },
    ];
    const thinkings: AnthropicRequestSettings['thinking'][] = [undefined, { type: 'enabled', budgetTokens: 1024 }, { type: 'adaptive' }, { type: 'disabled' }];
    for (const settings of [plain, cached]) {
      for (const thinking of thinkings) {
        const encoder = new AnthropicRequestEncoder();
        const withThinking = { ...settings, thinking };
        for (const request of requests) {
          // Twice: the second encoding comes from the caches.
          expect(encoder.encode(request, withThinking)).toBe(reference(request, withThinking));
          expect(encoder.encode(request, withThinking)).toBe(reference(request, withThinking));
        }
      }
    }
  });

  it('follows a growing conversation turn by turn: the breakpoint moves to the new last message', () => {
    const encoder = new AnthropicRequestEncoder();
    const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
    for (let turn = 0; turn < 6; turn += 1) {
      for (const settings of [cached, plain]) {
        const request: LlmRequest = { system: `system ${turn % 2}`, messages: [...messages], tools: [read, bash] };
        expect(encoder.encode(request, settings)).toBe(reference(request, settings));
      }
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `turn ${turn}` }, { type: 'tool_call', id: `c${turn}`, name: 'read', input: { file_path: `f${turn}` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', toolCallId: `c${turn}`, content: `content ${turn}\n"quoted"`, isError: turn % 3 === 0 }] });
    }
    // The same definitions in another order, and one left out: the body follows the request.
    const reordered: LlmRequest = { system: 'x', messages, tools: [bash, read] };
    expect(encoder.encode(reordered, cached)).toBe(reference(reordered, cached));
    const fewer: LlmRequest = { system: 'x', messages, tools: [bash] };
    expect(encoder.encode(fewer, cached)).toBe(reference(fewer, cached));
  });

  it('serves interleaved conversations with different system prompts and tool sets (one client shared by sessions)', () => {
    const encoder = new AnthropicRequestEncoder();
    const sessions = [0, 1, 2].map((n) => ({ system: `session ${n}`, tools: n === 2 ? [bash] : [read, bash], messages: [{ role: 'user', content: [{ type: 'text', text: `start ${n}` }] }] as LlmMessage[] }));
    for (let turn = 0; turn < 4; turn += 1) {
      for (const [n, session] of sessions.entries()) {
        // Session 1 changes its prompt on turn 2 (a rebuilt system prompt), the others keep theirs.
        const system = n === 1 && turn >= 2 ? 'session 1, rebuilt' : session.system;
        for (const settings of [cached, plain]) {
          const request: LlmRequest = { system, messages: [...session.messages], tools: session.tools };
          expect(encoder.encode(request, settings)).toBe(reference(request, settings));
        }
        session.messages.push({ role: 'assistant', content: [{ type: 'text', text: `turn ${turn} of ${n}` }] }, { role: 'user', content: [{ type: 'text', text: `next ${turn}` }] });
      }
    }
  });

  it('throws the mapping errors of toAnthropicRequest, and caches nothing for a message that failed', () => {
    const encoder = new AnthropicRequestEncoder();
    const bad: LlmMessage = { role: 'user', content: [{ type: 'image', mediaType: 'image/tiff', data: 'x' }] };
    const misplaced: LlmMessage = { role: 'user', content: [{ type: 'tool_call', id: 't', name: 'read', input: {} }] };
    for (const message of [bad, misplaced]) {
      const request: LlmRequest = { system: '', messages: [message], tools: [] };
      expect(() => toAnthropicRequest(request, plain)).toThrow(CodeError);
      expect(() => encoder.encode(request, plain)).toThrow(CodeError);
      expect(() => encoder.encode(request, plain)).toThrow(/unsupported image media type|tool_call parts belong to assistant messages/);
    }
  });
});
