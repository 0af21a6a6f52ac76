import { describe, expect, it } from 'vitest';
import * as web from './index.js';

describe('@a3s-lab/code-web public surface', () => {
  it('exports exactly these runtime values', () => {
    // Adding or removing an export is an API decision: update this list on purpose.
    expect(Object.keys(web).sort()).toEqual([
      'DEFAULT_WEB_MAX_REDIRECTS',
      'DEFAULT_WEB_MAX_RESPONSE_BYTES',
      'DEFAULT_WEB_TIMEOUT_MS',
      'DEFAULT_WEB_USER_AGENT',
      'HostAllowList',
      'blockedAddress',
      'blockedHostName',
      'createSafeHttpClient',
      'systemResolver',
    ]);
  });
});
