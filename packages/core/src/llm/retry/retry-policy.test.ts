import { describe, expect, it } from 'vitest';
import { RETRY_MAX_DELAY_MS, backoffDelayMs, isRetryableStatus, parseRetryAfterMs } from './retry-policy.js';

describe('isRetryableStatus', () => {
  it('retries transient statuses only', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504, 529]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  it('doubles per attempt with equal jitter and a cap', () => {
    expect(backoffDelayMs(1, 0)).toBe(250);
    expect(backoffDelayMs(1, 0.999999)).toBe(500);
    expect(backoffDelayMs(2, 0)).toBe(500);
    expect(backoffDelayMs(3, 1)).toBe(2000);
    expect(backoffDelayMs(30, 1)).toBe(RETRY_MAX_DELAY_MS);
    expect(backoffDelayMs(30, 0)).toBe(RETRY_MAX_DELAY_MS / 2);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('prefers retry-after-ms', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '1234.4', 'retry-after': '9' }), now)).toBe(1234);
  });
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
  });
  it('ignores missing and unparseable values', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '-1' }))).toBeUndefined();
  });
});
