import { describe, expect, it } from 'vitest';
import { globToRegExp } from './glob-to-regexp.js';
import type { GlobOptions } from './glob-to-regexp.js';

function matches(glob: string, subject: string, options?: GlobOptions): boolean {
  return globToRegExp(glob, options).test(subject);
}

describe('globToRegExp: path mode (default)', () => {
  it('keeps * and ? inside one segment', () => {
    expect(matches('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(matches('?.ts', 'a.ts')).toBe(true);
    expect(matches('?.ts', '/.ts')).toBe(false);
  });

  it('lets **/ match zero or more directories and a bare ** anything', () => {
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('**/*.ts', 'a/b/c.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**', 'src/a/b')).toBe(true);
    expect(matches('src/**', 'src')).toBe(false);
    expect(matches('a**b', 'a/x/b')).toBe(true);
  });

  it('matches dotfiles like any other name', () => {
    expect(matches('*', '.env')).toBe(true);
    expect(matches('**/*.json', '.a3s/hooks/x.json')).toBe(true);
  });

  it('matches a newline wherever the wildcard may match', () => {
    expect(matches('**', 'a\nb/c')).toBe(true);
    expect(matches('*.txt', 'a\nb.txt')).toBe(true);
    expect(matches('?', '\n')).toBe(true);
  });

  it('reads character classes, negated ones and a leading ] as a member', () => {
    expect(matches('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(matches('file[0-9].txt', 'filex.txt')).toBe(false);
    expect(matches('[!a]', 'b')).toBe(true);
    expect(matches('[^a]', 'a')).toBe(false);
    expect(matches('[]a]', ']')).toBe(true);
    expect(matches('[a^\\[]', '^')).toBe(true);
    expect(matches('[a^\\[]', '\\')).toBe(true);
    expect(matches('[ab', '[ab')).toBe(true);
    // An empty negated class is no class: `[!]` is literal text, not "any character".
    expect(matches('[!]', '[!]')).toBe(true);
    expect(matches('[!]', 'x')).toBe(false);
  });

  it('reads braces as groups: alternatives, nesting, a lone alternative, an unclosed group', () => {
    expect(matches('*.{ts,js}', 'a.js')).toBe(true);
    expect(matches('*.{ts,js}', 'a/b.js')).toBe(false);
    expect(matches('{src,test/{unit,e2e}}/*', 'test/e2e/a')).toBe(true);
    expect(matches('{a}.txt', 'a.txt')).toBe(true);
    expect(matches('x{a,b', 'xb')).toBe(true);
    expect(matches('a,b}', 'a,b}')).toBe(true);
  });

  it('treats regex characters and backslashes literally unless escapes are on', () => {
    expect(matches('a+b(c)|$.txt', 'a+b(c)|$.txt')).toBe(true);
    expect(matches('a\\*b', 'a\\xb')).toBe(true);
    expect(matches('a\\*b', 'a*b', { escapes: true })).toBe(true);
    expect(matches('a\\*b', 'axb', { escapes: true })).toBe(false);
  });
});

describe('globToRegExp: flat mode (tool names, commands)', () => {
  const flat: GlobOptions = { pathMode: false };

  it('lets * and ? span slashes and spaces', () => {
    expect(matches('mcp__*', 'mcp__github__issue', flat)).toBe(true);
    expect(matches('git push *', 'git push origin main/x', flat)).toBe(true);
    expect(matches('rm ?x', 'rm /x', flat)).toBe(true);
    expect(matches('mcp__*', 'xmcp__a', flat)).toBe(false);
  });

  it('matches case-insensitively on request', () => {
    expect(matches('Bash*', 'bash', flat)).toBe(false);
    expect(matches('Bash*', 'bash', { ...flat, caseInsensitive: true })).toBe(true);
  });
});

describe('globToRegExp: segment globstar with strict braces (permission specifiers)', () => {
  const rule: GlobOptions = { globstar: 'segment', classes: false, escapes: true, braces: 'strict' };

  it('spans segments only with a whole-segment **, and a trailing /** matches the directory too', () => {
    expect(matches('src/**', 'src', rule)).toBe(true);
    expect(matches('src/**', 'src/a/b', rule)).toBe(true);
    expect(matches('src/**', 'srcs/a', rule)).toBe(false);
    expect(matches('**/.env*', '.env', rule)).toBe(true);
    expect(matches('a**', 'ab', rule)).toBe(true);
    expect(matches('a**', 'a/b', rule)).toBe(false);
    expect(matches('{src,lib/**}', 'lib', rule)).toBe(true);
  });

  it('keeps [ literal and braces without a comma or a close literal', () => {
    expect(matches('[ab].txt', '[ab].txt', rule)).toBe(true);
    expect(matches('[ab].txt', 'a.txt', rule)).toBe(false);
    expect(matches('{a}.txt', '{a}.txt', rule)).toBe(true);
    expect(matches('x{a,b', 'x{a,b', rule)).toBe(true);
    expect(matches('x{a,b', 'xb', rule)).toBe(false);
    expect(matches('{a,{b,c}}', 'c', rule)).toBe(true);
  });
});
