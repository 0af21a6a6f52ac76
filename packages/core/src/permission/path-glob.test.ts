import { describe, expect, it } from 'vitest';
import { compilePathGlob, normalizeWorkspacePath } from './path-glob.js';

function matches(glob: string, path: string): boolean {
  return compilePathGlob(glob).matches(path);
}

describe('compilePathGlob', () => {
  it('matches **/.env* at the root and in any directory, and nothing else', () => {
    expect(matches('**/.env*', '.env')).toBe(true);
    expect(matches('**/.env*', 'config/.env.local')).toBe(true);
    expect(matches('**/.env*', 'a/b/c/.env.production')).toBe(true);
    expect(matches('**/.env*', 'src/env.ts')).toBe(false);
    expect(matches('**/.env*', 'src/.environment/x.ts')).toBe(false);
  });

  it('keeps * and ? inside one segment', () => {
    expect(matches('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
  });

  it('matches ** across segments, including the directory itself', () => {
    expect(matches('src/**', 'src/a/b/c.ts')).toBe(true);
    expect(matches('src/**', 'src')).toBe(true);
    expect(matches('src/**', 'srcs/a.ts')).toBe(false);
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/a/b/c.ts')).toBe(true);
    expect(matches('**', 'anything/at/all')).toBe(true);
  });

  it('matches dotfiles with * and **', () => {
    expect(matches('*', '.gitignore')).toBe(true);
    expect(matches('**/*.json', '.a3s/hooks/x.json')).toBe(true);
  });

  it('matches names containing a newline wherever a wildcard may match', () => {
    expect(matches('secrets/**', 'secrets/a\nb')).toBe(true);
    expect(matches('**', 'a\nb/c')).toBe(true);
    expect(matches('**/*.key', 'a\n/b.key')).toBe(true);
    expect(matches('src/*.ts', 'src/a\nb.ts')).toBe(true);
  });

  it('expands {a,b} alternatives, nested ones too', () => {
    expect(matches('*.{ts,tsx}', 'a.tsx')).toBe(true);
    expect(matches('*.{ts,tsx}', 'a.js')).toBe(false);
    expect(matches('{src,test/{unit,e2e}}/**', 'test/e2e/a.ts')).toBe(true);
    expect(matches('{src,test/{unit,e2e}}/**', 'test/other/a.ts')).toBe(false);
  });

  it('treats braces without a comma, brackets and regex characters literally', () => {
    expect(matches('{a}.txt', '{a}.txt')).toBe(true);
    expect(matches('[ab].txt', '[ab].txt')).toBe(true);
    expect(matches('[ab].txt', 'a.txt')).toBe(false);
    expect(matches('a+b(c).txt', 'a+b(c).txt')).toBe(true);
    expect(matches('a\\*b', 'a*b')).toBe(true);
    expect(matches('a\\*b', 'axb')).toBe(false);
  });

  it('is case-sensitive unless asked otherwise', () => {
    expect(compilePathGlob('**/.env').matches('.ENV')).toBe(false);
    expect(compilePathGlob('**/.env').matches('.ENV', { caseInsensitive: true })).toBe(true);
  });

  it('matches the normalised path', () => {
    expect(matches('.env', './.env')).toBe(true);
    expect(matches('.env', 'src/../.env')).toBe(true);
    expect(matches('config/.env', 'config//.env')).toBe(true);
  });
});

describe('normalizeWorkspacePath', () => {
  it.each([
    ['./a//b/./c/', 'a/b/c'],
    ['a/../b', 'b'],
    ['../x', '../x'],
    ['', '.'],
    ['.', '.'],
    ['/abs//path', '/abs/path'],
  ])('%j -> %j', (input, output) => {
    expect(normalizeWorkspacePath(input)).toBe(output);
  });
});
