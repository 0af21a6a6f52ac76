import { describe, expect, it } from 'vitest';
import type { LlmContentPart, LlmMessage } from '@a3s-lab/code-core';
import { COMPACTION_SUMMARY_MARKER, buildCompactedHistory, latestPromptParts, renderTranscript, selectRetainedSuffix, suffixHasPrompt } from './compaction-plan.js';
import { estimateMessagesTokens, estimateRequestTokens, IMAGE_TOKEN_ESTIMATE } from './token-estimate.js';

const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const said = (text: string): LlmMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const calls = (...ids: string[]): LlmMessage => ({ role: 'assistant', content: ids.map((id) => ({ type: 'tool_call' as const, id, name: 'read', input: { file_path: `${id}.ts` } })) });
const results = (...ids: string[]): LlmMessage => ({ role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, toolCallId: id, content: `contents of ${id} `.repeat(40), isError: false })) });

/** Two prompts, each followed by tool rounds (one of them parallel), then answers. */
function longHistory(): LlmMessage[] {
  return [
    user('first task: fix the parser'),
    calls('a1'),
    results('a1'),
    calls('a2', 'a3'),
    results('a2', 'a3'),
    said('parser fixed'),
    user('second task: add tests'),
    calls('b1'),
    results('b1'),
    calls('b2'),
    results('b2'),
    said('tests added'),
    user('third task: update the docs'),
    calls('c1'),
    results('c1'),
  ];
}

/** Every tool_call is answered in the next message and every tool_result answers the previous one. */
function expectPairsIntact(history: readonly LlmMessage[]): void {
  history.forEach((message, i) => {
    const callIds = message.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []));
    const answered = (history[i + 1]?.content ?? []).flatMap((p) => (p.type === 'tool_result' ? [p.toolCallId] : []));
    if (callIds.length > 0) expect(answered.sort()).toEqual(callIds.sort());
    const resultIds = message.content.flatMap((p) => (p.type === 'tool_result' ? [p.toolCallId] : []));
    const previous = i === 0 ? [] : (history[i - 1] as LlmMessage).content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []));
    if (resultIds.length > 0) expect(previous.sort()).toEqual(resultIds.sort());
  });
}

/** Roles strictly alternate, starting with the user. */
function expectAlternation(history: readonly LlmMessage[]): void {
  history.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant'));
}

describe('selectRetainedSuffix', () => {
  it('never separates a tool call from its result, for every budget', () => {
    const history = longHistory();
    const total = estimateMessagesTokens(history);
    const cuts = new Set<number>();
    for (let budget = 0; budget <= total; budget += 7) {
      const cut = selectRetainedSuffix(history, budget);
      expect(cut).not.toBeNull();
      cuts.add(cut as number);
      expect(history[cut as number]?.role).toBe('assistant');
      const compacted = buildCompactedHistory(history, cut as number, 'summary', suffixHasPrompt(history, cut as number));
      expectPairsIntact(compacted);
      expectAlternation(compacted);
    }
    // The budget really moves the cut: several distinct suffixes were chosen.
    expect(cuts.size).toBeGreaterThan(3);
  });

  it('keeps the longest suffix that fits the budget', () => {
    const history = longHistory();
    const fromSeven = estimateMessagesTokens(history.slice(7));
    expect(selectRetainedSuffix(history, fromSeven)).toBe(7);
    expect(selectRetainedSuffix(history, fromSeven - 1)).toBe(9);
  });

  it('falls back to the smallest possible suffix when nothing fits', () => {
    expect(selectRetainedSuffix(longHistory(), 0)).toBe(13);
  });

  it('returns null when the history cannot be cut', () => {
    expect(selectRetainedSuffix([user('only a prompt')], 0)).toBeNull();
    expect(selectRetainedSuffix([], 100)).toBeNull();
  });
});

describe('buildCompactedHistory', () => {
  it('starts with one summary user message and keeps the suffix untouched', () => {
    const history = longHistory();
    const compacted = buildCompactedHistory(history, 7, 'we fixed the parser', true);
    expect(compacted).toHaveLength(1 + history.length - 7);
    expect(compacted[0]).toEqual({ role: 'user', content: [{ type: 'text', text: `${COMPACTION_SUMMARY_MARKER}\nwe fixed the parser` }] });
    expect(compacted.slice(1)).toEqual(history.slice(7));
  });

  it('copies the latest prompt verbatim (text and images) when it falls into the prefix', () => {
    const image: LlmContentPart = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' };
    const history: LlmMessage[] = [{ role: 'user', content: [image, { type: 'text', text: 'fix the screenshot bug' }] }, calls('x1'), results('x1'), calls('x2'), results('x2')];
    const cut = 3;
    expect(suffixHasPrompt(history, cut)).toBe(false);
    const compacted = buildCompactedHistory(history, cut, 'read x1', false);
    const head = compacted[0] as LlmMessage;
    expect(head.content).toContainEqual(image);
    expect(head.content).toContainEqual({ type: 'text', text: 'fix the screenshot bug' });
    expectAlternation(compacted);
    expectPairsIntact(compacted);
  });

  it('rolling compaction carries the prompt forward once, without nesting old summaries', () => {
    const history: LlmMessage[] = [user('the one task'), calls('x1'), results('x1'), calls('x2'), results('x2'), calls('x3'), results('x3')];
    const first = buildCompactedHistory(history, 3, 'summary one', false);
    const grown = [...first, calls('x4'), results('x4')];
    const second = buildCompactedHistory(grown, 3, 'summary two', suffixHasPrompt(grown, 3));
    const head = second[0] as LlmMessage;
    const texts = head.content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    expect(texts.filter((t) => t === 'the one task')).toHaveLength(1);
    expect(texts.some((t) => t.includes('summary one'))).toBe(false);
    expect(texts[0]).toContain('summary two');
    expect(latestPromptParts(grown.slice(0, 3))).toEqual([{ type: 'text', text: 'the one task' }]);
  });
});

describe('renderTranscript', () => {
  it('renders every message kind and stays within the character budget', () => {
    const history = longHistory();
    const full = renderTranscript(history, 1_000_000);
    expect(full).toContain('User: first task: fix the parser');
    expect(full).toContain('Assistant called read({"file_path":"a1.ts"}) [a1]');
    expect(full).toContain('Tool result [b2]: contents of b2');
    const bounded = renderTranscript(history, 2000);
    expect(bounded.length).toBeLessThanOrEqual(2000);
    // The start (the goal) and the end (the latest state) survive the elision.
    expect(bounded).toContain('first task');
    expect(bounded).toContain('[c1]');
    expect(bounded).toContain('characters elided');
  });
});

describe('token estimates', () => {
  it('counts text by characters, images at a fixed cost, and the system and tools too', () => {
    const text = estimateMessagesTokens([user('x'.repeat(400))]);
    const image = estimateMessagesTokens([{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: 'A'.repeat(400_000) }] }]);
    expect(text).toBeGreaterThanOrEqual(100);
    expect(text).toBeLessThan(110);
    expect(image).toBeGreaterThanOrEqual(IMAGE_TOKEN_ESTIMATE);
    expect(image).toBeLessThan(IMAGE_TOKEN_ESTIMATE + 10);
    const bare = estimateRequestTokens({ system: '', tools: [], messages: [] });
    const full = estimateRequestTokens({ system: 's'.repeat(400), tools: [{ name: 'read', description: 'd'.repeat(400), parameters: { type: 'object' } }], messages: [] });
    expect(bare).toBe(0);
    expect(full).toBeGreaterThan(200);
  });
});
