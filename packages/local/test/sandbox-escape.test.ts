// Must-show of issue 31 at the backend: with the sandbox required, an allowed command (exec) and
// the git CLI (git) cannot write outside the workspace, write git hooks or config, read the host's
// secrets, reach a host listener, leave a process behind, reach the host through /proc/1/root or
// escape through a symlink. The fixtures live under /var/tmp: under /tmp the private /tmp of the
// sandbox would hide them anyway and prove nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LocalWorkspaceBackend } from '../src/index.js';
import { probeBubblewrap } from '../src/internal.js';

const available = probeBubblewrap().ok;
const SECRET = 'CANARY-SECRET-7f3a';
let base = '';
let ws = '';
let home = '';
let canary = '';
let savedHome: string | undefined;
let server: Server;
let hits = 0;
let port = 0;
let backend: LocalWorkspaceBackend;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-'));
  ws = join(base, 'ws');
  home = join(base, 'home');
  canary = join(base, 'canary');
  for (const dir of [ws, canary, join(home, '.ssh'), join(home, '.aws')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${SECRET}-ssh\n`);
  writeFileSync(join(home, '.aws', 'credentials'), `${SECRET}-aws\n`);
  writeFileSync(join(home, '.bashrc'), '# untouched\n');
  execFileSync('git', ['init', '-q', ws]);
  writeFileSync(join(ws, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', ws, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init', '--allow-empty']);
  savedHome = process.env['HOME'];
  process.env['HOME'] = home;
  server = createServer((socket) => {
    hits += 1;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  if (available) backend = new LocalWorkspaceBackend(ws, { sandbox: { mode: 'required' }, env: { HOME: home } });
});

afterAll(async () => {
  if (savedHome === undefined) delete process.env['HOME'];
  else process.env['HOME'] = savedHome;
  await backend?.close();
  server?.close();
  await rm(base, { recursive: true, force: true });
});

const run = (command: string) => backend.exec({ command, timeoutMs: 20_000 });
const hooks = () => readdirSync(join(ws, '.git', 'hooks')).sort();

describe.skipIf(!available)('a required sandbox boxes exec()', () => {
  it('reports itself active with no network', () => {
    expect(backend.sandboxStatus()).toEqual({ active: true, kind: 'bubblewrap', network: 'none' });
  });

  it('runs commands in the workspace, which stays writable', async () => {
    const result = await run('echo ok > made.txt && cat made.txt && pwd');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`ok\n${ws}\n`);
    expect(readFileSync(join(ws, 'made.txt'), 'utf8')).toBe('ok\n');
  });

  it('cannot write outside the workspace (canary, HOME, /tmp is private)', async () => {
    const result = await run(`echo pwned > ${canary}/x; echo pwned >> ~/.bashrc; echo pwned > /tmp/a3s-sandbox-leak-${port}; ls ${canary}`);
    expect(existsSync(join(canary, 'x'))).toBe(false);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# untouched\n');
    expect(existsSync(`/tmp/a3s-sandbox-leak-${port}`)).toBe(false);
    expect(result.stderr).toMatch(/Read-only file system/);
  });

  it('cannot write, remove or move .git/hooks and .git/config', async () => {
    const before = hooks();
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    await run('echo evil > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; echo "[core] hooksPath = /x" >> .git/config; rm -rf .git/hooks; mv .git/hooks .git/h2; mv .git/config .git/c2; mv .git .git-moved; git config core.hooksPath /x');
    expect(hooks()).toEqual(before);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(ws, '.git-moved'))).toBe(false);
  });

  it('what it creates at absent protected paths is removed after the call (.mcp.json, .a3s/, agent.acl)', async () => {
    const result = await run('echo {} > .mcp.json; mkdir -p .a3s/hooks && echo x > .a3s/hooks/h; echo "x" > .a3s/config.acl; echo "x" > agent.acl; mkdir -p keep && echo ok > keep/f');
    for (const path of ['.mcp.json', '.a3s/hooks', '.a3s/config.acl', 'agent.acl']) expect(existsSync(join(ws, path))).toBe(false);
    expect(readFileSync(join(ws, 'keep', 'f'), 'utf8')).toBe('ok\n');
    expect(result.stderr).toContain('sandbox: removed what the command created at protected paths');
  });

  it('a .a3s link made by the command is removed, not what it points at', async () => {
    rmSync(join(ws, '.a3s'), { recursive: true, force: true });
    mkdirSync(join(ws, 'src', 'hooks'), { recursive: true });
    writeFileSync(join(ws, 'src', 'hooks', 'mine'), 'mine\n');
    await run('ln -sfn src .a3s');
    expect(existsSync(join(ws, '.a3s'))).toBe(false);
    expect(readFileSync(join(ws, 'src', 'hooks', 'mine'), 'utf8')).toBe('mine\n');
  });

  it("cannot read the fake HOME's ~/.ssh/id_rsa or ~/.aws/credentials", async () => {
    const result = await run('cat ~/.ssh/id_rsa ~/.aws/credentials; ls -la ~/.ssh; grep -r CANARY ~ 2>/dev/null');
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('cannot connect to a listener on the host loopback (its hit count stays 0)', async () => {
    const result = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected; curl -s --max-time 2 http://127.0.0.1:${port}/ && echo fetched`);
    expect(result.stdout).not.toContain('connected');
    expect(result.stdout).not.toContain('fetched');
    expect(hits).toBe(0);
  });

  // No marker sweep runs for a sandboxed call: the command is the init of its own pid namespace,
  // and the kernel has killed and reaped the whole namespace by the time the call sees it exit.
  // So the check holds the moment the call returns, with no wait.
  it('leaves no process alive after the call (setsid, nohup, double fork, no marker), the moment it returns', async () => {
    const tag = String(40_000 + (port % 20_000));
    const result = await run(`setsid sleep ${tag}1 & nohup sleep ${tag}2 >/dev/null 2>&1 & (sleep ${tag}3 &) ; env -i /usr/bin/setsid /bin/sleep ${tag}4 & setsid -f sleep ${tag}5; echo started`);
    expect(result.stdout).toBe('started\n');
    expect(sleepers(tag)).toEqual([]);
    expect(result.killedEscapedProcesses).toBeUndefined();
  });

  it('cannot reach the host through /proc/1/root', async () => {
    const result = await run(`echo pwned > /proc/1/root${canary}/p; cat /proc/1/root${home}/.ssh/id_rsa; ls /proc/1/root${canary}`);
    expect(existsSync(join(canary, 'p'))).toBe(false);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('cannot follow a symlink made in the workspace to a path outside', async () => {
    const result = await run(`ln -sfn ${canary} out; echo pwned > out/s; ln -sf ${home}/.ssh/id_rsa key; cat key; ln -sfn ${home} h; cat h/.aws/credentials`);
    expect(existsSync(join(canary, 's'))).toBe(false);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });
});

describe.skipIf(!available)('a required sandbox boxes git()', () => {
  const git = async (args: string[]) => backend.git({ args, timeoutMs: 20_000 }).catch((error: unknown) => ({ refused: String(error) }));

  it('runs git in the workspace', async () => {
    const result = await backend.git({ args: ['status', '--porcelain'] });
    expect(result.exitCode).toBe(0);
  });

  it('cannot write .git/config, outside the workspace, or read secrets', async () => {
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const outcomes = [
      await git(['config', 'core.hooksPath', '/x']),
      await git(['init', join(canary, 'repo')]),
      await git(['archive', '-o', join(canary, 'a.tar'), 'HEAD']),
      await git(['diff', '--no-index', '/dev/null', join(home, '.ssh', 'id_rsa')]),
      await git(['ls-remote', `http://127.0.0.1:${port}/x`]),
    ];
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(config);
    expect(readdirSync(canary)).toEqual([]);
    expect(JSON.stringify(outcomes)).not.toContain(SECRET);
    expect(hits).toBe(0);
  });
});

function sleepers(tag: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(`sleep ${tag}`)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone
    }
  }
  return found;
}
