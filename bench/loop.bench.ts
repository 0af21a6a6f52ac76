// Agent loop benchmark (packages/runtime/src/session + packages/sdk + packages/anthropic). Measures, in one run:
// - per-turn overhead: a scripted 50-turn session (one `read` per turn, then a final answer) through
//   `Agent.create(inlineAcl)` + `session.send()`, against a bare loop driving @anthropic-ai/sdk
//   directly with the same system prompt, the same tool definitions and the same `read` tool
//   implementation over a LocalWorkspaceBackend. Same scripted server, zero latency. Target <= 1.3x.
// - first request latency: in a warm process, `Agent.create(...)` -> the first request arriving at
//   the scripted server (taken inside the scenario function). Target <= 150 ms.
//   For information, the same in a fresh process (cold), from process start and from Agent.create.
// - memory: a child process holding 100 idle sessions (each after one short send). Target <= 150 MB RSS.
//   Children run twice: TypeScript sources through tsx (as `pnpm bench` runs), and a plain-JS
//   esbuild bundle of this file under bare `node` (what a host running built packages sees).
// - first request body size: total, system prompt alone, tool definitions alone.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/loop.bench.ts
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Anthropic from '../packages/anthropic/node_modules/@anthropic-ai/sdk/index.mjs';
import type { ToolContext, ToolDefinition } from '../packages/core/src/index.js';
import { LocalWorkspaceBackend } from '../packages/local/src/index.js';
import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse, toolCallResponse } from '../packages/testing/src/index.js';
import type { ScenarioFunction, ScriptedModelServer } from '../packages/testing/src/index.js';
import { createReadTool } from '../packages/tools/src/index.js';
import { compareFixTheBug } from './fix-the-bug/compare.js';

const TOOL_TURNS = 50;
const FILE_COUNT = 10;
const REPEATS = 15;
const WARMUP = 4;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function aclFor(server: ScriptedModelServer): string {
  return `
default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`;
}

function createWorkspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-loop-bench-')));
  for (let i = 0; i < FILE_COUNT; i += 1) {
    writeFileSync(join(dir, `file${i}.ts`), `// module ${i}\nexport const value${i} = ${i};\nexport function f${i}(x: number): number {\n  return x + ${i};\n}\n`);
  }
  return dir;
}

/** 50 turns each reading a different file than the turn before (the duplicate-call guard stays quiet), then an answer. */
function fiftyReads(): ScenarioFunction {
  return (_request, index) => (index < TOOL_TURNS ? toolCallResponse('read', { file_path: `file${index % FILE_COUNT}.ts` }) : textResponse('Read every file.'));
}

// ---- child modes: 100 idle sessions (memory), cold first request ----------------------------------

