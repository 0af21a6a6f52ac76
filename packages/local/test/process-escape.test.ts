// A descendant that leaves the process group (setsid, double fork) must not outlive the call:
// it is found by the call's environment marker, killed at the end (or deadline), and reported.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LocalWorkspaceBackend } from '../src/index.js';

let root = '';

/** Live (non-zombie) processes whose command line contains `token`. */
function alive(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline.includes(token) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function settle(token: string): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (alive(token).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return alive(token);
}

const tokens: string[] = [];
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'a3s-escape-')));
});
afterEach(async () => {
  // Clean up after a failing run: by pid, only the processes this test started.
  for (const token of tokens.splice(0)) for (const pid of alive(token)) process.kill(pid, 'SIGKILL');
  await rm(root, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('descendants that leave the process group', () => {
  let counter = 0;
  const token = (): string => {
    counter += 1;
    const value = `${3000 + counter}.${process.pid % 1000}`;
    tokens.push(`sleep ${value}`);
    return value;
  };

  // Each payload waits for a flag its escaped child writes after leaving the group, so the call
  // cannot end (and kill the group) before the child has really escaped.
  const WAIT = 'while [ ! -e escaped.flag ]; do sleep 0.01; done; echo started';
  const child = (t: string): string => `sh -c 'touch escaped.flag; exec sleep ${t}'`;
  it.each([
    ['setsid in the background', (t: string) => `setsid ${child(t)} & ${WAIT}`],
    ['setsid -f', (t: string) => `setsid -f ${child(t)}; ${WAIT}`],
    ['setsid from a subshell', (t: string) => `(setsid ${child(t)} &); ${WAIT}`],
    ['nohup setsid with redirected output', (t: string) => `nohup setsid ${child(t)} >/dev/null 2>&1 & ${WAIT}`],
    ['a double fork through a second shell', (t: string) => `bash -c "setsid sh -c 'touch escaped.flag; exec sleep ${t}' >/dev/null 2>&1 &"; ${WAIT}`],
  ])('%s is killed when the call ends, and reported', async (_name, command) => {
    const t = token();
    const backend = new LocalWorkspaceBackend(root);
    const result = await backend.exec({ command: command(t), timeoutMs: 30_000 });
    expect(result.stdout).toContain('started');
    expect(await settle(`sleep ${t}`)).toEqual([]);
    expect(result.killedEscapedProcesses?.length ?? 0).toBeGreaterThan(0);
    await backend.close();
  });

  it('is killed at the deadline of a call that times out', async () => {
    const t = token();
    const backend = new LocalWorkspaceBackend(root, { killGraceMs: 100 });
    const result = await backend.exec({ command: `setsid sleep ${t} & sleep 60`, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(await settle(`sleep ${t}`)).toEqual([]);
    await backend.close();
  });
});
