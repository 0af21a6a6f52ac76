import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes the configured key and well-known key shapes', () => {
    const text = 'bad key my-custom-secret-123 and sk-ant-api03-abcdefghijklmnop, header Bearer abc.def.ghi123';
    const result = redactSecrets(text, ['my-custom-secret-123']);
    expect(result).not.toContain('my-custom-secret-123');
    expect(result).not.toContain('sk-ant-api03-abcdefghijklmnop');
    expect(result).not.toContain('abc.def.ghi123');
    expect(result).toContain(`Bearer ${REDACTED}`);
  });
  it('leaves ordinary text alone and ignores tiny placeholder keys', () => {
    expect(redactSecrets('rate limited, try later', ['x', undefined, null])).toBe('rate limited, try later');
  });
});
