import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@a3s-lab/code-openai exports', () => {
  it('pins the public surface', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_MAX_RETRIES',
      'MAX_HONOURED_RETRY_AFTER_MS',
      'OpenAIChunkMapper',
      'RETRYABLE_STATUSES',
      'RETRY_BASE_DELAY_MS',
      'RETRY_MAX_DELAY_MS',
      'backoffDelayMs',
      'createOpenAIClient',
      'isRetryableStatus',
      'parseRetryAfterMs',
      'toOpenAIRequest',
    ]);
  });
});
