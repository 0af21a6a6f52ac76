import { globToRegExp } from '../glob/glob-to-regexp.js';
import { normalizeHostName, normalizeHostPattern } from '../web/host-name.js';
import type { PermissionRule } from './permission-rule.js';

// Structurally the PermissionDecision of permission-policy.ts, which imports this module.
type Decision = 'allow' | 'ask' | 'deny';
interface UrlDecision {
  readonly decision: Decision;
  readonly rule?: string;
  readonly reason: string;
}

/** The rules of one tool, split by gate (what `evaluatePermission` hands over). */
interface UrlRules {
  readonly allow: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];
}

/** A `url` permission target: the (stripped) URL and its lower-cased host name. */
interface UrlTarget {
  readonly url: string;
  readonly host: string;
}

const DOMAIN_PREFIX = 'domain:';
const MATCHERS = new Map<string, (target: UrlTarget, strict: boolean) => boolean>();
const MATCHER_LIMIT = 1024;

/**
 * True when the specifier of a rule matches a URL target.
 * - `domain:docs.rs` matches the host `docs.rs` and every subdomain (`api.docs.rs`), so a deny
 *   rule on a domain cannot be dodged through `www.`; `domain:*.rs` is a glob on the host (`*`
 *   any characters). Rule and host are compared in the form of `normalizeHostName` (lower case,
 *   IDNA ASCII, no trailing dot).
 * - Any other specifier is a glob on the whole URL (`https://docs.rs/*`), `*` any characters;
 *   case-insensitive for deny and ask rules (fail closed), exact for allow rules.
 */
export function urlSpecifierMatches(specifier: string, target: UrlTarget, strict: boolean): boolean {
  let matcher = MATCHERS.get(specifier);
  if (matcher === undefined) {
    matcher = compile(specifier);
    if (MATCHERS.size >= MATCHER_LIMIT) MATCHERS.clear();
    MATCHERS.set(specifier, matcher);
  }
  return matcher(target, strict);
}

function compile(specifier: string): (target: UrlTarget, strict: boolean) => boolean {
  const options = { pathMode: false, classes: false, braces: 'strict' as const };
  if (specifier.toLowerCase().startsWith(DOMAIN_PREFIX)) {
    // Rule and host in one canonical form (case, IDNA, trailing dot): `domain:evil.com` matches
    // `https://EVIL.com./` and `domain:bücher.de` matches `xn--bcher-kva.de`.
    const domain = normalizeHostPattern(specifier.slice(DOMAIN_PREFIX.length));
    const glob = globToRegExp(domain, { ...options, caseInsensitive: true });
    return (target) => {
      const host = normalizeHostName(target.host);
      return glob.test(host) || (!/[*?]/.test(domain) && host.endsWith(`.${domain}`));
    };
  }
  const exact = globToRegExp(specifier, options);
  const folded = globToRegExp(specifier, { ...options, caseInsensitive: true });
  return (target, lenient) => (lenient ? folded : exact).test(target.url);
}

/**
 * Judges a call whose target is a URL: deny and ask rules (case-insensitive) before allow rules;
 * a bare rule matches every call of its tools; nothing matching -> `fallback`.
 */
export function evaluateUrl(rules: UrlRules, toolName: string, target: UrlTarget, fallback: Decision): UrlDecision {
  for (const gate of ['deny', 'ask'] as const) {
    for (const rule of rules[gate]) {
      if (rule.specifier === null || urlSpecifierMatches(rule.specifier, target, true)) {
        return { decision: gate, rule: rule.source, reason: `${rule.specifier === null ? `every ${toolName} call` : `"${target.url}"`} matches ${gate} rule "${rule.source}"` };
      }
    }
  }
  const allow = rules.allow.find((rule) => rule.specifier === null || urlSpecifierMatches(rule.specifier, target, false));
  if (allow !== undefined) return { decision: 'allow', rule: allow.source, reason: `"${target.url}" matches allow rule "${allow.source}"` };
  return { decision: fallback, reason: `"${target.url}" matches no rule for ${toolName}; the default decision is ${fallback}` };
}
