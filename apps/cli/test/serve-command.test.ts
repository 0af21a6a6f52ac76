// `a3s-code serve`: starts the HTTP + SSE server of @a3s-lab/server in-process, prints its URL and
// (first start only) its token, answers with the token and refuses without it, and stops on Ctrl-C.
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { parseServeArgs } from '../src/serve-command.js';
import { cleanEnv, memoryIo, runMain, tempDir } from './cli-harness.js';

describe('a3s-code serve', () => {
  it('--demo serves the bundled sample repo; the token is printed on first start only; Ctrl-C stops it', async () => {
    const home = tempDir('a3s-serve-home-');
    const state = tempDir('a3s-serve-state-');
    try {
      let interrupt: (() => void) | undefined;
      const memory = memoryIo({ env: cleanEnv(home.dir), cwd: home.dir });
      const io = { ...memory.io, onInterrupt: (handler: () => void) => ((interrupt = handler), () => (interrupt = undefined)) };
      const exit = main(['serve', '--demo', '--port', '0', '--state-dir', state.dir], io);
      await expect.poll(() => memory.stdout(), { timeout: 15_000 }).toMatch(/open: (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/);
      const [, url, token] = /open: (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(memory.stdout()) ?? [];
      expect((await fetch(`${url}/api/sessions`)).status).toBe(401);
      const config = await fetch(`${url}/api/config`, { headers: { authorization: `Bearer ${token}` } });
      const roots = ((await config.json()) as { workspaceRoots: string[] }).workspaceRoots;
      expect(roots).toHaveLength(1);
      expect(roots[0]).toMatch(/demo-repo$/);
      const created = await fetch(`${url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ workspace: roots[0] }) });
      expect(created.status).toBe(201);
      interrupt?.();
      expect(await exit).toBe(0);

      // Second start on the same state directory: the token is not printed again.
      const again = memoryIo({ env: cleanEnv(home.dir), cwd: home.dir });
      let stop: (() => void) | undefined;
      const second = main(['serve', '--demo', '--port', '0', '--state-dir', state.dir], { ...again.io, onInterrupt: (handler) => ((stop = handler), () => undefined) });
      await expect.poll(() => again.stdout(), { timeout: 15_000 }).toContain('listening on');
      expect(again.stdout()).not.toContain(token ?? '-');
      expect(again.stdout()).toContain('token: from the token file');
      stop?.();
      expect(await second).toBe(0);
    } finally {
      home.cleanup();
      state.cleanup();
    }
  });

  it('parses its options and refuses bad ones with exit 2', async () => {
    expect(parseServeArgs(['--root', '/a', '--root', '/b', '--port', '0', '--host', '::1'])).toMatchObject({ roots: ['/a', '/b'], port: 0, host: '::1', demo: false });
    expect(parseServeArgs(['--help'])).toBe('help');
    expect(parseServeArgs(['--postgres', 'postgres://u@db/app', '--role', 'worker'])).toMatchObject({ postgres: 'postgres://u@db/app', role: 'worker' });
    expect(parseServeArgs(['--postgres', 'postgres://u@db/app'])).not.toHaveProperty('role');
    expect(() => parseServeArgs(['--postgres', 'postgres://u@db/app', '--role', 'cook'])).toThrow(/--role must be one of api, worker, all/);
    expect(() => parseServeArgs(['--postgres', 'mysql://db'])).toThrow(/--postgres must be a postgres/);
    const home = tempDir('a3s-serve-home-');
    try {
      const bad = await runMain(['serve', '--port', 'x'], { env: cleanEnv(home.dir), cwd: home.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--port must be an integer');
      expect((await runMain(['serve', '--demo', '--root', '/tmp'], { env: cleanEnv(home.dir), cwd: home.dir })).code).toBe(2);
      const help = await runMain(['serve', '--help'], { env: cleanEnv(home.dir), cwd: home.dir });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--state-dir');
      const noConfig = await runMain(['serve', '--port', '0'], { env: cleanEnv(home.dir), cwd: home.dir });
      expect(noConfig.code).toBe(2);
      expect(noConfig.stderr).toContain('serve --demo');
    } finally {
      home.cleanup();
    }
  });
});
