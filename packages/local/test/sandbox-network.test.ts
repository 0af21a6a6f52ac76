// Issue 31: with `network: { allow: ['127.0.0.1:<port>'] }` exactly that listener is reachable
// (through the filtering proxy) and no other; `none` reaches nothing, `full` the host network.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LocalWorkspaceBackend } from '../src/index.js';
import { probeBubblewrap } from '../src/internal.js';

const available = probeBubblewrap().ok;

interface Listener {
  server: Server;
  port: number;
  hits: number;
}

async function listen(): Promise<Listener> {
  const listener: Listener = { server: createServer(), port: 0, hits: 0 };
  listener.server.on('connection', (socket) => {
    listener.hits += 1;
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello\n'));
  });
  await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
  listener.port = (listener.server.address() as { port: number }).port;
  return listener;
}

let base = '';
let allowed: Listener;
let other: Listener;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-net-'));
  allowed = await listen();
  other = await listen();
});

afterAll(async () => {
  allowed?.server.close();
  other?.server.close();
  await rm(base, { recursive: true, force: true });
});

const curl = (port: number) => `curl -s -S --max-time 5 -o - -w ' status=%{http_code}' http://127.0.0.1:${port}/ ; echo`;

describe.skipIf(!available)('sandbox network policy', () => {
  it('an allow-list reaches exactly the listed listener, through the proxy', async () => {
    const backend = new LocalWorkspaceBackend(base, { sandbox: { mode: 'required', network: { allow: [`127.0.0.1:${allowed.port}`] } } });
    try {
      expect(backend.sandboxStatus()).toEqual({ active: true, kind: 'bubblewrap', network: 'allow-list' });
      const ok = await backend.exec({ command: curl(allowed.port), timeoutMs: 20_000 });
      expect(ok.stdout).toContain('hello');
      expect(ok.stdout).toContain('status=200');
      const hitsAfterAllowed = allowed.hits;
      expect(hitsAfterAllowed).toBe(1);

      const refused = await backend.exec({ command: `${curl(other.port)}; exec 3<>/dev/tcp/127.0.0.1/${other.port} && echo DIRECT""OK; curl -s --noproxy '*' --max-time 2 http://127.0.0.1:${other.port}/ && echo NOPROXY""OK`, timeoutMs: 20_000 });
      expect(refused.stdout).toContain('status=403');
      expect(refused.stdout).not.toContain('DIRECTOK');
      expect(refused.stdout).not.toContain('NOPROXYOK');
      expect(other.hits).toBe(0);

      // Even the allowed listener is not reachable around the proxy.
      const direct = await backend.exec({ command: `exec 3<>/dev/tcp/127.0.0.1/${allowed.port} && echo DIRECT""OK`, timeoutMs: 20_000 });
      expect(direct.stdout).not.toContain('DIRECTOK');
      expect(allowed.hits).toBe(hitsAfterAllowed);
      expect(direct.exitCode).not.toBe(0);
    } finally {
      await backend.close();
    }
  });

  it('the command\'s exit status comes through the relay', async () => {
    const backend = new LocalWorkspaceBackend(base, { sandbox: { mode: 'required', network: { allow: ['example.invalid'] } } });
    try {
      const result = await backend.exec({ command: 'echo out; echo err >&2; exit 7', timeoutMs: 20_000 });
      expect([result.exitCode, result.stdout, result.stderr]).toEqual([7, 'out\n', 'err\n']);
    } finally {
      await backend.close();
    }
  });

  it("'none' reaches no listener; 'full' reaches the host's", async () => {
    const none = new LocalWorkspaceBackend(base, { sandbox: { mode: 'required', network: 'none' } });
    const full = new LocalWorkspaceBackend(base, { sandbox: { mode: 'required', network: 'full' } });
    const before = other.hits;
    expect((await none.exec({ command: curl(other.port), timeoutMs: 20_000 })).stdout).not.toContain('hello');
    expect(other.hits).toBe(before);
    expect((await full.exec({ command: curl(other.port), timeoutMs: 20_000 })).stdout).toContain('hello');
    expect(other.hits).toBe(before + 1);
    expect(full.sandboxStatus().network).toBe('full');
  });
});
