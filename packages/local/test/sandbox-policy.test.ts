import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CodeError } from '@a3s-lab/code-core';

import { DEFAULT_SANDBOX_DENY_READ, LocalWorkspaceBackend } from '../src/index.js';
import { bwrapArgs, resolveSandboxPolicy } from '../src/internal.js';

let ws = '';
beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'a3s-sandbox-policy-')));
});
afterAll(async () => {
  await rm(ws, { recursive: true, force: true });
});

function codeOf(action: () => unknown): { code: string; field?: unknown; reason?: unknown } | null {
  try {
    action();
    return null;
  } catch (error) {
    if (!CodeError.isInstance(error)) throw error;
    return { code: error.code, field: error.details['field'], reason: error.details['reason'] };
  }
}

describe('resolveSandboxPolicy', () => {
  it('defaults to auto, no network, the default deny-read list under HOME', () => {
    const policy = resolveSandboxPolicy(undefined, '/home/u');
    expect(policy.mode).toBe('auto');
    expect(policy.network).toBe('none');
    expect(policy.denyRead).toEqual(DEFAULT_SANDBOX_DENY_READ.map((path) => `/home/u/${path.slice(2)}`));
    expect(policy.denyRead).toContain('/home/u/.ssh');
    expect(policy.autoAllowBash).toBe(false);
  });

  it('adds the host paths, expanding ~', () => {
    const policy = resolveSandboxPolicy({ denyRead: ['~/secrets', '/srv/keys/'], allowWrite: ['/var/cache/x'] }, '/home/u');
    expect(policy.denyRead.slice(-2)).toEqual(['/home/u/secrets', '/srv/keys']);
    expect(policy.allowWrite).toEqual(['/var/cache/x']);
  });

  it.each([
    [{ mode: 'sometimes' }, 'sandbox.mode'],
    [{ network: 'some' }, 'sandbox.network'],
    [{ network: { allow: [] } }, 'sandbox.network.allow'],
    [{ network: { allow: ['http://x.com'] } }, 'sandbox.network.allow[0]'],
    [{ network: { allow: ['x.com:99999'] } }, 'sandbox.network.allow[0]'],
    [{ allowWrite: ['relative/dir'] }, 'sandbox.allowWrite[0]'],
    [{ allowWrite: ['/'] }, 'sandbox.allowWrite[0]'],
    [{ allowWrite: ['~/.ssh/keys'] }, 'sandbox.allowWrite[0]'],
    [{ allowWrite: ['/srv/x'], denyRead: ['/srv'] }, 'sandbox.allowWrite[0]'],
    [{ denyRead: ['a\0b'] }, 'sandbox.denyRead[0]'],
    [{ autoAllowBash: 'yes' }, 'sandbox.autoAllowBash'],
    [{ disable: true }, 'sandbox.disable'],
  ])('refuses %j naming %s', (options, field) => {
    expect(codeOf(() => resolveSandboxPolicy(options as never, '/home/u'))).toEqual({ code: 'CONFIG_ERROR', field, reason: undefined });
  });

  it('parses allow-list entries', () => {
    const policy = resolveSandboxPolicy({ network: { allow: ['127.0.0.1:8080', 'Registry.NPMJS.org', '[::1]:443'] } });
    expect(policy.network).toEqual({ allow: [{ host: '127.0.0.1', port: 8080 }, { host: 'registry.npmjs.org' }, { host: '::1', port: 443 }] });
  });
});

describe('bwrapArgs', () => {
  it('binds the system read-only, the workspace writable, protected paths read-only and hides secrets', () => {
    const args = bwrapArgs(
      {
        rootReal: '/w',
        cwd: '/w/src',
        allowWrite: [],
        protectedMounts: [{ path: '/w/.git', kind: 'pinned' }, { path: '/w/.git/hooks', kind: 'read-only' }],
        hidden: [{ path: '/h/.ssh', directory: true }, { path: '/h/.netrc', directory: false }, { path: '/tmp/x/.aws', directory: true }],
        shareNetwork: false,
      },
      'bash',
      ['-c', 'true'],
    );
    const text = args.join(' ');
    expect(text.startsWith('--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /w /w --bind /w/.git /w/.git --ro-bind /w/.git/hooks /w/.git/hooks')).toBe(true);
    expect(text).toContain('--tmpfs /h/.ssh --remount-ro /h/.ssh');
    expect(text).toContain('--ro-bind /dev/null /h/.netrc');
    expect(text).not.toContain('/tmp/x/.aws');
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--die-with-parent', '--new-session', '--disable-userns']) expect(args).toContain(flag);
    expect(args.slice(-6)).toEqual(['--chdir', '/w/src', '--', 'bash', '-c', 'true']);
  });

  it('hides a secret directory holding the workspace before binding the workspace back', () => {
    const args = bwrapArgs({ rootReal: '/h/.a3s/ws', cwd: '/h/.a3s/ws', allowWrite: [], protectedMounts: [], hidden: [{ path: '/h/.a3s', directory: true }], shareNetwork: true }, 'true', []);
    expect(args.indexOf('/h/.a3s')).toBeLessThan(args.indexOf('/h/.a3s/ws'));
    expect(args).not.toContain('--unshare-net');
  });
});

describe('sandbox availability', () => {
  it('mode required with bubblewrap unavailable: SANDBOX_UNAVAILABLE naming the reason', () => {
    const failure = codeOf(() => new LocalWorkspaceBackend(ws, { sandbox: { mode: 'required', bwrapPath: '/nonexistent/bwrap' } }));
    expect(failure?.code).toBe('SANDBOX_UNAVAILABLE');
    expect(String(failure?.reason)).toContain('/nonexistent/bwrap');
  });

  it('mode auto with bubblewrap unavailable: inactive status with the reason, commands still run', async () => {
    const backend = new LocalWorkspaceBackend(ws, { sandbox: { mode: 'auto', bwrapPath: '/nonexistent/bwrap' } });
    const status = backend.sandboxStatus();
    expect(status).toMatchObject({ active: false, kind: 'none', network: 'full' });
    expect(status.reason).toContain('not found');
    expect((await backend.exec({ command: 'echo ran', timeoutMs: 10_000 })).stdout).toBe('ran\n');
  });

  it('a backend built without the option is not sandboxed (off)', () => {
    expect(new LocalWorkspaceBackend(ws).sandboxStatus()).toEqual({ active: false, kind: 'none', network: 'full', reason: "sandbox mode is 'off'" });
  });
});
