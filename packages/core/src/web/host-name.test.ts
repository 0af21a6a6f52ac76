import { describe, expect, it } from 'vitest';
import { normalizeHostName, normalizeHostPattern } from './host-name.js';

describe('normalizeHostName: one canonical form for every host comparison', () => {
  it.each([
    ['evil.com.', 'evil.com'],
    ['EVIL.com..', 'evil.com'],
    ['Bücher.DE', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de.', 'xn--bcher-kva.de'],
    ['0x7f.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::FFFF:127.0.0.1', '::ffff:127.0.0.1'],
    ['  docs.rs ', 'docs.rs'],
    ['a b.', 'a b'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeHostName(input)).toBe(expected);
  });

  it('patterns keep their glob labels and normalise the rest', () => {
    expect(normalizeHostPattern('*.Bücher.de.')).toBe('*.xn--bcher-kva.de');
    expect(normalizeHostPattern('EVIL.com.')).toBe('evil.com');
  });
});
