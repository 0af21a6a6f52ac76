// Telemetry overhead of the kernel (issue 33): the no-op tool of kernel.bench.ts through the whole
// governed pipeline, in four set-ups measured in the same process, interleaved:
//   none      the kernel without a telemetry seam (what a kernel built without sessions pays);
//   noprov    a session's telemetry with no provider registered (the SDK default in a host
//             without OpenTelemetry): one run started, every call asks the seam and gets `null`;
//   sdk       an OpenTelemetry SDK TracerProvider with a no-op exporter: an `execute_tool` span
//             per call under the run's span;
//   direct    the tool's execute called directly (the floor).
// Prints median ns per call and bytes allocated per call. Targets: noprov - none <= 1 µs.
// Compare `none` with kernel.bench.ts on the commit before the change for "vs before".
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/telemetry.bench.ts
import { performance } from 'node:perf_hooks';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { DefaultSecurityProvider } from '../packages/core/src/index.js';
import type { Tool, ToolContext, ToolOutput } from '../packages/core/src/index.js';
import { InvocationKernel, ToolRegistry } from '../packages/core/src/kernel.js';
import { loadOtelApi } from '../packages/runtime/src/telemetry/otel-api.js';
import { SessionTelemetry } from '../packages/runtime/src/telemetry/session-telemetry.js';
import { MemoryWorkspaceBackend } from '../packages/core/src/testing/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('run with --expose-gc');
  process.exit(1);
}

const noopExecute = async (_args: Record<string, unknown>, _context: ToolContext): Promise<ToolOutput> => ({ output: 'ok' });
const noop: Tool = { name: 'noop', description: 'does nothing', parameters: { type: 'object', properties: {}, additionalProperties: false }, execute: noopExecute };

let exported = 0;
const noopExporter: SpanExporter = {
  export: (spans: ReadableSpan[], done) => {
    exported += spans.length;
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};

function telemetry(options: ConstructorParameters<typeof TracerProvider>[0] | null): SessionTelemetry {
  const created = SessionTelemetry.create(options === null ? {} : { tracerProvider: new TracerProvider(options) }, {
    sessionId: 'bench',
    agentName: 'bench',
    provider: 'anthropic',
    model: 'bench-model',
    security: new DefaultSecurityProvider(),
  });
  created!.startRun('run_bench', 'send');
  return created!;
}

function kernelWith(seam: SessionTelemetry | null): InvocationKernel {
  return new InvocationKernel({
    registry: new ToolRegistry([noop]),
    workspace: new MemoryWorkspaceBackend(),
    sessionId: 'bench',
    emit: () => undefined,
    permissionPolicy: { allow: ['noop'], defaultDecision: 'deny' },
    ...(seam === null ? {} : { telemetry: seam }),
  });
}

await loadOtelApi();
const kernels = {
  none: kernelWith(null),
  noprov: kernelWith(telemetry(null)),
  sdk: kernelWith(telemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter: noopExporter })] })),
};
const args = {};
const fakeContext = {} as ToolContext;
const calls: Record<string, () => Promise<unknown>> = {
  direct: () => noop.execute(args, fakeContext),
  none: () => kernels.none.invoke({ toolName: 'noop', args, origin: 'agent' }),
  noprov: () => kernels.noprov.invoke({ toolName: 'noop', args, origin: 'agent' }),
  sdk: () => kernels.sdk.invoke({ toolName: 'noop', args, origin: 'agent' }),
};

async function timeRound(fn: () => Promise<unknown>, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i += 1) await fn();
  return ((performance.now() - start) * 1e6) / count;
}

async function bytesPerCall(fn: () => Promise<unknown>, batches: number, count: number): Promise<number> {
  const samples: number[] = [];
  for (let b = 0; b < batches; b += 1) {
    gc!();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < count; i += 1) await fn();
    samples.push((process.memoryUsage().heapUsed - before) / count);
  }
  return median(samples);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

for (const [name, fn] of Object.entries(calls)) {
  const result = (await fn()) as { exitCode?: number; output?: string };
  if (name !== 'direct' && result.exitCode !== 0) throw new Error(`${name}: ${JSON.stringify(result)}`);
}
for (let i = 0; i < 20_000; i += 1) for (const fn of Object.values(calls)) await fn();

const ROUNDS = 21;
const CALLS = 10_000;
const ns: Record<string, number[]> = { direct: [], none: [], noprov: [], sdk: [] };
for (let r = 0; r < ROUNDS; r += 1) for (const [name, fn] of Object.entries(calls)) ns[name]!.push(await timeRound(fn, CALLS));
const result: Record<string, { ns: number; bytes: number }> = {};
for (const [name, fn] of Object.entries(calls)) result[name] = { ns: median(ns[name]!), bytes: await bytesPerCall(fn, 31, 200) };

const row = (name: string, label: string): string => `${label.padEnd(44)} median ${result[name]!.ns.toFixed(0).padStart(6)} ns/call, ${result[name]!.bytes.toFixed(0).padStart(5)} B/call`;
console.log(row('direct', 'direct async call'));
console.log(row('none', 'kernel, no telemetry seam'));
console.log(row('noprov', 'kernel, session telemetry, no provider'));
console.log(row('sdk', 'kernel, SDK TracerProvider + no-op exporter'));
const noProvider = (result['noprov']!.ns - result['none']!.ns) / 1000;
const sdk = (result['sdk']!.ns - result['none']!.ns) / 1000;
console.log(`no provider vs no seam: ${noProvider.toFixed(2)} µs/call, ${(result['noprov']!.bytes - result['none']!.bytes).toFixed(0)} B/call -> target <= 1 µs ${noProvider <= 1 ? 'met' : 'MISSED'}`);
console.log(`SDK provider vs no seam: ${sdk.toFixed(2)} µs/call, ${(result['sdk']!.bytes - result['none']!.bytes).toFixed(0)} B/call (one span per call; spans exported: ${exported})`);
