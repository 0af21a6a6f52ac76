import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { RELAY_LIMIT_BYTES } from './spawn-helper-source.js';
import { helperPid, spawnThroughHelper } from './spawn-helper.js';
import type { HelperChild } from './spawn-helper.js';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
// Through the helper whatever this worker's size (a host smaller than SPAWN_HELPER_MIN_RSS_MB forks itself).
process.env['A3S_SPAWN_HELPER_MIN_RSS_MB'] = '0';

function collectBytes(child: HelperChild): Promise<{ out: Buffer; err: Buffer; code: unknown }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => void out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => void err.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('close', (code: unknown) => resolve({ out: Buffer.concat(out), err: Buffer.concat(err), code }));
    child.once('error', reject);
  });
}

function collect(child: HelperChild): Promise<{ out: string; err: string; code: unknown; error?: string }> {
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  return new Promise((resolve) => {
    child.once('close', (code: unknown) => resolve({ out, err, code }));
    child.once('error', (error: Error & { code?: string }) => resolve({ out, err, code: null, error: error.code ?? error.message }));
  });
}

const viaHelper = async (): Promise<void> => {
  // The first call starts the helper (and spawns directly); later ones go through it once it runs.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const child = spawnThroughHelper('/bin/sh', ['-c', 'exit 0'], { cwd: '/', env });
    await collect(child);
    if (child.constructor.name === 'HelperChildImpl') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the spawn helper never came up');
};

describe.runIf(process.platform === 'linux')('spawnThroughHelper', () => {
  it('forks directly while the host is smaller than the threshold and no helper runs', async () => {
    // Runs first in this file: nothing has started the helper yet.
    process.env['A3S_SPAWN_HELPER_MIN_RSS_MB'] = String(Number.MAX_SAFE_INTEGER);
    try {
      for (let call = 0; call < 3; call += 1) {
        const child = spawnThroughHelper('/bin/sh', ['-c', 'echo $PPID'], { cwd: '/', env });
        const { out, code } = await collect(child);
        expect(code).toBe(0);
        expect(child.constructor.name).toBe('ChildProcess');
        expect(Number(out.trim())).toBe(process.pid);
      }
      expect(helperPid()).toBeUndefined();
    } finally {
      process.env['A3S_SPAWN_HELPER_MIN_RSS_MB'] = '0';
    }
  });

  it('hands over every byte of stdout and stderr and the exit code, for many children at once', async () => {
    await viaHelper();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => collect(spawnThroughHelper('/bin/sh', ['-c', `head -c ${1000 * index} /dev/zero | tr '\\0' x; echo err${index} >&2; exit ${index % 4}`], { cwd: '/', env }))),
    );
    results.forEach((result, index) => {
      expect(result).toEqual({ out: 'x'.repeat(1000 * index), err: `err${index}\n`, code: index % 4 });
    });
  });

  // Up to RELAY_LIMIT_BYTES a stream comes as messages, the rest through its pipe: every byte
  // value, in order, on both streams, on either side of the switch.
  it.each([
    ['below the relay limit', 3_000],
    ['past the relay limit (the pipe is handed over)', RELAY_LIMIT_BYTES * 3 + 17],
  ])('hands over binary output exactly, %s', async (_name, size) => {
    await viaHelper();
    const script = `head -c ${size} /dev/urandom > out.bin; head -c ${Math.floor(size / 3)} /dev/urandom > err.bin; cat out.bin; cat err.bin >&2; exit 5`;
    const dir = mkdtempSync(join(tmpdir(), 'a3s-relay-'));
    try {
      const result = await collectBytes(spawnThroughHelper('/bin/sh', ['-c', script], { cwd: dir, env }));
      expect(result.code).toBe(5);
      expect(result.out.equals(readFileSync(join(dir, 'out.bin')))).toBe(true);
      expect(result.err.equals(readFileSync(join(dir, 'err.bin')))).toBe(true);
      expect(result.out.length).toBe(size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a command that cannot start, and stops a killed child', async () => {
    await viaHelper();
    expect((await collect(spawnThroughHelper('/nonexistent/binary', [], { cwd: '/', env }))).error).toBe('ENOENT');
    const child = spawnThroughHelper('/bin/sh', ['-c', 'exec yes'], { cwd: '/', env });
    let bytes = 0;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      // Reading goes on until the kill lands: a pipe closed here would end `yes` by EPIPE first.
      if (bytes > 100_000) child.kill('SIGKILL');
    });
    expect(await closed).toBeNull();
    expect(bytes).toBeGreaterThan(100_000);
  });
});