if (process.env['A3S_LOOP_BENCH_CHILD'] === 'cold') {
  // performance.now() counts from process start: node boot, the loader and every static import above.
  let arrived = 0;
  const server = await startScriptedModelServer({
    scenario: () => {
      arrived = performance.now();
      return textResponse('hi');
    },
  });
  const dir = createWorkspace();
  const created = performance.now();
  const agent = await Agent.create(aclFor(server));
  await agent.session(dir).send('hello');
  console.log(JSON.stringify({ startToCreateMs: created, createToRequestMs: arrived - created }));
  await agent.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

if (process.env['A3S_LOOP_BENCH_CHILD'] === 'rss') {
  const gc = (globalThis as { gc?: () => void }).gc;
  const server = await startScriptedModelServer({ scenario: () => textResponse('ok') });
  const dir = createWorkspace();
  const agent = await Agent.create(aclFor(server));
  // Baseline: modules loaded, agent created, one session used and closed (lazy module state warmed).
  const warm = agent.session(dir);
  await warm.send('hello');
  await warm.closeAsync();
  server.clearRequests();
  gc?.();
  gc?.();
  const baseline = process.memoryUsage();
  const sessions = [];
  for (let i = 0; i < 100; i += 1) {
    const session = agent.session(dir);
    await session.send(`hello ${i}`);
    sessions.push(session);
  }
  server.clearRequests();
  gc?.();
  gc?.();
  const after = process.memoryUsage();
  console.log(JSON.stringify({ sessions: sessions.length, baselineRss: baseline.rss, baselineHeap: baseline.heapUsed, rss: after.rss, heapUsed: after.heapUsed }));
  await agent.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// ---- parent mode --------------------------------------------------------------------------------

const server = await startScriptedModelServer({ scenario: [] });
const dir = createWorkspace();

interface Timing {
  readonly wallMs: number;
  /** CPU time of this process (client, tools AND the in-process scripted server), ms. */
  readonly cpuMs: number;
}

function startTiming(): () => Timing {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

async function runSdkSession(): Promise<Timing> {
  server.setScenario(fiftyReads());
  server.clearRequests();
  const agent = await Agent.create(aclFor(server));
  const session = agent.session(dir, { maxToolRounds: TOOL_TURNS + 10 });
  const stop = startTiming();
  const result = await session.send('Read the files one by one.');
  const elapsed = stop();
  if (result.toolCallsCount !== TOOL_TURNS || server.errors.length > 0) throw new Error(`sdk session: ${result.toolCallsCount} tool calls, errors ${server.errors.map(String).join('; ')}`);
  await agent.close();
  return elapsed;
}

/** The session's own system prompt and tool definitions, so both loops send the same request prefix. */
const reference = await (async () => {
  const agent = await Agent.create(aclFor(server));
  const session = agent.session(dir);
  const value = { system: session.systemPrompt(), tools: session.toolDefinitions() };
  await agent.close();
  return value;
})();

type AnthropicTool = { name: string; description: string; input_schema: Record<string, unknown>; cache_control?: { type: 'ephemeral' } };
const bareTools: AnthropicTool[] = reference.tools.map((tool: ToolDefinition, index) => ({
  name: tool.name,
  description: tool.description,
  input_schema: tool.parameters as Record<string, unknown>,
  ...(index === reference.tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
}));

async function runBareLoop(): Promise<Timing> {
  server.setScenario(fiftyReads());
  server.clearRequests();
  const sdk = new Anthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
  const workspace = new LocalWorkspaceBackend(dir);
  const read = createReadTool();
  const controller = new AbortController();
  const context = (toolId: string): ToolContext => ({
    toolId,
    toolName: 'read',
    origin: 'agent',
    sessionId: 'bare',
    abortSignal: controller.signal,
    workspace,
    runtime: undefined as unknown as ToolContext['runtime'],
    ancestry: [],
    services: {},
    emitOutputDelta: () => undefined,
    storeArtifact: () => 'a3s://tool-output/read/none',
  });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'Read the files one by one.' }] }];
  const stop = startTiming();
  let calls = 0;
  for (;;) {
    const stream = await sdk.messages.create({
      model: 'claude-test',
      max_tokens: 4096,
      stream: true,
      system: [{ type: 'text', text: reference.system, cache_control: { type: 'ephemeral' } }],
      messages,
      tools: bareTools as Anthropic.Tool[],
    });
    const content: Anthropic.ContentBlockParam[] = [];
    let json = '';
    for await (const event of stream) {
      if (event.type === 'content_block_start') {
        if (event.content_block.type === 'tool_use') content.push({ type: 'tool_use', id: event.content_block.id, name: event.content_block.name, input: {} });
        else if (event.content_block.type === 'text') content.push({ type: 'text', text: '' });
        json = '';
      } else if (event.type === 'content_block_delta') {
        const block = content.at(-1);
        if (event.delta.type === 'input_json_delta') json += event.delta.partial_json;
        else if (event.delta.type === 'text_delta' && block?.type === 'text') block.text += event.delta.text;
      } else if (event.type === 'content_block_stop') {
        const block = content.at(-1);
        if (block?.type === 'tool_use') block.input = JSON.parse(json === '' ? '{}' : json) as Record<string, unknown>;
      }
    }
    messages.push({ role: 'assistant', content });
    const uses = content.filter((block): block is Anthropic.ToolUseBlockParam => block.type === 'tool_use');
    if (uses.length === 0) break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) {
      const output = await read.execute(use.input as never, context(use.id));
      calls += 1;
      const failed = (output.exitCode ?? 0) !== 0 || output.errorKind !== undefined;
      results.push({ type: 'tool_result', tool_use_id: use.id, content: output.output, ...(failed ? { is_error: true } : {}) });
    }
    messages.push({ role: 'user', content: results });
  }
  const elapsed = stop();
  if (calls !== TOOL_TURNS || server.errors.length > 0) throw new Error(`bare loop: ${calls} tool calls, errors ${server.errors.map(String).join('; ')}`);
  return elapsed;
}

