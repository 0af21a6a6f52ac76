/**
 * Query parameter names that carry credentials. A name matches when, lower-cased and with `-`
 * and `.` read as `_`, it equals one of these or ends with `_<one of these>` (`api_key`,
 * `x_amz_signature`, `access_token`, `sessionid` is matched by the `session` prefix rule).
 */
export const SENSITIVE_QUERY_PARAMS: readonly string[] = Object.freeze([
  'token',
  'key',
  'secret',
  'session',
  'sessionid',
  'sid',
  'signature',
  'sig',
  'credential',
  'credentials',
  'password',
  'passwd',
  'pwd',
  'auth',
  'authorization',
  'apikey',
  'code',
  'jwt',
  'otp',
]);

// Prefixes catch `sessionid`, `tokenvalue`, `passwordhash`; `auth` is exact only (`author` is not a secret).
const PREFIXES = ['token', 'secret', 'session', 'signature', 'credential', 'password', 'apikey'];

/** True when the query parameter `name` is one whose value must not be sent or shown. */
export function isSensitiveQueryParam(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-.]/g, '_');
  if (SENSITIVE_QUERY_PARAMS.includes(normalized)) return true;
  const last = normalized.slice(normalized.lastIndexOf('_') + 1);
  if (last !== normalized && SENSITIVE_QUERY_PARAMS.includes(last)) return true;
  return PREFIXES.some((prefix) => normalized.startsWith(prefix));
}

/**
 * `url` without its sensitive query parameters (see {@link isSensitiveQueryParam}) and without
 * user-info; other parameters keep their order. Returns `url` unchanged when it does not parse.
 *
 * @example
 * stripSensitiveQueryParams('https://x.dev/a?page=2&api_key=s3cr3t') // 'https://x.dev/a?page=2'
 */
export function stripSensitiveQueryParams(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = '';
  parsed.password = '';
  if (parsed.search === '') return parsed.toString();
  const kept = [...parsed.searchParams].filter(([name]) => !isSensitiveQueryParam(name));
  parsed.search = kept.length === 0 ? '' : new URLSearchParams(kept).toString();
  return parsed.toString();
}
