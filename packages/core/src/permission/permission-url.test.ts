import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './permission-policy.js';

const call = (url: string) => ({ toolName: 'web_fetch', target: { kind: 'url' as const, url, host: new URL(url).hostname } });

describe('permission rules on URL targets', () => {
  it('domain: matches the host and its subdomains, case-insensitively', () => {
    const policy = { allow: ['web_fetch(domain:docs.rs)'], defaultDecision: 'deny' as const };
    expect(evaluatePermission(policy, call('https://docs.rs/serde')).decision).toBe('allow');
    expect(evaluatePermission(policy, call('https://API.Docs.rs/x')).decision).toBe('allow');
    expect(evaluatePermission(policy, call('https://notdocs.rs/')).decision).toBe('deny');
    expect(evaluatePermission(policy, call('https://docs.rs.evil.dev/')).decision).toBe('deny');
  });

  it('a domain rule cannot be dodged by a trailing dot, case or an IDNA spelling (rule and host normalised alike)', () => {
    const deny = { allow: ['web_fetch'], deny: ['web_fetch(domain:evil.com)', 'web_fetch(domain:bücher.de)'] };
    expect(evaluatePermission(deny, call('https://evil.com./')).decision).toBe('deny');
    expect(evaluatePermission(deny, call('https://WWW.EVIL.COM../x')).decision).toBe('deny');
    expect(evaluatePermission(deny, call('https://xn--bcher-kva.de/')).decision).toBe('deny');
    expect(evaluatePermission(deny, call('https://BÜCHER.de./')).decision).toBe('deny');
    // A target built by hand with the raw host is normalised too.
    expect(evaluatePermission(deny, { toolName: 'web_fetch', target: { kind: 'url', url: 'https://evil.com./', host: 'Evil.Com.' } }).decision).toBe('deny');
    const allow = { allow: ['web_fetch(domain:docs.rs.)'], defaultDecision: 'deny' as const };
    expect(evaluatePermission(allow, call('https://docs.rs./serde')).decision).toBe('allow');
  });

  it('deny beats allow, and a deny on a domain cannot be dodged through www.', () => {
    const policy = { allow: ['web_fetch'], deny: ['web_fetch(domain:evil.dev)'] };
    expect(evaluatePermission(policy, call('https://www.EVIL.dev/')).decision).toBe('deny');
    expect(evaluatePermission(policy, call('https://good.dev/')).decision).toBe('allow');
  });

  it('domain globs and URL globs', () => {
    const policy = { allow: ['web_fetch(domain:*.rust-lang.org)', 'web_fetch(https://github.com/a3s-lab/*)'], ask: ['web_fetch(https://github.com/*/settings*)'], defaultDecision: 'deny' as const };
    expect(evaluatePermission(policy, call('https://doc.rust-lang.org/std')).decision).toBe('allow');
    expect(evaluatePermission(policy, call('https://github.com/a3s-lab/code')).decision).toBe('allow');
    expect(evaluatePermission(policy, call('https://github.com/a3s-lab/settings')).decision).toBe('ask');
    expect(evaluatePermission(policy, call('https://github.com/other/code')).decision).toBe('deny');
  });

  it('a rule with a specifier for another tool does not apply', () => {
    expect(evaluatePermission({ deny: ['bash(curl*)'], defaultDecision: 'allow' }, call('https://x.dev/')).decision).toBe('allow');
  });
});
