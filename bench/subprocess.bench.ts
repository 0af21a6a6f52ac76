// What one tool call costs the host, stage by stage (issue 36, round 4): a bash call and a
// read / grep / edit call through a real LocalWorkspaceBackend, each stage measured alone in the
// same run, interleaved, against the plainest reference (`execFile('bash', ['-c', 'echo ok'])`,
// `fs.readFile`). Per stage: median wall time and median host CPU (this process's
// `process.cpuUsage()` across the call: main thread and thread pool; the spawn helper and the
// commands are other processes, their CPU is not in it; the helper's is printed separately).
// Stages of a bash call:
//   execFile         bash -c 'echo ok' forked by this process (the floor's way, no helper)
//   bwrap execFile   our bubblewrap argv of that command, forked by this process (the namespaces)
//   helper hand-off  spawnThroughHelper: spawn message, the helper's fork, the pipes, the exit
//   sweep            the marker sweep of the end of a call (a /proc scan in the helper), every process read
//   sweep (window)   the same for a call whose leader is the newest process (what a call's sweep reads)
// Then the sweep in this process with A3S_BENCH_SWEEP_EXTRA (default 300) more processes on the
// machine (a desktop's count): every process read against the window's few.
//   runProcess       hand-off + capture + group kill + sweep, sandbox off
//   sandbox prep     ProcessSandbox.wrap + hooks paths + absent protected paths, before and after
//   exec off / on    LocalWorkspaceBackend.exec, sandbox off / required
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/subprocess.bench.ts
// Env: A3S_BENCH_RUNS (default 40).
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { ProcessSandbox, buildChildEnv, confinePath, probeBubblewrap, runProcess } from '../packages/local/src/internal.js';
import { helperPid, spawnThroughHelper } from '../packages/local/src/search/spawn-helper.js';
import { sweepFirstPid } from '../packages/core/src/util.js';
import { HOST_PROCESS_TABLE, newProcessMarker, sweepAfterCall, sweepMarkedProcessesNow, tasksCreatedNow } from '../packages/local/src/process-sweep.js';
import { HooksPathsReader } from '../packages/local/src/hooks-paths.js';
import { guardAbsentProtectedPaths } from '../packages/local/src/sandbox/protected-creation.js';
import { WorkspaceListing } from '../packages/local/src/sandbox/workspace-listing.js';

const RUNS = Number(process.env['A3S_BENCH_RUNS'] ?? 40);
const SWEEP_EXTRA = Number(process.env['A3S_BENCH_SWEEP_EXTRA'] ?? 300);

/** The window of a call whose leader is the newest process of the machine (see `SweepWindow`). */
function windowNow(): { leaderPid: number; tasksCreatedBefore: number } | undefined {
  const tasks = tasksCreatedNow();
  return tasks === null ? undefined : { leaderPid: Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ')[4]), tasksCreatedBefore: tasks };
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** CPU time (ms) of process `pid` so far, from /proc (0 when it is gone). */
function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

interface Sample {
  readonly wall: number;
  readonly cpu: number;
  readonly helper: number;
}

async function measure(body: () => Promise<unknown>): Promise<Sample> {
  const helperBefore = cpuOf(helperPid());
  const cpu = process.cpuUsage();
  const start = performance.now();
  await body();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, helper: cpuOf(helperPid()) - helperBefore };
}

const exec1 = (file: string, args: readonly string[], cwd: string): Promise<string> =>
  new Promise((resolve, reject) => execFile(file, [...args], { cwd }, (error, stdout) => (error === null ? resolve(stdout) : reject(error))));

const until = (child: ReturnType<typeof spawnThroughHelper>): Promise<void> =>
  new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => resolve());
  });

