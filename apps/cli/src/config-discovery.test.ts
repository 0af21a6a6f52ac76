import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code';
import { configFromEnvironment, hasModelKey } from './config-discovery.js';

describe('configFromEnvironment', () => {
  it('builds an Anthropic config from ANTHROPIC_API_KEY without copying the key into the text', () => {
    const source = configFromEnvironment({ ANTHROPIC_API_KEY: 'sk-ant-secret' });
    expect(source).toMatchObject({ kind: 'env', model: 'anthropic/claude-sonnet-4-20250514', description: 'ANTHROPIC_API_KEY' });
    expect(source?.kind === 'env' ? source.acl : '').toContain('env("ANTHROPIC_API_KEY")');
    expect(JSON.stringify(source)).not.toContain('sk-ant-secret');
  });

  it('uses an OpenAI-compatible server only with both key and base URL', () => {
    expect(configFromEnvironment({ OPENAI_API_KEY: 'k' })).toBeNull();
    expect(configFromEnvironment({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'qwen2.5-coder' })).toMatchObject({ model: 'openai/qwen2.5-coder' });
    expect(hasModelKey({ OPENAI_API_KEY: 'k' })).toBe(false);
    expect(hasModelKey({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'u' })).toBe(true);
  });

  it('follows --model between providers and refuses ids that could break the ACL', () => {
    const both = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'u' };
    expect(configFromEnvironment(both)).toMatchObject({ model: 'anthropic/claude-sonnet-4-20250514' });
    expect(configFromEnvironment(both, 'openai/gpt-4.1')).toMatchObject({ model: 'openai/gpt-4.1' });
    expect(configFromEnvironment(both, 'anthropic/claude-opus-4-20250514')).toMatchObject({ model: 'anthropic/claude-opus-4-20250514' });
    expect(() => configFromEnvironment(both, 'anthropic/x" }\nproviders "evil')).toThrow(CodeError);
  });

  it('returns null without keys', () => {
    expect(configFromEnvironment({})).toBeNull();
    expect(configFromEnvironment({ ANTHROPIC_API_KEY: '' })).toBeNull();
  });
});
