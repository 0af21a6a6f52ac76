// How fast the `a3s-code` binary starts: `--version`, `acp --help` (what an editor pays before its
// first ACP message) and a one-turn `run` (to its first model request, and to its end) against the
// scripted model server, with Node's module compile cache on (the binary's default, warm after the
// first start) and off (NODE_DISABLE_COMPILE_CACHE=1), next to references measured in the same run:
// a bare `node -e ''` and a bare @anthropic-ai/sdk script that sends the same one request.
// Each a fresh process, the variants alternated; medians of A3S_BENCH_RUNS (default 9).
// Needs the built CLI (pnpm build). Run: node --conditions=@a3s-lab/source --import tsx bench/cli-start.bench.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startScriptedModelServer, textResponse } from '../packages/testing/src/index.js';

const RUNS = Number(process.env['A3S_BENCH_RUNS'] ?? 9);
const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '..', 'apps', 'cli', 'dist', 'bin.js');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first`);
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const server = await startScriptedModelServer({ scenario: () => textResponse('done') });
const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-cli-start-')));
const acl = join(root, 'agent.acl');
writeFileSync(acl, `default_model = "anthropic/claude-test"\nproviders "anthropic" {\n  api_key = "sk-ant-test-key-000000"\n  base_url = "${server.anthropicBaseUrl}"\n  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }\n}\n`);
// The reference client: the SDK's own package (its CommonJS build), one streamed request.
const bareSdk = join(root, 'bare-sdk.cjs');
const sdkPath = JSON.stringify(join(here, '..', 'packages', 'anthropic', 'node_modules', '@anthropic-ai', 'sdk'));
writeFileSync(
  bareSdk,
  `const Anthropic = require(${sdkPath}).default;\nconst client = new Anthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: process.env.A3S_BASE_URL, maxRetries: 0 });\nclient.messages.stream({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'say done' }] }).finalMessage().then(() => undefined);\n`,
);

interface Start {
  readonly wallMs: number;
  readonly firstRequestMs: number | null;
}
/** Runs `args` with this node in a fresh process; its wall time and when its first model request arrived. */
async function start(args: readonly string[], cache: boolean): Promise<Start> {
  server.clearRequests();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !/^(ANTHROPIC|OPENAI)_|^NODE_(DISABLE_)?COMPILE_CACHE$/.test(name)) env[name] = value;
  if (!cache) env['NODE_DISABLE_COMPILE_CACHE'] = '1';
  const started = Date.now();
  const child = spawn(process.execPath, [...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, HOME: root, A3S_BASE_URL: server.anthropicBaseUrl } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const wallMs = Date.now() - started;
  if (code !== 0) throw new Error(`${args.join(' ')}: exit ${String(code)}\n${stderr}`);
  const first = server.requests.find((request) => request.path === '/v1/messages');
  return { wallMs, firstRequestMs: first === undefined ? null : first.receivedAtMs - started };
}

const variants: readonly (readonly [string, readonly string[], boolean])[] = [
  ['node -e (reference)', ['-e', ''], false],
  ['bare SDK request (reference)', [bareSdk], false],
  ['--version', [cli, '--version'], true],
  ['--version, no cache', [cli, '--version'], false],
  ['acp --help', [cli, 'acp', '--help'], true],
  ['acp --help, no cache', [cli, 'acp', '--help'], false],
  ['run', [cli, 'run', 'say done', '--config', acl, '--workspace', root, '--yes'], true],
  ['run, no cache', [cli, 'run', 'say done', '--config', acl, '--workspace', root, '--yes'], false],
];
try {
  // The first start writes the compile cache; the timed ones read it.
  for (const [, args, cache] of variants) await start(args, cache);
  const samples = new Map<string, Start[]>(variants.map(([name]) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) for (const [name, args, cache] of variants) samples.get(name)?.push(await start(args, cache));
  const node = median((samples.get('node -e (reference)') ?? []).map((sample) => sample.wallMs));
  const sdkFirst = median((samples.get('bare SDK request (reference)') ?? []).map((sample) => sample.firstRequestMs ?? Number.NaN));
  console.log(`a3s-code binary start, fresh processes, medians of ${RUNS} (Node ${process.version}); node -e '' ${node.toFixed(0)} ms`);
  console.log('  command                        wall      first model request   first request / bare SDK script');
  for (const [name, list] of samples) {
    const wall = median(list.map((sample) => sample.wallMs));
    const first = list[0]?.firstRequestMs === null ? null : median(list.map((sample) => sample.firstRequestMs ?? Number.NaN));
    const ratio = first === null || name.startsWith('bare') ? '' : `${(first / sdkFirst).toFixed(2)}x`;
    console.log(`  ${name.padEnd(28)} ${`${wall.toFixed(0)} ms`.padStart(8)}   ${first === null ? '-'.padStart(8) : `${first.toFixed(0)} ms`.padStart(8)}              ${ratio}`);
  }
} finally {
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
