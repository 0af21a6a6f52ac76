import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@a3s-lab/code-anthropic exports', () => {
  it('pins the public surface', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AnthropicEventMapper',
      'DEFAULT_ANTHROPIC_MAX_TOKENS',
      'createAnthropicClient',
      'toAnthropicRequest',
    ]);
  });
});
