import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ucs2length } from './ucs2length.js';

describe('ucs2length', () => {
  it('counts code points: pairs once, lone surrogates once, like the helper ajv generates calls to', () => {
    const ajvHelper = (createRequire(import.meta.url)('ajv/dist/runtime/ucs2length') as { default: (text: string) => number }).default;
    const samples = ['', 'abc', 'é', '😀', 'a😀b', '\ud83d', '\ude00', '\ud83d\ud83d\ude00', '\ude00\ud83d', 'x'.repeat(1000) + '😀'];
    for (const sample of samples) expect(ucs2length(sample), JSON.stringify(sample)).toBe(ajvHelper(sample));
    expect(ucs2length('a😀b')).toBe(3);
    expect(ucs2length('\ud83d')).toBe(1);
  });
});