// 1. Per-turn overhead, interleaved so machine noise hits both alike.
// JIT warm-up: per-session times keep falling for the first few sessions of each kind.
for (let i = 0; i < WARMUP; i += 1) {
  await runSdkSession();
  await runBareLoop();
}
const sdkRuns: Timing[] = [];
const bareRuns: Timing[] = [];
for (let i = 0; i < REPEATS; i += 1) {
  // Alternating the order too, so neither loop always runs right after a GC-heavy one.
  if (i % 2 === 0) {
    sdkRuns.push(await runSdkSession());
    bareRuns.push(await runBareLoop());
  } else {
    bareRuns.push(await runBareLoop());
    sdkRuns.push(await runSdkSession());
  }
}
const turns = TOOL_TURNS + 1;
const perTurn = (runs: readonly Timing[], field: keyof Timing): number => median(runs.map((run) => run[field])) / turns;
const pairRatio = median(sdkRuns.map((run, i) => run.wallMs / (bareRuns[i] as Timing).wallMs));
console.log(`per-turn time (${TOOL_TURNS} read turns + answer = ${turns} model requests, median of ${REPEATS} sessions each; CPU includes the in-process server):`);
console.log(`  sdk session  wall ${perTurn(sdkRuns, 'wallMs').toFixed(3)} ms/turn  cpu ${perTurn(sdkRuns, 'cpuMs').toFixed(3)} ms/turn`);
console.log(`  bare loop    wall ${perTurn(bareRuns, 'wallMs').toFixed(3)} ms/turn  cpu ${perTurn(bareRuns, 'cpuMs').toFixed(3)} ms/turn`);
console.log(
  `  ratio sdk/bare: wall ${(perTurn(sdkRuns, 'wallMs') / perTurn(bareRuns, 'wallMs')).toFixed(2)}x (median of paired ratios ${pairRatio.toFixed(2)}x), cpu ${(perTurn(sdkRuns, 'cpuMs') / perTurn(bareRuns, 'cpuMs')).toFixed(2)}x  (target <= 1.30x)`,
);

// 2. First request latency in a warm process.
const firstRequest: number[] = [];
for (let i = 0; i < 15; i += 1) {
  let arrived = 0;
  server.setScenario(() => {
    if (arrived === 0) arrived = performance.now();
    return textResponse('hi');
  });
  server.clearRequests();
  const start = performance.now();
  const agent = await Agent.create(aclFor(server));
  const session = agent.session(dir);
  await session.send('hello');
  firstRequest.push(arrived - start);
  await agent.close();
}
console.log(`first request latency (warm, Agent.create -> request at server, median of ${firstRequest.length}): ${median(firstRequest).toFixed(1)} ms  (target <= 150 ms; min ${Math.min(...firstRequest).toFixed(1)}, max ${Math.max(...firstRequest).toFixed(1)})`);

