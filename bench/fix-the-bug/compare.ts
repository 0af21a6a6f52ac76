import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { textResponse, toolCallResponse } from '../../packages/testing/src/index.js';
import type { ScenarioFunction, ScriptedModelServer } from '../../packages/testing/src/index.js';

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

// The issue's end-to-end job against a bare Vercel `ai` loop: a scripted fix-the-bug session of 8
// model turns (7 tool calls: grep, read, bash, edit, read, bash, grep; then the answer), each run in
// its own child process, all talking to this process's scripted server. Medians of 5 per side.
const FIX_SCRIPT: ScenarioFunction = (_request, index) => {
  const steps = [
    toolCallResponse('grep', { pattern: 'function add' }),
    toolCallResponse('read', { file_path: 'src/math.js' }),
    toolCallResponse('bash', { command: 'node test.js' }),
    toolCallResponse('edit', { file_path: 'src/math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
    toolCallResponse('read', { file_path: 'src/math.js' }),
    toolCallResponse('bash', { command: 'node test.js' }),
    toolCallResponse('grep', { pattern: 'a - b' }),
  ];
  return steps[index] ?? textResponse('Fixed: add() subtracted instead of adding; the test passes now.');
};
function fixTheBugWorkspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-fix-bench-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/math.js'), 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n');
  writeFileSync(join(root, 'test.js'), "import { add } from './src/math.js';\nif (add(2, 3) !== 5) { console.error('add(2, 3) =', add(2, 3)); process.exit(1); }\nconsole.log('ok');\n");
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  return root;
}
interface JobRun {
  readonly firstCallMs: number;
  readonly perTurnMs: number;
  readonly cpuPerTurnMs: number;
  readonly wallMs: number;
  readonly peakRssMb: number;
  readonly firstRequestBytes: number;
}
const here = fileURLToPath(new URL('.', import.meta.url));
const builtSdk = join(here, '..', '..', 'packages', 'sdk', 'dist', 'index.js');
const useBuilt = existsSync(builtSdk);
// Built packages under plain node when they exist (what a host runs); else both sides under tsx.
const childFlags = useBuilt ? [] : ['--conditions=@a3s-lab/source', '--import', 'tsx'];
/** `ours-unsandboxed`: ours.mjs with the OS sandbox off, a diagnostic (every goal row keeps the sandbox). */
type Side = 'ours' | 'bare' | 'bare-sdk' | 'ours-unsandboxed';
/** Runs per side (`A3S_JOB_RUNS`, default 5): the first-call figure of one run varies by ±20% on a 2-core machine. */
const RUNS = Math.max(1, Number(process.env['A3S_JOB_RUNS'] ?? 5));
async function runJob(server: ScriptedModelServer, acl: string, side: Side): Promise<JobRun> {
  const workspace = fixTheBugWorkspace();
  server.setScenario(FIX_SCRIPT);
  server.clearRequests();
  const started = Date.now();
  const child = spawn(process.execPath, [...childFlags, join(here, `${side === 'ours-unsandboxed' ? 'ours' : side}.mjs`)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      A3S_DIR: workspace,
      A3S_BASE_URL: server.anthropicBaseUrl,
      A3S_ACL: acl,
      ...(side === 'ours-unsandboxed' ? { A3S_JOB_SANDBOX: 'off' } : {}),
      A3S_SDK_ENTRY: useBuilt ? builtSdk : join(here, '..', '..', 'packages', 'sdk', 'src', 'index.ts'),
    },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const wallMs = Date.now() - started;
  const report = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { maxRssKb: number; cpuPerTurnMs: number; toolCalls: number };
  const requests = server.requests.filter((request) => request.path === '/v1/messages');
  const fixed = readFileSync(join(workspace, 'src/math.js'), 'utf8').includes('return a + b;');
  rmSync(workspace, { recursive: true, force: true });
  if (code !== 0 || requests.length !== 8 || report.toolCalls !== 7 || !fixed || server.errors.length > 0) {
    throw new Error(`${side}: exit ${code}, ${requests.length} requests, ${report.toolCalls} tool calls, fixed ${fixed}, errors ${server.errors.map(String).join('; ')}`);
  }
  const first = requests[0] as (typeof requests)[number];
  const last = requests[requests.length - 1] as (typeof requests)[number];
  return {
    firstCallMs: first.receivedAtMs - started,
    perTurnMs: (last.receivedAtMs - first.receivedAtMs) / (requests.length - 1),
    cpuPerTurnMs: report.cpuPerTurnMs,
    wallMs,
    peakRssMb: report.maxRssKb / 1024,
    firstRequestBytes: first.rawBytes.length,
  };
}
/**
 * Runs the fix-the-bug job {@link RUNS} times per side (rotating the order), each in a fresh child process
 * against `server`, and prints the five rows of the issue's table with ratios against the bare
 * `ai` loop (the goals), plus the same job through a bare @anthropic-ai/sdk loop: the provider SDK
 * A3S Code must use, which the `ai` loop does not load (its @ai-sdk/anthropic is its own client).
 */
export async function compareFixTheBug(server: ScriptedModelServer, acl: string): Promise<void> {
  const jobs: Record<Side, JobRun[]> = { ours: [], bare: [], 'bare-sdk': [], 'ours-unsandboxed': [] };
  const sides: readonly Side[] = ['ours', 'bare', 'bare-sdk', 'ours-unsandboxed'];
  // Rotating the order: no side always runs first (cold file cache) or last.
  for (let round = 0; round < RUNS; round += 1) {
    for (let k = 0; k < sides.length; k += 1) {
      const side = sides[(round + k) % sides.length] as Side;
      jobs[side].push(await runJob(server, acl, side));
    }
  }
  const jobMedian = (side: Side, field: keyof JobRun): number => median(jobs[side].map((run) => run[field]));
  console.log(`fix-the-bug job, 8 turns, each run a child process (${useBuilt ? 'built packages, plain node' : 'sources, both under tsx: run pnpm build for the built figure'}), medians of ${RUNS}, vs a bare Vercel ai loop with 4 tools:`);
  console.log('  row                      ours        bare ai loop   ratio   goal       bare @anthropic-ai/sdk loop   ours / it');
  const jobRows: readonly (readonly [string, keyof JobRun, string, string])[] = [
    ['time to first model call', 'firstCallMs', 'ms', '<= 1.1x'],
    ['per turn', 'perTurnMs', 'ms', '<= 1.0x'],
    ['CPU per turn (host)', 'cpuPerTurnMs', 'ms', '<= 1.0x'],
    ['wall', 'wallMs', 'ms', '<= 1.1x'],
    ['peak RSS', 'peakRssMb', 'MB', '<= 1.0x'],
    ['first request', 'firstRequestBytes', 'B', '<= 16 KB'],
  ];
  for (const [label, field, unit, goal] of jobRows) {
    const ours = jobMedian('ours', field);
    const bare = jobMedian('bare', field);
    const sdk = jobMedian('bare-sdk', field);
    const digits = unit === 'B' ? 0 : field === 'cpuPerTurnMs' ? 2 : 1;
    console.log(
      `  ${label.padEnd(24)} ${`${ours.toFixed(digits)} ${unit}`.padStart(11)} ${`${bare.toFixed(digits)} ${unit}`.padStart(14)} ${(ours / bare).toFixed(2).padStart(6)}x   ${goal.padEnd(10)} ${`${sdk.toFixed(digits)} ${unit}`.padStart(27)} ${(ours / sdk).toFixed(2).padStart(10)}x`,
    );
  }
  const off = (field: keyof JobRun): string =>
    `${jobMedian('ours-unsandboxed', field).toFixed(field === 'cpuPerTurnMs' ? 2 : 1)} ms (${(jobMedian('ours-unsandboxed', field) / jobMedian('bare-sdk', field)).toFixed(2)}x the bare @anthropic-ai/sdk loop, ${(jobMedian('ours-unsandboxed', field) / jobMedian('ours', field)).toFixed(2)}x ours sandboxed)`;
  console.log(`  diagnostic, ours with the OS sandbox off (sandbox: { mode: 'off' }): per turn ${off('perTurnMs')}, CPU per turn ${off('cpuPerTurnMs')}, wall ${off('wallMs')}`);
}

// Standalone: node --conditions=@a3s-lab/source --import tsx bench/fix-the-bug/compare.ts
// (Checked by name: bundled into loop.bench's child, import.meta.url is the bundle's.)
if (process.argv[1]?.endsWith(`${join('fix-the-bug', 'compare.ts')}`) === true) {
  const { startScriptedModelServer } = await import('../../packages/testing/src/index.js');
  const server = await startScriptedModelServer({ scenario: [] });
  await compareFixTheBug(
    server,
    `default_model = "anthropic/claude-test"\nproviders "anthropic" {\n  api_key = "sk-ant-test-key-000000"\n  base_url = "${server.anthropicBaseUrl}"\n  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }\n}\n`,
  );
  await server.close();
}
