import { loadAgentConfig } from '@a3s-lab/code-config';
import { describe, expect, it } from 'vitest';
import { modelContextWindow } from './model-context-window.js';

const config = loadAgentConfig(`
default_model = "anthropic/big"
providers "anthropic" {
  api_key = "sk-ant-test-000000"
  models "big" { limit = { context = 200000  output = 8192 } }
  models "bare" {}
}
`);

describe('modelContextWindow', () => {
  it('is the declared limit.context of the model', () => {
    expect(modelContextWindow(config, 'anthropic/big')).toBe(200_000);
  });

  it('is undefined when the model, its provider or its limit is not declared, or the reference is malformed', () => {
    expect(modelContextWindow(config, 'anthropic/bare')).toBeUndefined();
    expect(modelContextWindow(config, 'anthropic/unknown')).toBeUndefined();
    expect(modelContextWindow(config, 'nobody/big')).toBeUndefined();
    expect(modelContextWindow(config, 'no-slash')).toBeUndefined();
    expect(modelContextWindow(config, 42)).toBeUndefined();
  });
});