// 3. First request body size.
const first = server.requests[0];
if (first === undefined) throw new Error('no request recorded');
const body = first.body as { system?: unknown; tools?: unknown };
const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
console.log(`first request body: ${first.rawBytes.length} B  (system prompt text ${Buffer.byteLength(reference.system)} B, system field ${bytes(body.system)} B; tools field ${bytes(body.tools)} B for ${reference.tools.length} tools)`);

// 4. Fresh child processes: memory of 100 idle sessions and the cold first request. Each runs
// twice: as this bench runs (TypeScript sources through the tsx loader, which alone holds ~35 MB
// and compiles every module on import), and from a plain-JS esbuild bundle of this file run by
// bare `node` (what a host process running built packages looks like).
interface MemoryReport {
  readonly sessions: number;
  readonly baselineRss: number;
  readonly baselineHeap: number;
  readonly rss: number;
  readonly heapUsed: number;
}
interface ColdReport {
  readonly startToCreateMs: number;
  readonly createToRequestMs: number;
}
function runChild<T>(mode: 'rss' | 'cold', args: readonly string[]): T {
  const out = execFileSync(process.execPath, ['--expose-gc', ...args], { encoding: 'utf8', env: { ...process.env, A3S_LOOP_BENCH_CHILD: mode } });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as T;
}
async function bundleThisFile(outfile: string): Promise<void> {
  // esbuild ships with tsx; resolving it through tsx avoids a dependency of our own.
  const requireFromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = requireFromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  await esbuild.build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    conditions: ['@a3s-lab/source'],
    logLevel: 'error',
    // CommonJS dependencies inside an ESM bundle still call require() for node builtins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
}
// Inside packages/sdk, whose node_modules holds the provider SDKs (devDependencies): the bundle
// is built from the sources, which require the installed @anthropic-ai/sdk on the first model call
// (the built provider packages require their bundled copy instead).
const bundleDir = mkdtempSync(join(fileURLToPath(new URL('../packages/sdk/', import.meta.url)), '.bench-bundle-'));
try {
  const bundle = join(bundleDir, 'loop-bench.mjs');
  await bundleThisFile(bundle);
  const variants: readonly (readonly [string, readonly string[]])[] = [
    ['source via tsx', ['--conditions=@a3s-lab/source', '--import', 'tsx', fileURLToPath(import.meta.url)]],
    ['bundled, plain node', [bundle]],
  ];
  console.log('memory, 100 idle sessions after one send each (baseline: modules loaded, agent created, one session used and closed; target rss <= 150 MB):');
  for (const [label, args] of variants) {
    const memory = runChild<MemoryReport>('rss', args);
    console.log(
      `  ${label.padEnd(20)} rss ${mb(memory.rss)} (baseline ${mb(memory.baselineRss)}, ${memory.rss >= memory.baselineRss ? '+' : '-'}${mb(Math.abs(memory.rss - memory.baselineRss))}), heapUsed ${mb(memory.heapUsed)} (baseline ${mb(memory.baselineHeap)}), ${((memory.heapUsed - memory.baselineHeap) / memory.sessions / 1024).toFixed(1)} KB heap per session`,
    );
  }
  console.log('cold first request (fresh process, first session; median of 3):');
  for (const [label, args] of variants) {
    const runs = [0, 1, 2].map(() => runChild<ColdReport>('cold', args));
    console.log(
      `  ${label.padEnd(20)} process start -> Agent.create ${median(runs.map((r) => r.startToCreateMs)).toFixed(0)} ms (node boot + imports), Agent.create -> first request ${median(runs.map((r) => r.createToRequestMs)).toFixed(1)} ms`,
    );
  }
} finally {
  rmSync(bundleDir, { recursive: true, force: true });
}

// 5. The end-to-end job against a bare Vercel `ai` loop (bench/fix-the-bug/compare.ts).
await compareFixTheBug(server, aclFor(server));

await server.close();
rmSync(dir, { recursive: true, force: true });