const base = await realpath(await mkdtemp(join(tmpdir(), 'a3s-subprocess-bench-')));
try {
  await writeFile(join(base, 'a.ts'), `export const a = 1;\n// TODO: first\n// TODO: second\n${'export const filler = "x";\n'.repeat(40)}`);
  await writeFile(join(base, 'b.ts'), '// TODO: b\nexport const b = 2;\n');
  const probe = probeBubblewrap();
  const off = new LocalWorkspaceBackend(base, { sandbox: { mode: 'off' } });
  const on = probe.ok ? new LocalWorkspaceBackend(base, { sandbox: { mode: 'required' } }) : null;
  const sandbox = probe.ok ? new ProcessSandbox({ mode: 'required' }) : null;
  const hooks = new HooksPathsReader();
  const env = buildChildEnv();
  const spec = { file: 'bash', args: ['-c', 'echo ok'], cwd: base };
  const wrapped = sandbox === null ? null : await sandbox.wrap(spec, base, []);
  let edits = 0;

  const stages: Record<string, () => Promise<unknown>> = {
    'execFile bash': () => exec1('bash', ['-c', 'echo ok'], base),
    ...(wrapped === null ? {} : { 'bwrap execFile': () => exec1(wrapped.file, wrapped.args, base) }),
    'helper hand-off': () => until(spawnThroughHelper('bash', ['-c', 'echo ok'], { cwd: base, env, detached: true })),
    sweep: () => sweepAfterCall(newProcessMarker(), -1),
    'sweep (window)': () => sweepAfterCall(newProcessMarker(), -1, windowNow()),
    runProcess: () => runProcess({ ...spec, env, timeoutMs: 30_000 }),
    ...(sandbox === null
      ? {}
      : {
          'sandbox prep': async () => {
            const [, revert] = await Promise.all([hooks.read(base).then((paths) => sandbox.wrap(spec, base, paths)), guardAbsentProtectedPaths(new WorkspaceListing(base))]);
            await revert();
          },
        }),
    'exec off': () => off.exec({ command: 'echo ok', timeoutMs: 30_000 }),
    ...(on === null ? {} : { 'exec on': () => on.exec({ command: 'echo ok', timeoutMs: 30_000 }) }),
    'fs.readFile': () => readFile(join(base, 'a.ts')),
    confinePath: () => confinePath(base, 'a.ts'),
    'read (backend)': () => off.readFile({ path: 'a.ts' }),
    'grep (backend)': () => off.search({ pattern: 'TODO', outputMode: 'content', limit: 100 }),
    'edit (backend)': async () => {
      const file = await off.readFile({ path: 'b.ts' });
      edits += 1;
      await off.writeFile({ path: 'b.ts', content: `// TODO: b\nexport const b = ${edits};\n`, ...(file === null ? {} : { expectedVersion: file.version }) });
    },
  };

  // Warm-up: the helper starts on the first spawn, modules compile.
  for (let round = 0; round < 3; round += 1) for (const body of Object.values(stages)) await body();
  const samples = new Map<string, Sample[]>(Object.keys(stages).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) {
    gc();
    for (const [name, body] of Object.entries(stages)) samples.get(name)?.push(await measure(body));
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${RUNS} runs per stage, interleaved; load average ${load}; bubblewrap ${probe.ok ? probe.path : `unavailable (${probe.reason})`}`);
  console.log('stage              wall median   host CPU median   helper CPU (sum / runs)');
  const reference = median((samples.get('execFile bash') ?? []).map((sample) => sample.wall));
  for (const [name, list] of samples) {
    const wall = median(list.map((sample) => sample.wall));
    const helper = list.reduce((sum, sample) => sum + sample.helper, 0) / list.length;
    const ratio = name.startsWith('exec') || name === 'runProcess' || name.startsWith('helper') || name.startsWith('bwrap') ? `  (${(wall / reference).toFixed(2)}x execFile)` : '';
    console.log(`${name.padEnd(18)} ${wall.toFixed(2).padStart(8)} ms   ${median(list.map((sample) => sample.cpu)).toFixed(3).padStart(9)} ms   ${helper.toFixed(2).padStart(6)} ms${ratio}`);
  }
  // The scan's cost grows with the machine's processes; the window's does not.
  const sleepers: ChildProcess[] = [];
  for (let index = 0; index < SWEEP_EXTRA; index += 1) sleepers.push(spawn('sleep', ['120'], { stdio: 'ignore' }));
  await Promise.all(sleepers.map((child) => new Promise((resolve) => child.once('spawn', resolve).once('error', resolve))));
  // What a call's sweep costs: its first pid read from /proc, then the scan from it.
  const timeSweep = (window: ReturnType<typeof windowNow>): number => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const marker = newProcessMarker();
      const at = performance.now();
      sweepMarkedProcessesNow(marker, -1, window === undefined ? 0 : sweepFirstPid(HOST_PROCESS_TABLE, window));
      times.push(performance.now() - at);
    }
    return median(times);
  };
  timeSweep(undefined);
  const processes = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).length;
  const full = timeSweep(undefined);
  const windowed = timeSweep(windowNow());
  for (const child of sleepers) child.kill('SIGKILL');
  console.log(`sweep in this process, ${processes} processes on the machine: every process read ${full.toFixed(3)} ms, the window's ${windowed.toFixed(3)} ms (${(windowed / full).toFixed(2)}x)`);
  await off.close();
  await on?.close();
} finally {
  await rm(base, { recursive: true, force: true });
}
