import { describe, expect, it } from 'vitest';
import { compileCommandPattern, wildcardMatch } from './command-pattern.js';

function matches(pattern: string, command: string): boolean {
  return compileCommandPattern(pattern).matches(command.split(' ').filter(Boolean));
}

describe('compileCommandPattern', () => {
  it('matches an exact pattern word for word', () => {
    expect(matches('git status', 'git status')).toBe(true);
    expect(matches('git status', 'git status --short')).toBe(false);
    expect(matches('git status', 'git')).toBe(false);
  });

  it('treats a * glued to the last word as a word-boundary prefix', () => {
    expect(matches('git log*', 'git log')).toBe(true);
    expect(matches('git log*', 'git log --oneline -5')).toBe(true);
    expect(matches('git log*', 'git logout')).toBe(false);
    expect(matches('git log*', 'git log-tree')).toBe(false);
    expect(matches('ls*', 'lsblk')).toBe(false);
    // A trailing * is always the word-boundary form, even after punctuation.
    expect(matches('npm run test:*', 'npm run test: --watch')).toBe(true);
    expect(matches('npm run test:*', 'npm run test:unit')).toBe(false);
  });

  it('treats a trailing " *" as any arguments, or none', () => {
    expect(matches('echo *', 'echo')).toBe(true);
    expect(matches('echo *', 'echo a b c')).toBe(true);
    expect(matches('echo *', 'echoo a')).toBe(false);
  });

  it('treats any other * as matching within one word', () => {
    expect(matches('npm run test:* --ci', 'npm run test:unit --ci')).toBe(true);
    expect(matches('cat *.md', 'cat README.md')).toBe(true);
    expect(matches('cat *.md', 'cat README.md other.md')).toBe(false);
    expect(matches('git * --oneline', 'git log --oneline')).toBe(true);
    expect(matches('git * --oneline', 'git log -5 --oneline')).toBe(false);
  });

  it('matches * alone against any command', () => {
    expect(matches('*', 'anything at all')).toBe(true);
  });

  it('cannot be fooled by a quoted argument that contains a space', () => {
    expect(compileCommandPattern('git log*').matches(['git', 'log --output=/etc/x'])).toBe(false);
    expect(compileCommandPattern('echo *').matches(['echo', 'a b'])).toBe(true);
  });

  it('normalises the whitespace of its source', () => {
    expect(compileCommandPattern('  git   log*  ').source).toBe('git log*');
  });
});

describe('wildcardMatch', () => {
  it('matches * as any run of characters', () => {
    expect(wildcardMatch('a*b*c', 'aXXbYYc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'aXXbYY')).toBe(false);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('a.b', 'aXb')).toBe(false);
  });

  it('stays fast on a hostile argument', () => {
    const text = 'a'.repeat(20_000);
    expect(wildcardMatch('*a*a*a*a*a*b', text)).toBe(false);
  });
});
