import { describe, expect, it } from 'vitest';
import { displayWidth, truncateToWidth } from './display-width.js';

describe('displayWidth / truncateToWidth', () => {
  it('counts East Asian wide characters and emoji as two columns, combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('ＡＢ')).toBe(4);
    expect(displayWidth('🙂')).toBe(2);
    expect(displayWidth('👩‍💻')).toBe(2);
    expect(displayWidth('❤️')).toBe(2);
    expect(displayWidth('é')).toBe(1);
    expect(displayWidth('\u200b')).toBe(0);
  });

  it('cuts at a display column and never splits a character', () => {
    expect(truncateToWidth('日本語のテキスト', 7)).toBe('日本語…');
    expect(displayWidth(truncateToWidth('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
    expect(truncateToWidth('🙂🙂🙂', 4)).toBe('🙂…');
    expect(truncateToWidth('short', 10)).toBe('short');
    // A narrow character after a wide one that no longer fits is not pulled forward.
    expect(truncateToWidth('ab日c日本語', 4)).toBe('ab…');
    expect(truncateToWidth('日本', 4)).toBe('日本');
    // A huge text is cut without reading all of it.
    expect(truncateToWidth('日'.repeat(1_000_000), 10)).toBe(`${'日'.repeat(4)}…`);
  });
});
