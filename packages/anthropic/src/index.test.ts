import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@a3s-lab/code-anthropic exports', () => {
  it('pins the public surface', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AnthropicEventMapper',
      'DEFAULT_ANTHROPIC_MAX_TOKENS',
      'DEFAULT_MAX_RETRIES',
      'MAX_HONOURED_RETRY_AFTER_MS',
      'RETRYABLE_STATUSES',
      'RETRY_BASE_DELAY_MS',
      'RETRY_MAX_DELAY_MS',
      'backoffDelayMs',
      'createAnthropicClient',
      'isRetryableStatus',
      'parseRetryAfterMs',
      'toAnthropicRequest',
    ]);
  });
});
