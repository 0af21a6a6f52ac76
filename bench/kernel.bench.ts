// Kernel overhead benchmark: a no-op tool invoked through the whole governed pipeline
// (InvocationKernel, origin `agent`, a permission policy that allows it, default redaction and
// artifact store, events emitted) versus a direct call of the same async function, measured in
// the same run. Prints median ns per call, the overhead in µs, bytes allocated per call and the
// ratio. Targets: overhead <= 20 µs, <= 4 KB allocated per call.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/kernel.bench.ts
import { performance } from 'node:perf_hooks';
import type { AgentEvent, Tool, ToolContext, ToolOutput } from '../packages/core/src/index.js';
import { InvocationKernel, ToolRegistry } from '../packages/core/src/kernel.js';
import { MemoryWorkspaceBackend } from '../packages/core/src/testing/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('run with --expose-gc');
  process.exit(1);
}

const noopExecute = async (_args: Record<string, unknown>, _context: ToolContext): Promise<ToolOutput> => ({ output: 'ok' });
const noop: Tool = {
  name: 'noop',
  description: 'does nothing',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: noopExecute,
};

let events = 0;
let lastEvent: AgentEvent | undefined;
const kernel = new InvocationKernel({
  registry: new ToolRegistry([noop]),
  workspace: new MemoryWorkspaceBackend(),
  sessionId: 'bench',
  emit: (event) => {
    events += 1;
    lastEvent = event;
  },
  permissionPolicy: { allow: ['noop'], defaultDecision: 'deny' },
});
const args = {};
const fakeContext = {} as ToolContext;

async function viaKernel(): Promise<unknown> {
  return kernel.invoke({ toolName: 'noop', args, origin: 'agent' });
}
async function direct(): Promise<unknown> {
  return noop.execute(args, fakeContext);
}

async function timeRound(fn: () => Promise<unknown>, calls: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) await fn();
  return ((performance.now() - start) * 1e6) / calls;
}

/** Bytes allocated per call: median over small batches that start from a collected heap. */
async function bytesPerCall(fn: () => Promise<unknown>, batches: number, calls: number): Promise<number> {
  const samples: number[] = [];
  for (let b = 0; b < batches; b += 1) {
    gc!();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i += 1) await fn();
    const after = process.memoryUsage().heapUsed;
    samples.push((after - before) / calls);
  }
  return median(samples);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const check = (await viaKernel()) as { exitCode: number };
if (check.exitCode !== 0) throw new Error(`kernel call failed: ${JSON.stringify(check)}`);

// Warm up both paths so the JIT has settled before measuring.
for (let i = 0; i < 30_000; i += 1) {
  await viaKernel();
  await direct();
}

const ROUNDS = 21;
const CALLS = 20_000;
const kernelNs: number[] = [];
const directNs: number[] = [];
for (let r = 0; r < ROUNDS; r += 1) {
  // Interleaved so machine noise hits both sides alike.
  directNs.push(await timeRound(direct, CALLS));
  kernelNs.push(await timeRound(viaKernel, CALLS));
}
const kernelMedian = median(kernelNs);
const directMedian = median(directNs);
const kernelBytes = await bytesPerCall(viaKernel, 41, 200);
const directBytes = await bytesPerCall(direct, 41, 200);
const overheadUs = (kernelMedian - directMedian) / 1000;
const overheadBytes = kernelBytes - directBytes;

console.log(`kernel.invoke (agent, policy allow, no hooks): median ${kernelMedian.toFixed(0)} ns/call, ${kernelBytes.toFixed(0)} B/call`);
console.log(`direct async call:                            median ${directMedian.toFixed(0)} ns/call, ${directBytes.toFixed(0)} B/call`);
console.log(`overhead: ${overheadUs.toFixed(2)} µs/call, ${overheadBytes.toFixed(0)} B/call allocated; ratio kernel/direct ${(kernelMedian / directMedian).toFixed(1)}x`);
console.log(`targets: overhead <= 20 µs -> ${overheadUs <= 20 ? 'met' : 'MISSED'}; allocation <= 4096 B -> ${overheadBytes <= 4096 ? 'met' : 'MISSED'}`);
console.log(`(events emitted: ${events}; last: ${lastEvent?.type})`);
