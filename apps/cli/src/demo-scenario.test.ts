import { describe, expect, it } from 'vitest';
import { proposeFix } from './demo-scenario.js';

const asRead = (source: string): string =>
  source
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6, ' ')}\t${line}`)
    .join('\n');

describe('proposeFix', () => {
  it('fixes the slip inside the named function, on the line it read', () => {
    const read = asRead('export function a(xs) {\n  for (let i = 1; i < xs.length; i++) {}\n}\n\nexport function max(xs) {\n  let best = xs[0];\n  for (let j = 0; j <= xs.length; j++) {\n    if (xs[j] > best) best = xs[j];\n  }\n  return best;\n}\n');
    expect(proposeFix(read, 'max')).toEqual({
      line: 7,
      oldLine: '  for (let j = 0; j <= xs.length; j++) {',
      newLine: '  for (let j = 0; j < xs.length; j++) {',
      explain: 'the loop ran one step past the end of the array',
    });
    expect(proposeFix(read, 'a')?.newLine).toBe('  for (let i = 0; i < xs.length; i++) {}');
  });

  it('returns null when the function is missing or has no known slip', () => {
    const read = asRead('export function ok(xs) {\n  return xs.length;\n}\n');
    expect(proposeFix(read, 'ok')).toBeNull();
    expect(proposeFix(read, 'missing')).toBeNull();
  });
});
