import { describe, expect, it } from 'vitest';
import { requireOnce } from './require-once.js';

describe('requireOnce', () => {
  it('requires nothing until the first call, then once', () => {
    const asked: string[] = [];
    const load = requireOnce((id: string) => {
      asked.push(id);
      return { id };
    }, 'some-package');
    expect(asked).toEqual([]);
    const first = load();
    expect(load()).toBe(first);
    expect(asked).toEqual(['some-package']);
  });

  it('a failed require is not remembered: the next call tries again', () => {
    let attempts = 0;
    const load = requireOnce((id: string) => {
      attempts += 1;
      if (attempts === 1) throw new Error(`cannot find ${id}`);
      return attempts;
    }, 'flaky');
    expect(() => load()).toThrow('cannot find flaky');
    expect(load()).toBe(2);
    expect(load()).toBe(2);
  });
});
