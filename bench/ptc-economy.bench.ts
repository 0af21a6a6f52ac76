// Token economy of programmatic tool calling (issue "Programmatic tool calling"). One task, "find
// every TODO in 20 files and summarise them", run through the public SDK against the scripted
// model server in two ways:
// (a) PTC: the model makes ONE `program` call whose script greps, reads the matching files and
//     returns a compact summary, then answers;
// (b) sequential tools: `grep` (files_with_matches), then one `read` per matching file, one per
//     turn, then the answer.
// The scenario functions react to the tool results they receive (the file list comes from grep's
// real output, the answer from the real reads / program result), so both flows are real. Reports
// the bytes of every request body sent to the model (sum of rawBytes), the number of model
// requests, and the reduction with PTC. Target: >= 60% fewer request bytes with PTC.
// (Cold/warm start and ctx-call cost of PTC are in bench/ptc.bench.ts.)
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/ptc-economy.bench.ts
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '../packages/testing/src/index.js';
import type { ScenarioFunction, ScriptedModelServer } from '../packages/testing/src/index.js';

const FILES = 20;
const PROMPT = 'Find every TODO in the 20 files under src/ and summarise them.';

/** A ~60-line TypeScript module; `todos` TODO comments placed inside its functions. */
function moduleSource(index: number, todos: readonly string[]): string {
  const lines = [`// Module ${index}: part of the order pipeline.`, `import { strict as assert } from 'node:assert';`, ''];
  for (let f = 0; f < 6; f += 1) {
    lines.push(`/** Step ${f} of stage ${index}: normalises the input and applies rule ${index * 10 + f}. */`);
    lines.push(`export function stage${index}Step${f}(input: readonly number[], factor = ${f + 1}): number[] {`);
    const todo = todos[f];
    if (todo !== undefined) lines.push(`  // TODO: ${todo}`);
    lines.push(`  assert(Array.isArray(input), 'input must be an array');`);
    lines.push(`  const scaled = input.map((value) => value * factor + ${index});`);
    lines.push(`  return scaled.filter((value) => value % ${f + 2} !== 0);`);
    lines.push('}');
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

const TODOS: Readonly<Record<number, readonly string[]>> = {
  2: ['handle empty input without asserting'],
  5: ['cache the factor table', 'reject negative factors'],
  9: ['log rule ids for auditing'],
  12: ['merge with stage 13 once the API settles', 'add a benchmark', 'document the rounding'],
  16: ['remove the legacy filter'],
  19: ['make the modulus configurable', 'return a typed result'],
};

function createWorkspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-ptc-economy-')));
  mkdirSync(join(dir, 'src'));
  for (let i = 0; i < FILES; i += 1) writeFileSync(join(dir, 'src', `stage${String(i).padStart(2, '0')}.ts`), moduleSource(i, TODOS[i] ?? []));
  return dir;
}

const EXPECTED_TODOS = Object.values(TODOS).reduce((sum, list) => sum + list.length, 0);
const EXPECTED_FILES = Object.keys(TODOS).length;

/** The script the model sends in PTC mode: grep for the files, read each, return a compact summary. */
const PROGRAM_SOURCE = `export default async function run(ctx, inputs) {
  const listing = await ctx.grep(inputs.pattern, { output_mode: 'files_with_matches', path: 'src' });
  const files = listing.split('\\n').filter((line) => line.endsWith('.ts'));
  const todos = [];
  for (const file of files) {
    const text = await ctx.readFile(file);
    text.split('\\n').forEach((line, index) => {
      const at = line.indexOf('TODO:');
      if (at >= 0) todos.push(file + ':' + (index + 1) + ' ' + line.slice(at + 5).trim());
    });
  }
  return { files: files.length, count: todos.length, todos };
}`;

/** (a) PTC: one program call, then an answer built from the program's result. */
const ptcScenario: ScenarioFunction = (request) => {
  const results = toolResultsOf(request);
  if (results.length === 0) {
    return toolCallResponse('program', { type: 'script', source: PROGRAM_SOURCE, inputs: { pattern: 'TODO' }, allowed_tools: ['grep', 'read'], limits: { maxToolCalls: 30 } });
  }
  const summary = JSON.parse(results[0]?.content ?? '{}') as { files?: number; count?: number; todos?: string[] };
  return textResponse(`${summary.count ?? 0} TODOs in ${summary.files ?? 0} files:\n${(summary.todos ?? []).map((todo) => `- ${todo}`).join('\n')}`);
};

/** (b) Sequential: grep, then one read per file named by grep, then an answer built from the reads. */
const sequentialScenario: ScenarioFunction = (request) => {
  const results = toolResultsOf(request);
  if (results.length === 0) return toolCallResponse('grep', { pattern: 'TODO', output_mode: 'files_with_matches', path: 'src' });
  const files = (results[0]?.content ?? '').split('\n').filter((line) => line.endsWith('.ts'));
  const read = results.length - 1;
  const next = files[read];
  if (next !== undefined) return toolCallResponse('read', { file_path: next });
  const todos: string[] = [];
  results.slice(1).forEach((result, i) => {
    for (const line of result.content.split('\n')) {
      // numbered read output: "     7\t  // TODO: text"
      const match = /^\s*(\d+)\t.*TODO:\s*(.*)$/.exec(line);
      if (match !== null) todos.push(`${files[i] ?? '?'}:${match[1] ?? ''} ${match[2] ?? ''}`);
    }
  });
  return textResponse(`${todos.length} TODOs in ${files.length} files:\n${todos.map((todo) => `- ${todo}`).join('\n')}`);
};

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

interface ModeResult {
  readonly requests: number;
  readonly requestBytes: number;
  /** Bytes of the last request: the context the conversation ends with. */
  readonly lastRequestBytes: number;
  readonly inputTokens: number;
  readonly toolCalls: number;
  readonly wallMs: number;
  readonly answer: string;
}

async function runMode(server: ScriptedModelServer, dir: string, scenario: ScenarioFunction): Promise<ModeResult> {
  server.setScenario(scenario);
  server.clearRequests();
  const agent = await Agent.create(aclFor(server));
  try {
    const session = agent.session(dir);
    const start = performance.now();
    const result = await session.send(PROMPT);
    const wallMs = performance.now() - start;
    if (server.errors.length > 0) throw new Error(`scripted server: ${server.errors.map(String).join('; ')}`);
    const requests = server.requests.filter((request) => request.path === '/v1/messages');
    return {
      requests: requests.length,
      requestBytes: requests.reduce((sum, request) => sum + request.rawBytes.length, 0),
      lastRequestBytes: requests.at(-1)?.rawBytes.length ?? 0,
      inputTokens: result.promptTokens,
      toolCalls: result.toolCallsCount,
      wallMs,
      answer: result.text,
    };
  } finally {
    await agent.close();
  }
}

const server = await startScriptedModelServer({ scenario: [] });
const dir = createWorkspace();
try {
  // Warm-up (module loading, QuickJS WASM instantiation), then the measured runs. Byte counts are
  // deterministic; only the wall times depend on warm-up.
  await runMode(server, dir, ptcScenario);
  await runMode(server, dir, sequentialScenario);
  const ptc = await runMode(server, dir, ptcScenario);
  const sequential = await runMode(server, dir, sequentialScenario);
  // Both flows must have found the same TODOs, or the comparison is meaningless.
  const expectedHeader = `${EXPECTED_TODOS} TODOs in ${EXPECTED_FILES} files:`;
  for (const [name, mode] of [['ptc', ptc], ['sequential', sequential]] as const) {
    if (!mode.answer.startsWith(expectedHeader)) throw new Error(`${name} answer is wrong: ${mode.answer.split('\n')[0] ?? ''}`);
  }
  if (ptc.answer !== sequential.answer) throw new Error(`the two flows disagree:\n${ptc.answer}\n---\n${sequential.answer}`);

  const row = (name: string, mode: ModeResult): string =>
    `  ${name.padEnd(11)} ${String(mode.requests).padStart(2)} model requests, ${String(mode.toolCalls).padStart(2)} tool calls, request bytes ${String(mode.requestBytes).padStart(7)} (last request ${mode.lastRequestBytes} B), input tokens ${mode.inputTokens} (server estimate bytes/4), ${mode.wallMs.toFixed(0)} ms warm`;
  console.log(`task: "${PROMPT}" (${EXPECTED_TODOS} TODOs in ${EXPECTED_FILES} of ${FILES} files; both flows produce the same answer)`);
  console.log(row('ptc', ptc));
  console.log(row('sequential', sequential));
  const reduction = (1 - ptc.requestBytes / sequential.requestBytes) * 100;
  console.log(`  request bytes with PTC: ${reduction.toFixed(1)}% fewer (ratio ptc/sequential ${(ptc.requestBytes / sequential.requestBytes).toFixed(3)}; target >= 60% fewer)`);
  console.log(`  model requests with PTC: ${ptc.requests} vs ${sequential.requests} (${((1 - ptc.requests / sequential.requests) * 100).toFixed(0)}% fewer)`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
