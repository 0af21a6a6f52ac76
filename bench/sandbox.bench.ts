// Per-call overhead of the OS sandbox (issue 31): the same `bash` calls through a
// LocalWorkspaceBackend with `sandbox: { mode: 'required' }` and with `mode: 'off'`, in the same
// run, interleaved: `true`, `ls`, `git status` in a small git repository. Prints medians, p90 and
// the difference per call (target <= 15 ms). Also the one-time startup probe.
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/sandbox.bench.ts
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { probeBubblewrap } from '../packages/local/src/internal.js';

const RUNS = Number(process.env['A3S_BENCH_RUNS'] ?? 40);
const started = performance.now();
const probe = probeBubblewrap();
const probeMs = performance.now() - started;
if (!probe.ok) {
  console.log(`sandbox bench skipped: ${probe.reason}`);
  process.exit(0);
}

const base = await mkdtemp(join(tmpdir(), 'a3s-sandbox-bench-'));
try {
  for (let i = 0; i < 50; i += 1) await writeFile(join(base, `file-${i}.txt`), `line ${i}\n`);
  execFileSync('git', ['init', '-q', base]);
  execFileSync('git', ['-C', base, 'add', '-A']);
  execFileSync('git', ['-C', base, '-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'bench']);
  const boxed = new LocalWorkspaceBackend(base, { sandbox: { mode: 'required' } });
  const plain = new LocalWorkspaceBackend(base, { sandbox: { mode: 'off' } });

  const time = async (backend: LocalWorkspaceBackend, command: string): Promise<number> => {
    const start = performance.now();
    const result = await backend.exec({ command, timeoutMs: 30_000 });
    const ms = performance.now() - start;
    if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.stderr}`);
    return ms;
  };
  const stats = (values: number[]): { median: number; p90: number } => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)] as number, p90: sorted[Math.floor(sorted.length * 0.9)] as number };
  };

  console.log(`bubblewrap ${probe.path}; startup probe (once per process): ${probeMs.toFixed(1)} ms; ${RUNS} runs per cell, interleaved`);
  console.log('command       unsandboxed median/p90    sandboxed median/p90    overhead (median)');
  for (const command of ['true', 'ls', 'git status']) {
    await time(plain, command);
    await time(boxed, command);
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      (globalThis as { gc?: () => void }).gc?.();
      off.push(await time(plain, command));
      on.push(await time(boxed, command));
    }
    const a = stats(off);
    const b = stats(on);
    const overhead = b.median - a.median;
    console.log(
      `${command.padEnd(12)}  ${a.median.toFixed(1).padStart(7)} / ${a.p90.toFixed(1).padEnd(7)} ms      ${b.median.toFixed(1).padStart(7)} / ${b.p90.toFixed(1).padEnd(7)} ms    ${overhead >= 0 ? '+' : ''}${overhead.toFixed(1)} ms ${overhead <= 15 ? '(<= 15 ms target)' : '(OVER the 15 ms target)'}`,
    );
  }
  await boxed.close();
  await plain.close();
} finally {
  await rm(base, { recursive: true, force: true });
}
