// Child of concurrency.bench.ts: the floor, i.e. the fair "ideal" of a level. The same job (the
// same scripted model server, the same 9 turns: read, grep, edit, bash twice, then the answer)
// with nothing but what no agent loop can avoid: per turn one streaming POST of the conversation
// so far (4 one-line tool definitions, no system prompt beyond one line) with `fetch`, the SSE
// read whole and parsed for the tool call, then the tool's work done the plainest way (node:fs
// `readFile`/`writeFile`, ripgrep and `bash -c` through child_process.execFile in a small spawner
// child; no sandbox, no confinement, no output shaping). No provider SDK, no retries, no
// events. LEVELS sessions concurrently active in this one small process; per level one JSON line with the figures concurrency.bench.ts
// prints. What it measures on this machine at this moment: the model's latency plus the model
// server's work, the HTTP round trips and the unavoidable subprocesses, sharing the cores with
// the rest of the machine. Env: A3S_BASE_URL, A3S_ROOT, LEVELS, LATENCY_MS, JOB_TURNS, RG.
import { execFile, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { childrenCpuMs } from './process-cpu.mjs';

const LEVELS = (process.env.LEVELS ?? '1,50,200').split(',').map(Number);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const JOB_TURNS = Number(process.env.JOB_TURNS ?? 9);
const RG = process.env.RG ?? 'rg';
const root = process.env.A3S_ROOT;
const url = `${process.env.A3S_BASE_URL}/v1/messages`;
const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-key-000000', 'anthropic-version': '2023-06-01' };
const schema = (properties, required) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'read', description: 'Read a file.', input_schema: schema({ file_path: { type: 'string' } }, ['file_path']) },
  { name: 'grep', description: 'Search file contents.', input_schema: schema({ pattern: { type: 'string' }, output_mode: { type: 'string' } }, ['pattern']) },
  { name: 'edit', description: 'Replace a string in a file.', input_schema: schema({ file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, ['file_path', 'old_string', 'new_string']) },
  { name: 'bash', description: 'Run a shell command.', input_schema: schema({ command: { type: 'string' } }, ['command']) },
];

const execute1 = (file, args, cwd, done) =>
  execFile(file, args, { cwd, timeout: 60_000, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => done(`${stdout}${stderr}\nexit code ${error === null ? 0 : (error.code ?? 1)}`));

// The processes start in a small spawner child (plain node, nothing loaded: its forks are the
// cheapest this machine has and do not block this loop), the way ours start through its spawn
// helper; FLOOR_SPAWNER=0 forks this process instead, like the bare `ai` loop.
if (process.env.FLOOR_SPAWNER_CHILD === '1') {
  process.on('message', ({ id, file, args, cwd }) => execute1(file, args, cwd, (out) => process.send({ id, out })));
  process.on('disconnect', () => process.exit(0));
}
const spawner = process.env.FLOOR_SPAWNER_CHILD === '1' || process.env.FLOOR_SPAWNER === '0' ? null : fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, FLOOR_SPAWNER_CHILD: '1' }, execArgv: [] });
const pending = new Map();
let nextId = 0;
spawner?.on('message', ({ id, out }) => {
  pending.get(id)?.(out);
  pending.delete(id);
});
const run = (file, args, cwd) =>
  new Promise((resolve) => {
    if (spawner === null) return execute1(file, args, cwd, resolve);
    const id = nextId++;
    pending.set(id, resolve);
    spawner.send({ id, file, args, cwd });
  });

async function execute(dir, name, input) {
  switch (name) {
    case 'read':
      return readFile(join(dir, input.file_path), 'utf8');
    case 'grep':
      return run(RG, ['-n', '--', input.pattern, '.'], dir);
    case 'edit': {
      const path = join(dir, input.file_path);
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace(input.old_string, input.new_string));
      return 'edited';
    }
    case 'bash':
      return run('bash', ['-c', input.command], dir);
    default:
      return `unknown tool ${name}`;
  }
}

/** One streamed response, reduced to its text and tool calls. */
function parse(sse) {
  const blocks = [];
  let stop = '';
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6));
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block, json: '' };
    else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') blocks[event.index].json += event.delta.partial_json;
    else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') blocks[event.index].text = (blocks[event.index].text ?? '') + event.delta.text;
    else if (event.type === 'message_delta') stop = event.delta.stop_reason ?? stop;
  }
  const content = blocks.map(({ json, ...block }) => (block.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, input: json === '' ? {} : JSON.parse(json) } : { type: 'text', text: block.text ?? '' }));
  return { content, stop };
}

let anomalies = 0;
async function job(dir) {
  const starts = [];
  const messages = [{ role: 'user', content: 'run the job' }];
  let text = '';
  for (let turn = 0; turn < 20; turn += 1) {
    starts.push(performance.now());
    const response = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify({ model: 'claude-test', max_tokens: 4096, stream: true, system: 'You are a coding agent.', tools: TOOLS, messages }) });
    const { content, stop } = parse(await response.text());
    messages.push({ role: 'assistant', content });
    const calls = content.filter((block) => block.type === 'tool_use');
    if (stop !== 'tool_use' || calls.length === 0) {
      text = content.map((block) => block.text ?? '').join('');
      break;
    }
    const results = await Promise.all(calls.map(async (call) => ({ type: 'tool_result', tool_use_id: call.id, content: await execute(dir, call.name, call.input) })));
    messages.push({ role: 'user', content: results });
  }
  const end = performance.now();
  if (starts.length !== JOB_TURNS || text !== 'done') anomalies += 1;
  return starts.map((start, index) => (starts[index + 1] ?? end) - start - LATENCY_MS);
}

function workspace(name) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.ts'), `export const a = 1;\n// TODO: first\n// TODO: second\n${'export const filler = "x";\n'.repeat(40)}`);
  writeFileSync(join(dir, 'b.ts'), `// TODO: b\nexport const b = 2;\n`);
  return dir;
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

if (process.env.FLOOR_SPAWNER_CHILD !== '1') {
for (let index = 0; index < 2; index += 1) await job(workspace(`floor-warm-${index}`));
for (const level of LEVELS) {
  const dirs = Array.from({ length: level }, (_, index) => workspace(`floor-l${level}-${index}`));
  globalThis.gc?.();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const cpu = process.cpuUsage();
  const toolCpu = childrenCpuMs();
  lag.enable();
  anomalies = 0;
  const start = performance.now();
  const overheads = (await Promise.all(dirs.map((dir) => job(dir)))).flat();
  const wall = performance.now() - start;
  lag.disable();
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({ level, wall, p50: quantile(overheads, 0.5), p99: quantile(overheads, 0.99), lagP99: lag.percentile(99) / 1e6, peakRss: peak, cpuMs: (used.user + used.system) / 1000, toolCpuMs: childrenCpuMs() - toolCpu, anomalies }),
  );
}
spawner?.disconnect();
}
