// The CLI at the edges where a Unix tool is judged (issue 28): a closed pipe, usage mistakes, a
// port in use, a bad token, help for every command, a wildcard bind whose printed URLs work.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { textResponse } from '@a3s-lab/code-testing';
import { binCommand, CLI_BIN_MISSING, cleanEnv, runBin, runMain, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

/** Starts `a3s-code serve` and resolves with what it printed up to its last start-up line. */
function startServe(args: readonly string[], env: Record<string, string>, cwd: string): Promise<{ lines: string[]; stop: () => Promise<void> }> {
  const [file, argv] = binCommand(['serve', ...args]);
  const child = spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      // The token line is the last one serve prints before it waits.
      if (/^(token|open): /m.test(out)) resolve({ lines: out.split('\n'), stop });
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`serve exited ${code} before listening:\n${out}\n${err}`)));
  });
}

describe('usage and start-up errors (in-process)', () => {
  it('a command-line mistake says usage, exit 2; the JSON envelope keeps the stable code', async () => {
    const unknown = await runMain(['frob'], { env: {}, cwd: process.cwd() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^a3s-code: usage: unknown command 'frob' \(see a3s-code --help\)\n$/);
    const flag = await runMain(['run', '--bogus', 'x', '--json'], { env: {}, cwd: process.cwd() });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^a3s-code: usage: Unknown option '--bogus'/);
    expect(JSON.parse(flag.stdout.trim()).payload.code).toBe('CONFIG_ERROR');
    const port = await runMain(['serve', '--port', 'x'], { env: {}, cwd: process.cwd() });
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/^a3s-code: usage: --port must be an integer/);
  });

  it('trust --help prints the trust usage', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await runMain(['trust', flag], { env: {}, cwd: process.cwd() });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage:\n {2}a3s-code trust \[--workspace DIR\]\n/);
      expect(help.stderr).toBe('');
    }
  });
});

describe.skipIf(CLI_BIN_MISSING)('the binary at the edges', () => {
  const fixture = scriptedRunFixture();

  it('`a3s-code run ... | head -1` ends quietly when the reader goes away (exit 141, no stack trace)', async () => {
    // Deltas arrive slowly, so the CLI is still writing JSON lines after `head` has gone.
    const model = await fixture.start([textResponse(Array.from({ length: 40 }, (_, i) => `part ${i} `), { chunkDelayMs: 25 })]);
    const ws = fixture.tempDir('a3s-pipe-ws-', { 'README.md': '# pipe\n' });
    const home = fixture.tempDir('a3s-pipe-home-');
    writeWorkspaceConfig(ws, model, home);
    const [file, argv] = binCommand(['run', 'hello', '--json', '--workspace', ws]);
    const quoted = [file, ...argv].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const script = `${quoted} 2>"$ERR_FILE" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const errFile = `${home}/stderr.txt`;
    const shell = await new Promise<{ status: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], { cwd: ws, env: cleanEnv(home, { ERR_FILE: errFile }), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('exit', () => resolve({ status: out.trim(), stderr: readFileSync(errFile, 'utf8') }));
    });
    expect(shell.status).toBe('141');
    expect(shell.stderr).not.toMatch(/Error|EPIPE|at .*\.js:\d+/);
  });

  it('a port in use and a too-short token are clear messages with exit 2, not INTERNAL_ERROR', async () => {
    const home = fixture.tempDir('a3s-edge-home-');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const busy = await runBin(['serve', '--demo', '--port', String(port)], { env: cleanEnv(home), cwd: home });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`[CONFIG_ERROR] port ${port} is already in use on 127.0.0.1 (choose another with --port, or --port 0 for a free one)`);
      expect(busy.stderr).not.toContain('INTERNAL_ERROR');
    } finally {
      blocker.close();
    }
    const short = await runBin(['serve', '--demo', '--port', '0'], { env: cleanEnv(home, { A3S_SERVER_TOKEN: 'short' }), cwd: home });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('[CONFIG_ERROR] the server token from A3S_SERVER_TOKEN must be at least 24 characters without whitespace (it has 5)');
  });

  it('serve --host 0.0.0.0 prints URLs that work from other machines: the Host check accepts exactly those', async () => {
    const home = fixture.tempDir('a3s-wild-home-');
    const served = await startServe(['--demo', '--host', '0.0.0.0', '--port', '0'], cleanEnv(home), home);
    try {
      const listening = served.lines.find((line) => line.includes('listening on'));
      expect(listening).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+$/);
      const also = served.lines.find((line) => line.startsWith('also reachable at: '));
      expect(also).toBeDefined();
      const urls = also!.slice('also reachable at: '.length).split(', ');
      expect(urls.length).toBeGreaterThan(0);
      // Each printed URL is answered under its own Host (an interface address or the host name);
      // the connection goes to loopback, as it would arrive from another machine at that name.
      const port = Number(/:(\d+)$/.exec(listening!)![1]);
      for (const url of urls) {
        const host = new URL(url).host;
        const status = await new Promise<number>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
        expect(status, url).toBe(200);
      }
      // A foreign name is still refused (DNS rebinding).
      const foreign = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(foreign).toBe(403);
    } finally {
      await served.stop();
    }
  });
});
