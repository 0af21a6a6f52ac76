import { describe, expect, it } from 'vitest';
import { StreamInterruptedError } from './attempt-failure.js';
import { apiErrorFailure, brokenStreamFailure, safeCause } from './classify-failure.js';

const KEY = 'sk-secret-value-123456';

describe('classify-failure', () => {
  it('safeCause keeps a clean error and replaces one whose message carries a secret', () => {
    const clean = new Error('boom');
    expect(safeCause(clean, [KEY])).toBe(clean);
    const leaky = new TypeError(`bad key ${KEY}`);
    const safe = safeCause(leaky, [KEY]) as Error;
    expect(safe).not.toBe(leaky);
    expect(safe.name).toBe('TypeError');
    expect(safe.message).not.toContain(KEY);
  });

  it('apiErrorFailure labels HTTP and in-stream errors alike for every provider, without secrets', () => {
    const http = apiErrorFailure('p', { httpStatus: 429, status: 429, type: 'rate_limit', detail: `slow down ${KEY}`, retryable: true, retryAfterMs: 10, requestId: 'req_1', contextOverflow: false }, [KEY], null);
    expect(http).toMatchObject({ status: 429, retryable: true, retryAfterMs: 10, requestId: 'req_1', reason: 'http_429' });
    expect(http.message).toBe('p request failed: HTTP 429 rate_limit: slow down [REDACTED]');
    expect('contextOverflow' in http).toBe(false);
    const inStream = apiErrorFailure('p', { httpStatus: undefined, status: 529, type: undefined, detail: 'x', retryable: true, retryAfterMs: undefined, requestId: undefined, contextOverflow: true }, [], null);
    expect(inStream).toMatchObject({ status: 529, reason: 'stream_error:unknown', contextOverflow: true, message: 'p request failed: stream error unknown: x' });
  });

  it('brokenStreamFailure: an interrupted stream and any body error are retryable stream_interrupted', () => {
    expect(brokenStreamFailure('p', new StreamInterruptedError('cut'), [], null)).toMatchObject({ retryable: true, reason: 'stream_interrupted', message: 'p stream interrupted: cut' });
    expect(brokenStreamFailure('p', new Error('terminated'), [], null)).toMatchObject({ retryable: true, message: 'p stream failed: Error: terminated' });
  });
});
