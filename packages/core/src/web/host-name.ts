/**
 * The one canonical form of a host name, used wherever a host is compared: `domain:` permission
 * rules (and the `url` permission target), the web allow-list (`webFetch.allowHosts`) and the
 * web client's address guard. Lower-case, IDNA to ASCII (`BÜCHER.de` -> `xn--bcher-kva.de`, as
 * the WHATWG URL host parser does — the algorithm of node:url's `domainToASCII`, without a
 * node:* import in runtime-neutral core), IPv4 in any spelling to dotted decimal
 * (`0x7f.1` -> `127.0.0.1`), and no trailing dots (`evil.com.` and `evil.com` name the same
 * host for DNS). Brackets of an IPv6 literal are kept off (`[::1]` -> `::1`).
 *
 * A host the URL parser refuses (forbidden characters, bad punycode) is only lower-cased and
 * stripped of trailing dots, so it can still never match a rule it would dodge by spelling.
 */
export function normalizeHostName(host: string): string {
  let text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) return text.slice(1, -1).toLowerCase();
  if (text.includes(':')) return text.toLowerCase(); // a bare IPv6 literal
  text = text.replace(/\.+$/, '');
  if (text === '' || /[\s/\\@?#%]/.test(text)) return text.toLowerCase();
  try {
    return new URL(`http://${text}/`).hostname.replace(/\.+$/, '');
  } catch {
    return text.toLowerCase();
  }
}

/**
 * {@link normalizeHostName} for a host pattern of a `domain:` rule: labels holding glob
 * characters (`*`, `?`) are only lower-cased, the others are normalised.
 */
export function normalizeHostPattern(pattern: string): string {
  const text = pattern.trim().replace(/\.+$/, '');
  if (!/[*?]/.test(text)) return normalizeHostName(text);
  return text
    .split('.')
    .map((label) => (/[*?]/.test(label) || label === '' ? label.toLowerCase() : normalizeHostName(label)))
    .join('.');
}
