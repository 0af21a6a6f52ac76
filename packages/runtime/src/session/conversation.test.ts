import { describe, expect, it } from 'vitest';
import type { LlmMessage } from '@a3s-lab/code-core';
import { Conversation } from './conversation.js';
import { validateMessages } from '@a3s-lab/code-core/kernel';

const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe('Conversation', () => {
  it('rolls back exactly to a checkpoint, whatever was appended or replaced since', () => {
    const c = new Conversation([user('a')]);
    const point = c.checkpoint();
    c.append(user('b'));
    c.replace([user('x'), user('y'), user('z')]);
    const revision = c.revision;
    c.rollback(point);
    expect(c.messages()).toEqual([user('a')]);
    expect(c.revision).toBeGreaterThan(revision);
  });

  it('truncate drops the tail only', () => {
    const c = new Conversation([user('a'), user('b'), user('c')]);
    c.truncate(1);
    expect(c.messages()).toEqual([user('a')]);
    c.truncate(5);
    expect(c.length).toBe(1);
  });

  it('refuses a malformed history naming the first bad entry, and changes nothing', () => {
    const c = new Conversation([user('keep')]);
    for (const [bad, field] of [
      ['nope', 'history'],
      [[{ role: 'system', content: [] }], 'history[0].role'],
      [[user('ok'), { role: 'user', content: 'text' }], 'history[1].content'],
      [[{ role: 'assistant', content: [{ type: 'video' }] }], 'history[0].content[0].type'],
      [[null], 'history[0]'],
    ] as const) {
      expect(() => c.replace(bad as never)).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field }) }));
    }
    expect(c.messages()).toEqual([user('keep')]);
    expect(validateMessages([user('fine')], 'x')).toHaveLength(1);
  });

  it('snapshot is a deep copy', () => {
    const c = new Conversation([user('a')]);
    const copy = c.snapshot();
    copy.push(user('more'));
    const json = JSON.stringify(copy);
    expect(JSON.parse(json)).toHaveLength(2);
    expect(c.messages()[0]).toEqual(user('a'));
  });
});
