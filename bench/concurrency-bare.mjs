// Child of concurrency.bench.ts: the reference measured in the same run. The same job (the same
// scripted model server, the same 9 turns: read, grep, edit, bash twice, then the answer) through
// a bare Vercel `ai` loop: `generateText` + `@ai-sdk/anthropic` with the 4 tools implemented
// plainly (node:fs, ripgrep and `bash -c` through child_process.execFile: no permission policy,
// no hooks, no sandbox, no events, no output shaping). LEVELS sessions concurrently active in
// this one process; per level one JSON line with the figures concurrency.bench.ts prints.
// Env: A3S_BASE_URL (the scripted server), A3S_ROOT (a directory for the workspaces), LEVELS,
// LATENCY_MS, JOB_TURNS, RG (ripgrep binary), PROFILE (a CPU profile of the timed window of the
// last level, written there).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';

const LEVELS = (process.env.LEVELS ?? '1,50,200').split(',').map(Number);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const JOB_TURNS = Number(process.env.JOB_TURNS ?? 9);
const RG = process.env.RG ?? 'rg';
const root = process.env.A3S_ROOT;
const anthropic = createAnthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: `${process.env.A3S_BASE_URL}/v1` });
const object = (properties, required) => jsonSchema({ type: 'object', additionalProperties: false, properties, required });

const run = (file, args, cwd) =>
  new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: 60_000, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => resolve(`${stdout}${stderr}\nexit code ${error === null ? 0 : (error.code ?? 1)}`));
  });

/** The 4 plain tools over workspace `dir`. */
function toolsFor(dir) {
  return {
    read: tool({
      description: 'Read a text file of the workspace with line numbers.',
      inputSchema: object({ file_path: { type: 'string' } }, ['file_path']),
      execute: async ({ file_path }) =>
        (await readFile(join(dir, file_path), 'utf8'))
          .split('\n')
          .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
          .join('\n'),
    }),
    grep: tool({
      description: 'Search file contents with a regular expression (ripgrep).',
      inputSchema: object({ pattern: { type: 'string' }, output_mode: { type: 'string' } }, ['pattern']),
      execute: ({ pattern }) => run(RG, ['-n', '--', pattern, '.'], dir),
    }),
    edit: tool({
      description: 'Replace one exact occurrence of old_string with new_string in a file.',
      inputSchema: object({ file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, ['file_path', 'old_string', 'new_string']),
      execute: async ({ file_path, old_string, new_string }) => {
        const path = join(dir, file_path);
        const text = await readFile(path, 'utf8');
        if (!text.includes(old_string)) return 'old_string not found';
        await writeFile(path, text.replace(old_string, new_string));
        return `edited ${file_path}`;
      },
    }),
    bash: tool({
      description: 'Run a shell command in the workspace.',
      inputSchema: object({ command: { type: 'string' } }, ['command']),
      execute: ({ command }) => run('bash', ['-c', command], dir),
    }),
  };
}

function workspace(name) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.ts'), `export const a = 1;\n// TODO: first\n// TODO: second\n${'export const filler = "x";\n'.repeat(40)}`);
  writeFileSync(join(dir, 'b.ts'), `// TODO: b\nexport const b = 2;\n`);
  return dir;
}

let anomalies = 0;
async function job(dir) {
  const starts = [];
  const result = await generateText({
    model: anthropic('claude-test'),
    system: 'You are a coding agent working in a local repository. Use the tools to inspect and change files.',
    prompt: 'run the job',
    tools: toolsFor(dir),
    stopWhen: stepCountIs(20),
    maxOutputTokens: 4096,
    // The SDK's default (ours retries too): at 200 sessions a kept-alive socket the server has
    // just closed is met now and then.
    maxRetries: 2,
    onStepStart: () => {
      starts.push(performance.now());
    },
  });
  const end = performance.now();
  if (starts.length !== JOB_TURNS || result.text !== 'done') anomalies += 1;
  return starts.map((start, index) => (starts[index + 1] ?? end) - start - LATENCY_MS);
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

for (let index = 0; index < 2; index += 1) await job(workspace(`bare-warm-${index}`));
for (const level of LEVELS) {
  const dirs = Array.from({ length: level }, (_, index) => workspace(`bare-l${level}-${index}`));
  globalThis.gc?.();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const profiler = process.env.PROFILE && level === LEVELS.at(-1) ? new Session() : null;
  if (profiler !== null) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  lag.enable();
  anomalies = 0;
  const start = performance.now();
  const overheads = (await Promise.all(dirs.map((dir) => job(dir)))).flat();
  const wall = performance.now() - start;
  lag.disable();
  if (profiler !== null) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.PROFILE, JSON.stringify(profile));
    profiler.disconnect();
  }
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({ level, wall, p50: quantile(overheads, 0.5), p99: quantile(overheads, 0.99), lagP99: lag.percentile(99) / 1e6, peakRss: peak, cpuMs: (used.user + used.system) / 1000, anomalies }),
  );
}
