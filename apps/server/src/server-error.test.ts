import { describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code';

import { toErrorResponse } from './server-error.js';

describe('toErrorResponse', () => {
  it('a sandbox the host cannot start is 503 SANDBOX_UNAVAILABLE, not a client error', () => {
    const response = toErrorResponse(new CodeError('SANDBOX_UNAVAILABLE', 'the sandbox is required but cannot start: bubblewrap not found'));
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SANDBOX_UNAVAILABLE');
  });
});
