import { describe, expect, it } from 'vitest';
import { normalizeResponse, splitIntoChunks } from './normalize-response.js';

const context = { turn: 7, toolIdPrefix: 'toolu_scripted', requestBytes: 401 };

describe('splitIntoChunks', () => {
  it('splits into near-equal pieces whose concatenation is the input', () => {
    expect(splitIntoChunks('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(splitIntoChunks('ab', 5)).toEqual(['a', 'b']);
    expect(splitIntoChunks('', 3)).toEqual([]);
    expect(splitIntoChunks('abc', 0)).toEqual(['abc']);
  });

  it('never cuts a surrogate pair', () => {
    const text = '😀😀😀😀';
    const chunks = splitIntoChunks(text, 3);
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});

describe('normalizeResponse', () => {
  it('applies the documented defaults', () => {
    const normalized = normalizeResponse({ text: 'abcd', toolCalls: [{ name: 'read', input: { a: 1 } }] }, context);
    expect(normalized.stopReason).toBe('tool_use');
    expect(normalized.toolCalls).toEqual([{ id: 'toolu_scripted_7_0', name: 'read', arguments: '{"a":1}', chunks: ['{"a', '":1', '}'] }]);
    // ceil(401 / 4) input tokens; (4 text + 4 name + 7 args) chars -> ceil(15 / 4) output tokens.
    expect(normalized.usage).toEqual({ inputTokens: 101, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(normalized.reasoningSignature).toBe('sig_scripted_7');
  });

  it('keeps raw input verbatim and explicit fields as given', () => {
    const normalized = normalizeResponse(
      { toolCalls: [{ id: 'x', name: 'w', rawInput: '{"broken' }], stopReason: 'max_tokens', usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3 } },
      context,
    );
    expect(normalized.toolCalls[0]?.arguments).toBe('{"broken');
    expect(normalized.toolCalls[0]?.id).toBe('x');
    expect(normalized.stopReason).toBe('max_tokens');
    expect(normalized.usage).toEqual({ inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 0 });
  });

  it('ends a response without tool calls with end_turn and no content', () => {
    const normalized = normalizeResponse({}, context);
    expect(normalized.stopReason).toBe('end_turn');
    expect(normalized.text).toEqual([]);
    expect(normalized.usage.outputTokens).toBe(1);
  });
});
