import { describe, expect, it } from 'vitest';
import { bwrapArgs, isUnder } from './bwrap-args.js';

const base = { cwd: '/tmp/checkout/packages/sdk', allowWrite: [], protectedMounts: [], shareNetwork: false } as const;

describe('bwrapArgs', () => {
  it('binds a program tree under /tmp back read-only over the private /tmp, before anything writable', () => {
    const argv = bwrapArgs({ ...base, hidden: [], readOnlyBinds: ['/tmp/checkout'], allowWrite: ['/tmp/checkout/logs'] }, 'node', ['/tmp/checkout/server.js']);
    const tmpfs = argv.indexOf('/tmp', argv.indexOf('--tmpfs'));
    const ro = argv.indexOf('/tmp/checkout', tmpfs);
    expect(argv.slice(ro - 1, ro + 2)).toEqual(['--ro-bind', '/tmp/checkout', '/tmp/checkout']);
    expect(argv.indexOf('--bind')).toBeGreaterThan(ro);
  });

  it('a deny-read path inside such a tree stays hidden; one elsewhere under /tmp needs no mount', () => {
    const argv = bwrapArgs({ ...base, readOnlyBinds: ['/tmp/checkout'], hidden: [{ path: '/tmp/checkout/.env', directory: false }, { path: '/tmp/other/.ssh', directory: true }] }, 'node', []);
    const at = argv.indexOf('/tmp/checkout/.env');
    expect(argv.slice(at - 2, at + 1)).toEqual(['--ro-bind', '/dev/null', '/tmp/checkout/.env']);
    expect(at).toBeGreaterThan(argv.indexOf('/tmp/checkout'));
    expect(argv).not.toContain('/tmp/other/.ssh');
  });
});

describe('isUnder', () => {
  it('compares canonical absolute paths by components, without resolving them', () => {
    expect(isUnder('/home/me/.ssh', '/home/me/.ssh')).toBe(true);
    expect(isUnder('/home/me/.ssh/id_rsa', '/home/me/.ssh')).toBe(true);
    expect(isUnder('/home/me/.sshx', '/home/me/.ssh')).toBe(false);
    expect(isUnder('/home/me', '/home/me/.ssh')).toBe(false);
    expect(isUnder('/anything', '/')).toBe(true);
    expect(isUnder('/', '/tmp')).toBe(false);
  });

  it('resolves every other form first, as path.relative does', () => {
    expect(isUnder('/home/me/../me/.ssh/key', '/home/me/.ssh')).toBe(true);
    expect(isUnder('/home/me/.ssh/../.aws', '/home/me/.ssh')).toBe(false);
    expect(isUnder('/home/me//.ssh/key', '/home/me/.ssh')).toBe(true);
    expect(isUnder('/home/me/.ssh/key', '/home/me/.ssh/')).toBe(true);
    expect(isUnder('/home/me/./.ssh', '/home/me/.ssh')).toBe(true);
    expect(isUnder('/tmp/x', '/tmp/x/.')).toBe(true);
    expect(isUnder('/home/me/.sshx/', '/home/me/.ssh')).toBe(false);
  });
});
