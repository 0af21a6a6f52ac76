// Programmatic tool calling benchmark (packages/ptc). Measures, in one run:
// - cold start: the first program in a fresh child process (module import, VM worker start with
//   its WASM load, run; from source the worker also loads tsx);
// - warm start: median of a trivial program once the WASM module is loaded;
// - ctx call cost: one program making 1000 awaited ctx.tool calls of a fake tool, per call,
//   against 1000 direct awaited calls of the same fake tool function on the host (each ctx call
//   is a round trip between the VM worker thread and this thread);
// - hard deadline: how far past its timeout a program spinning in long built-ins
//   (`for(;;) new Array(1e5).fill(0)`) ends, and the longest stall of this thread's event loop
//   meanwhile (a 5 ms interval's largest gap; the VM runs in a worker, so it should stay small).
// Targets: warm start <= 5 ms, <= 0.2 ms per ctx call, deadline overshoot <= 500 ms.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/ptc.bench.ts
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { ToolResult } from '../packages/core/src/index.js';
import { runProgram } from '../packages/ptc/src/index.js';
import type { ProgramRunRequest } from '../packages/ptc/src/index.js';
import { watchEventLoop } from '../packages/ptc/test/loop-watch.js';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const fakeTool = async (args: unknown): Promise<ToolResult> => ({ name: 'echo', output: String((args as { text?: string }).text ?? ''), exitCode: 0 });

function request(source: string, maxToolCalls = 20): ProgramRunRequest {
  return { source, inputs: {}, limits: { timeoutMs: 30_000, maxToolCalls, maxOutputBytes: 65_536 }, allowedTools: new Set(['echo']), invoke: (_tool, args) => fakeTool(args) };
}

async function expectOk(source: string, maxToolCalls?: number): Promise<void> {
  const outcome = await runProgram(request(source, maxToolCalls));
  if (outcome.error !== undefined) throw new Error(`bench program failed: ${outcome.error.code} ${outcome.error.message}`);
}

// Cold start, measured in fresh child processes.
const childSource = `
const t0 = performance.now();
const { runProgram } = await import(${JSON.stringify(new URL('../packages/ptc/src/index.ts', import.meta.url).href)});
const t1 = performance.now();
const outcome = await runProgram({ source: 'export default () => 1', inputs: {}, limits: { timeoutMs: 30000, maxToolCalls: 1, maxOutputBytes: 1024 }, allowedTools: new Set(), invoke: async () => ({ name: 'x', output: '', exitCode: 0 }) });
const t2 = performance.now();
if (outcome.error) throw new Error(outcome.error.code);
console.log(JSON.stringify({ importMs: t1 - t0, firstRunMs: t2 - t1 }));
`;
const cold: { importMs: number; firstRunMs: number }[] = [];
for (let index = 0; index < 3; index += 1) {
  const out = execFileSync(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', '--input-type=module', '-e', childSource], { encoding: 'utf8' });
  cold.push(JSON.parse(out.trim().split('\n').pop() ?? '{}') as { importMs: number; firstRunMs: number });
}

// Warm start.
for (let index = 0; index < 30; index += 1) await expectOk('export default () => 1');
const warm: number[] = [];
for (let index = 0; index < 200; index += 1) {
  const start = performance.now();
  await expectOk('export default () => 1');
  warm.push(performance.now() - start);
}

// 1000 awaited ctx calls vs 1000 direct awaited calls.
const loop = 'export default async (ctx) => { for (let i = 0; i < 1000; i++) await ctx.tool("echo", { text: "x" }); return 1 }';
await expectOk(loop, 1000);
const programRounds: number[] = [];
const directRounds: number[] = [];
for (let round = 0; round < 7; round += 1) {
  let start = performance.now();
  await expectOk(loop, 1000);
  programRounds.push(performance.now() - start);
  start = performance.now();
  for (let index = 0; index < 1000; index += 1) await fakeTool({ text: 'x' });
  directRounds.push(performance.now() - start);
}

// Hard deadline: a program whose every step is a long built-in the interrupt handler barely sees.
const DEADLINE_MS = 300;
const overshoots: number[] = [];
const gaps: number[] = [];
for (let round = 0; round < 5; round += 1) {
  const loop = watchEventLoop(5);
  const start = performance.now();
  const outcome = await runProgram({ ...request('export default function run() { for(;;){ new Array(1e5).fill(0) } }'), limits: { timeoutMs: DEADLINE_MS, maxToolCalls: 1, maxOutputBytes: 1024 } });
  overshoots.push(performance.now() - start - DEADLINE_MS);
  loop.stop();
  gaps.push(loop.longestGapMs);
  if (outcome.error?.code !== 'PROGRAM_TIMEOUT') throw new Error(`bench spin program: expected PROGRAM_TIMEOUT, got ${outcome.error?.code ?? 'a result'}`);
  // The terminated worker is replaced in the background; let that settle before the next round.
  await expectOk('export default () => 1');
}

// Reference: a bare postMessage round trip to an echoing worker thread, the floor of a ctx call.
const echoWorker = new Worker("require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m))", { eval: true });
const roundTrips: number[] = [];
for (let round = 0; round < 7; round += 1) {
  const start = performance.now();
  for (let index = 0; index < 1000; index += 1) {
    await new Promise((resolve) => {
      echoWorker.once('message', resolve);
      echoWorker.postMessage({ type: 'result', callId: index, result: { name: 'echo', output: 'x', exitCode: 0 } });
    });
  }
  roundTrips.push(performance.now() - start);
}
await echoWorker.terminate();

const warmMs = median(warm);
const perCallMs = (median(programRounds) - warmMs) / 1000;
const directPerCallMs = median(directRounds) / 1000;
console.log('ptc benchmark');
console.log(`  cold start (fresh process): import ${median(cold.map((c) => c.importMs)).toFixed(1)} ms + first program ${median(cold.map((c) => c.firstRunMs)).toFixed(1)} ms`);
console.log(`  warm start (median of ${warm.length}): ${warmMs.toFixed(3)} ms (target <= 5 ms) ratio to target ${(warmMs / 5).toFixed(2)}`);
console.log(`  1000 awaited ctx calls: ${median(programRounds).toFixed(1)} ms per program; ${(perCallMs * 1000).toFixed(1)} µs per call (target <= 200 µs)`);
console.log(`  1000 direct awaited calls: ${median(directRounds).toFixed(3)} ms; ${(directPerCallMs * 1000).toFixed(2)} µs per call`);
console.log(`  ratio ctx call / direct call: ${(perCallMs / directPerCallMs).toFixed(0)}x`);
const roundTripMs = median(roundTrips) / 1000;
console.log(`  bare worker postMessage round trip (floor of a ctx call): ${(roundTripMs * 1000).toFixed(1)} µs; ratio ctx call / round trip ${(perCallMs / roundTripMs).toFixed(2)}x`);
console.log(
  `  hard deadline (built-in loop, ${DEADLINE_MS} ms timeout, median of ${overshoots.length}): ended ${median(overshoots).toFixed(0)} ms past it (target <= 500 ms, worst ${Math.max(...overshoots).toFixed(0)} ms); host event loop longest gap ${median(gaps).toFixed(0)} ms (5 ms interval)`,
);
