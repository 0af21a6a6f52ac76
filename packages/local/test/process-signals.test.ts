// Tool processes must not survive the host dying by SIGTERM, SIGINT or SIGHUP (not only by a
// normal `exit`): the group and its escaped descendants are killed, then the host dies by the signal.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'host-running-tool.ts');

function alive(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(token) && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.runIf(process.platform === 'linux')('tool processes when the host is killed by a signal', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s kills the group and its escapees, and the host still dies by it', async (signal) => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'a3s-signal-')));
    const token = `${4000 + Math.floor(Math.random() * 900)}.${process.pid % 1000}`;
    cleanups.push(async () => {
      for (const pid of alive(`sleep ${token}`)) process.kill(pid, 'SIGKILL');
      await rm(root, { recursive: true, force: true });
    });
    const host = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', FIXTURE, root, token], { stdio: 'ignore' });
    cleanups.push(async () => {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    });
    for (let attempt = 0; attempt < 400 && !existsSync(join(root, 'ready.flag')); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(existsSync(join(root, 'ready.flag'))).toBe(true);
    expect(alive(`sleep ${token}`).length).toBeGreaterThanOrEqual(2);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, by) => resolve(by)));
    host.kill(signal);
    expect(await exited).toBe(signal);
    for (let attempt = 0; attempt < 400 && alive(`sleep ${token}`).length > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(alive(`sleep ${token}`)).toEqual([]);
  });
});
