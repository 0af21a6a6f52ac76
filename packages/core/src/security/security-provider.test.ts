import { describe, expect, it } from 'vitest';
import { DefaultSecurityProvider, NO_REDACTION } from './security-provider.js';

const provider = new DefaultSecurityProvider({ secretValues: ['hunter2-super-secret', 'abc'] });

describe('DefaultSecurityProvider', () => {
  it.each([
    ['anthropic key', 'key is sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA-bbbb done', 'sk-ant-api03'],
    ['openai key', 'OPENAI sk-proj-abcdefghijklmnopqrstuvwxyz123456', 'sk-proj-abcdef'],
    ['aws key id', 'id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
    ['github token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB', 'ghp_abcdef'],
    ['github pat', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_11'],
    ['slack token', 'xoxb-1234567890-abcdefghij', 'xoxb-1234567890'],
    ['google key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'AIzaSyA12345'],
    ['bearer', 'curl -H "x: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig"', 'eyJhbGciOiJIUzI1NiJ9'],
    ['authorization header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
    ['stripe key', 'STRIPE=sk_live_0123456789abcdef0123', 'sk_live_0123456789'],
    ['jwt', 'cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'dozjgNryP4J3'],
    ['literal secret', 'password is hunter2-super-secret!', 'hunter2-super-secret'],
  ])('redacts %s', (_name, text, secret) => {
    const out = provider.redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it('redacts PEM private key blocks, even unterminated ones', () => {
    const pem = 'before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter';
    expect(provider.redact(pem)).toBe('before\n[REDACTED]\nafter');
    expect(provider.redact('x -----BEGIN PRIVATE KEY-----\nMIIEvQ')).toBe('x [REDACTED]');
  });

  it('leaves ordinary text alone and ignores too-short literal values', () => {
    const text = 'const abc = 1; // nothing secret, max_tokens: 1000';
    expect(provider.redact(text)).toBe(text);
  });

  it('redacts values recursively and keeps untouched references', () => {
    const clean = { a: [1, 'x', { b: 'y' }] };
    expect(provider.redactValue(clean)).toBe(clean);
    const dirty = { list: ['ok', 'AKIAIOSFODNN7EXAMPLE'], nested: { password: 'pw1' }, n: 3 };
    const out = provider.redactValue(dirty) as typeof dirty;
    expect(out).not.toBe(dirty);
    expect(out.list).toEqual(['ok', '[REDACTED]']);
    expect(out.nested.password).toBe('[REDACTED]');
    expect(dirty.list[1]).toBe('AKIAIOSFODNN7EXAMPLE');
  });

  it('survives cycles', () => {
    const cyclic: Record<string, unknown> = { a: 'AKIAIOSFODNN7EXAMPLE' };
    cyclic['self'] = cyclic;
    expect(() => provider.redactValue(cyclic)).not.toThrow();
  });

  it('NO_REDACTION changes nothing', () => {
    expect(NO_REDACTION.redact('AKIAIOSFODNN7EXAMPLE')).toBe('AKIAIOSFODNN7EXAMPLE');
  });
});
