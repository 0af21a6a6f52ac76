import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent } from '@a3s-lab/code';
import { allowedHostValues, resolveServerOptions, resolveServerToken, SERVER_TOKEN_ENV, wildcardHostNames } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'a3s-server-opts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const agent = {} as Agent;

describe('resolveServerOptions', () => {
  it('defaults: loopback, 1 MiB bodies, read-only tools allowed, everything else asks', () => {
    const resolved = resolveServerOptions({ agent, workspaceRoots: ['/srv'] });
    expect(resolved).toMatchObject({ host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024, idleReleaseMs: 0, ui: true, maxStreamMs: 0 });
    expect(resolved.permissionPolicy).toEqual({ allow: ['read', 'ls', 'glob', 'grep'], defaultDecision: 'ask' });
    expect(resolved.confirmationPolicy).toMatchObject({ enabled: true, timeoutAction: 'reject' });
  });

  it('refuses options it would not act on, and any way to skip confirmation', () => {
    expect(() => resolveServerOptions({ agent, workspaceRoots: [] })).toThrow(/at least one/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['rel'] })).toThrow(/absolute/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], confirmationPolicy: { enabled: false } })).toThrow(/enabled/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], confirmationPolicy: { timeoutAction: 'auto_approve' } })).toThrow(/auto_approve/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], confirmationPolicy: { yoloLanes: ['query'] } })).toThrow(/yoloLanes/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], advertiseUrl: 'ftp://host' })).toThrow(/advertiseUrl/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], advertiseUrl: 'http://host:7420/api' })).toThrow(/advertiseUrl/);
    expect(resolveServerOptions({ agent, workspaceRoots: ['/srv'], advertiseUrl: 'http://Replica-2.internal:7420/' }).advertiseUrl).toBe('http://replica-2.internal:7420');
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], maxBodyBytes: 0 })).toThrow(/positive/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], port: 70_000 })).toThrow(/port/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], maxStreamMs: -1 })).toThrow(/maxStreamMs/);
    expect(() => resolveServerOptions({ agent, workspaceRoots: ['/srv'], leaseTtlMs: 5, leases: { owner: 'x', acquire: async () => ({ acquired: true }), renew: async () => true, release: async () => undefined } })).toThrow(/leaseTtlMs/);
  });
});

describe('allowedHostValues', () => {
  it('loopback names for a loopback bind; the bound name otherwise; extra names with and without port', () => {
    expect([...allowedHostValues('127.0.0.1', 7420, [])].sort()).toEqual(['127.0.0.1:7420', '[::1]:7420', 'localhost:7420']);
    expect([...allowedHostValues('10.0.0.5', 80, ['code.example.com'])].sort()).toEqual(['10.0.0.5:80', 'code.example.com', 'code.example.com:80']);
  });

  it('a wildcard bind also answers to this machine\'s interface addresses and host name (not link-local, not internal)', () => {
    const interfaces = {
      lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
      eth0: [
        { address: '192.0.2.7', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '192.0.2.7/24' },
        { address: 'FD00::7', netmask: 'ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: 'fd00::7/64', scopeid: 0 },
        { address: 'fe80::1', netmask: 'ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: 'fe80::1/64', scopeid: 2 },
      ],
    } as const;
    const names = wildcardHostNames(interfaces as unknown as Parameters<typeof wildcardHostNames>[0], 'Build-Box');
    expect(names).toEqual(['192.0.2.7', '[fd00::7]', 'build-box']);
    expect([...allowedHostValues('0.0.0.0', 7420, [], names)].sort()).toEqual(['127.0.0.1:7420', '192.0.2.7:7420', '[::1]:7420', '[fd00::7]:7420', 'build-box:7420', 'localhost:7420']);
    expect([...allowedHostValues('127.0.0.1', 7420, [], names)]).not.toContain('192.0.2.7:7420');
  });
});

describe('resolveServerToken', () => {
  it('generated once (0600 file), then read from the file; env and option win; short tokens refused', async () => {
    const stateDir = join(dir, 'state');
    const first = await resolveServerToken({ stateDir, env: {} });
    expect(first.source).toBe('generated');
    expect(first.token.length).toBeGreaterThanOrEqual(40);
    expect(statSync(join(stateDir, 'token')).mode & 0o777).toBe(0o600);
    expect(await resolveServerToken({ stateDir, env: {} })).toEqual({ token: first.token, source: 'file' });
    const fromEnv = 'e'.repeat(32);
    expect(await resolveServerToken({ stateDir, env: { [SERVER_TOKEN_ENV]: fromEnv } })).toEqual({ token: fromEnv, source: 'env' });
    expect(await resolveServerToken({ stateDir, token: 'o'.repeat(30), env: { [SERVER_TOKEN_ENV]: fromEnv } })).toEqual({ token: 'o'.repeat(30), source: 'option' });
    await expect(resolveServerToken({ stateDir, token: 'short' })).rejects.toThrow(/at least 24/);
  });
});
