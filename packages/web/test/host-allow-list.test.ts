import { describe, expect, it } from 'vitest';
import { HostAllowList, blockedAddress } from '../src/index.js';
import { blockedHostName } from '../src/address-policy.js';

describe('HostAllowList', () => {
  it('matches names, addresses and ports', () => {
    const list = new HostAllowList(['127.0.0.1', 'Docs.Internal:8443', '[::1]:3000', '10.1.2.3:80']);
    expect(list.allowsHost('127.0.0.1', 1)).toBe(true);
    expect(list.allowsHost('docs.internal.', 8443)).toBe(true);
    expect(list.allowsHost('docs.internal', 443)).toBe(false);
    expect(list.allowsHost('::1', 3000)).toBe(true);
    expect(list.allowsHost('::1', 3001)).toBe(false);
    expect(list.allowsHost('::ffff:7f00:1', 80)).toBe(true);
    expect(list.allowsAddress('10.1.2.3', 80)).toBe(true);
    expect(list.allowsAddress('10.1.2.3', 81)).toBe(false);
    expect(list.allowsAddress('127.0.0.2', 80)).toBe(false);
  });

  it('compares hosts in the normal form of core (trailing dots, case, IDNA): entries and URL hosts alike', () => {
    const list = new HostAllowList(['Bücher.de.', 'docs.internal']);
    expect(list.allowsHost('xn--bcher-kva.de', 443)).toBe(true);
    expect(list.allowsHost('BÜCHER.DE..', 443)).toBe(true);
    expect(list.allowsHost('DOCS.internal..', 80)).toBe(true);
    expect(list.allowsHost('0x7f.1', 80)).toBe(false);
  });

  it('the name guard sees through trailing dots and case', () => {
    expect(blockedHostName('LOCALHOST..')).toMatch(/names this machine/);
    expect(blockedHostName('metadata.google.internal.')).toMatch(/metadata/);
    expect(blockedHostName('a.localhost.')).toMatch(/names this machine/);
  });

  it.each([['https://x.dev'], ['x.dev/path'], ['user@x.dev'], [''], ['x.dev:0'], ['bad_host!']])('rejects %j', (entry) => {
    expect(() => new HostAllowList([entry])).toThrow(/webFetch\.allowHosts\[0\]/);
  });
});

describe('blockedAddress', () => {
  it.each([['8.8.8.8'], ['1.1.1.1'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('lets %s through', (address) => {
    expect(blockedAddress(address)).toBeNull();
  });

  it.each([['127.0.0.1'], ['10.0.0.1'], ['100.64.0.1'], ['169.254.169.254'], ['0.0.0.0'], ['224.0.0.1'], ['::1'], ['::'], ['fc00::1'], ['fe80::1'], ['::ffff:10.0.0.1'], ['::10.0.0.1'], ['64:ff9b::a00:1'], ['2002:a00:1::'], ['192.0.2.1']])('refuses %s', (address) => {
    expect(blockedAddress(address)).not.toBeNull();
  });
});
