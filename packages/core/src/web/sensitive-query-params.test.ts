import { describe, expect, it } from 'vitest';
import { isSensitiveQueryParam, stripSensitiveQueryParams } from './sensitive-query-params.js';

describe('stripSensitiveQueryParams', () => {
  it.each(['token', 'access_token', 'api_key', 'apiKey', 'X-Amz-Signature', 'X-Amz-Credential', 'sig', 'session_id', 'sessionid', 'client_secret', 'password', 'auth', 'key', 'id_token', 'refresh-token'])('treats %s as sensitive', (name) => {
    expect(isSensitiveQueryParam(name)).toBe(true);
  });

  it.each(['q', 'page', 'query', 'lang', 'monkey', 'keyword', 'version', 'tab', 'author'])('keeps %s', (name) => {
    expect(isSensitiveQueryParam(name)).toBe(false);
  });

  it('removes sensitive parameters and user-info, keeping the rest in order', () => {
    expect(stripSensitiveQueryParams('https://u:p@x.dev/a?b=1&token=t&c=2&API_KEY=k#frag')).toBe('https://x.dev/a?b=1&c=2#frag');
    expect(stripSensitiveQueryParams('https://x.dev/a?token=t')).toBe('https://x.dev/a');
    expect(stripSensitiveQueryParams('not a url')).toBe('not a url');
  });
});
