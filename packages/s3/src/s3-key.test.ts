import { describe, expect, it } from 'vitest';

import { confineKey, normalizePrefix } from './s3-key.js';

describe('confineKey', () => {
  it('maps workspace paths under the prefix and resolves dots lexically', () => {
    expect(confineKey('users/u1', 'a/./b/../c.txt', 's3://b/users/u1')).toEqual({ relative: 'a/c.txt', key: 'users/u1/a/c.txt' });
    expect(confineKey('users/u1', '.', 's3://b/users/u1')).toEqual({ relative: '.', key: 'users/u1' });
    expect(confineKey('', 'x//y', 's3://b/')).toEqual({ relative: 'x/y', key: 'x/y' });
  });

  it('refuses climbing out, absolute paths, NUL, backslashes and lone surrogates with SECURITY_ERROR', () => {
    for (const path of ['..', 'a/../..', '/abs', 'nul\0', 'a\\b', 'bad\uD800']) {
      expect(() => confineKey('p', path, 's3://b/p')).toThrow(expect.objectContaining({ code: 'SECURITY_ERROR' }));
    }
  });

  it('refuses keys over 1024 UTF-8 bytes as an invalid argument', () => {
    expect(() => confineKey('p', 'é'.repeat(512), 's3://b/p')).toThrow(expect.objectContaining({ code: 'TOOL_ERROR' }));
    expect(confineKey('p', 'é'.repeat(511), 's3://b/p').key).toHaveLength(513);
  });
});

describe('normalizePrefix', () => {
  it('drops surrounding slashes and refuses dot, empty and backslash segments', () => {
    expect(normalizePrefix('/users/u1/')).toBe('users/u1');
    expect(normalizePrefix('')).toBe('');
    for (const bad of ['a//b', 'a/./b', '../a', 'a\\b']) expect(() => normalizePrefix(bad)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
  });
});
