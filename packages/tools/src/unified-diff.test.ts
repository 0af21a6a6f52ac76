import { describe, expect, it } from 'vitest';
import { diffLines, splitLinesKeepEol } from './line-diff.js';
import { applyHunks, detectEol } from './patch-apply.js';
import { sha256Hex, sha256HexSync } from './sha256.js';
import { createUnifiedDiff } from './unified-diff.js';
import { parseUnifiedDiff } from './unified-diff-parse.js';

/** Deterministic PRNG so failures reproduce. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}

function mutate(lines: string[], random: () => number): string[] {
  const out = [...lines];
  const edits = 1 + Math.floor(random() * 6);
  for (let e = 0; e < edits; e += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const roll = random();
    if (roll < 0.33 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1 + Math.floor(random() * 3));
    else if (roll < 0.66) out.splice(at, 0, ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => `new ${Math.floor(random() * 1000)}\n`));
    else if (out.length > 0) out[Math.min(at, out.length - 1)] = `changed ${Math.floor(random() * 1000)}\n`;
  }
  return out;
}

describe('unified diff create/parse/apply', () => {
  it('round-trips random edits: applying the created diff rebuilds the new text exactly', () => {
    const random = prng(42);
    for (let round = 0; round < 300; round += 1) {
      const base = Array.from({ length: Math.floor(random() * 40) }, (_, i) => `line ${i % 7}\n`);
      const before = base.join('') + (random() < 0.2 ? 'tail without newline' : '');
      const afterLines = mutate(splitLinesKeepEol(before), random);
      let after = afterLines.join('');
      if (random() < 0.1 && after.endsWith('\n')) after = after.slice(0, -1);
      for (const context of [0, 1, 3]) {
        const diff = createUnifiedDiff('f.txt', before, after, { context });
        if (before === after) {
          expect(diff.text).toBe('');
          continue;
        }
        const parsed = parseUnifiedDiff(diff.text);
        expect(applyHunks('f.txt', before, parsed.hunks, parsed.crlf)).toBe(after);
      }
    }
  });

  it('finds a minimal line diff and bounds the cost of a huge one', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 }]);
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`);
    expect(diffLines(a, b, 100)).toEqual([{ aStart: 0, aEnd: 3000, bStart: 0, bEnd: 3000 }]);
  });

  it('detects line-ending styles', () => {
    expect(detectEol('a\nb\n')).toBe('lf');
    expect(detectEol('a\r\nb\r\n')).toBe('crlf');
    expect(detectEol('a\r\nb\n')).toBe('mixed');
    expect(detectEol('a')).toBe('none');
  });
});

describe('sha256', () => {
  it('matches known vectors in both implementations', async () => {
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    expect(sha256HexSync(encode(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexSync(encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const long = encode('a'.repeat(1000) + 'é'.repeat(77));
    expect(await sha256Hex(long)).toBe(sha256HexSync(long));
  });
});
