import { CodeError } from '@a3s-lab/code-core';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from './agent-config.js';
import { resolveModel } from './resolve-model.js';

const providers: ProviderConfig[] = [
  { name: 'anthropic', kind: 'anthropic', models: [{ id: 'claude-sonnet-4-20250514', toolCall: true }] },
  { name: 'openrouter', kind: 'openai', baseUrl: 'https://openrouter.ai/api/v1', models: [{ id: 'meta-llama/llama-3' }] },
  { name: 'empty', kind: 'openai', baseUrl: 'http://x/v1', models: [] },
];

const failure = (reference: string): CodeError => {
  try {
    resolveModel({ providers }, reference);
  } catch (error) {
    expect(CodeError.hasCode(error, 'CONFIG_ERROR')).toBe(true);
    return error as CodeError;
  }
  throw new Error('expected a CONFIG_ERROR');
};

describe('resolveModel', () => {
  it('finds a declared provider and model', () => {
    const resolved = resolveModel({ providers }, 'anthropic/claude-sonnet-4-20250514');
    expect(resolved).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', providerConfig: providers[0], modelConfig: providers[0]?.models[0] });
  });

  it('splits at the first slash so model ids may contain slashes', () => {
    expect(resolveModel({ providers }, 'openrouter/meta-llama/llama-3').model).toBe('meta-llama/llama-3');
  });

  it('names an unknown provider and lists the configured ones', () => {
    const error = failure('gemini/pro');
    expect(error.message).toBe("unknown provider 'gemini' in model 'gemini/pro'; configured providers: anthropic, openrouter, empty");
    expect(error.details).toEqual({ provider: 'gemini', model: 'pro', knownProviders: ['anthropic', 'openrouter', 'empty'] });
    expect(() => resolveModel({ providers: [] }, 'a/b')).toThrow(/configured providers: \(none\)/);
  });

  it('names an unknown model and lists the declared ones', () => {
    const error = failure('anthropic/claude-2');
    expect(error.message).toBe("unknown model 'claude-2' for provider 'anthropic'; declared models: claude-sonnet-4-20250514");
    expect(error.details).toEqual({ provider: 'anthropic', model: 'claude-2', knownModels: ['claude-sonnet-4-20250514'] });
    expect(failure('empty/x').message).toMatch(/declared models: \(none\)$/);
  });

  it('accepts an undeclared model of a declared provider only when asked', () => {
    expect(resolveModel({ providers }, 'empty/x', { allowUndeclared: true })).toEqual({ provider: 'empty', model: 'x', providerConfig: providers[2], modelConfig: { id: 'x' } });
    expect(() => resolveModel({ providers }, 'nope/x', { allowUndeclared: true })).toThrow(/unknown provider 'nope'/);
  });

  it.each(['no-slash', '/model', 'provider/', ''])('rejects the malformed reference %j', (reference) => {
    const error = failure(reference);
    expect(error.message).toBe(`model '${reference}' must be written as 'provider/model'`);
    expect(error.details).toEqual({ model: reference });
  });
});
