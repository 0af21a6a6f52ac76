// Child of loop.bench.ts: the same scripted fix-the-bug job through a bare @anthropic-ai/sdk loop
// (messages.stream, loaded as our Anthropic client loads it: its CommonJS build) with the same 4
// plain tools as bare.mjs. Not a goal row: it shows what the provider SDK that A3S Code must use
// costs on its own, next to the `ai` loop (whose @ai-sdk/anthropic is its own fetch client).
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const Anthropic = createRequire(new URL('../../packages/anthropic/package.json', import.meta.url))('@anthropic-ai/sdk').default;
const run = promisify(execFile);
const dir = process.env.A3S_DIR;
const object = (properties, required) => ({ type: 'object', additionalProperties: false, properties, required });
const tools = {
  read: {
    description: 'Read a text file of the workspace with line numbers.',
    input_schema: object({ file_path: { type: 'string', description: 'Workspace-relative path.' } }, ['file_path']),
    execute: async ({ file_path }) =>
      (await readFile(join(dir, file_path), 'utf8'))
        .split('\n')
        .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
        .join('\n'),
  },
  edit: {
    description: 'Replace one exact occurrence of old_string with new_string in a file.',
    input_schema: object({ file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, ['file_path', 'old_string', 'new_string']),
    execute: async ({ file_path, old_string, new_string }) => {
      const path = join(dir, file_path);
      const text = await readFile(path, 'utf8');
      if (!text.includes(old_string)) return 'old_string not found';
      await writeFile(path, text.replace(old_string, new_string));
      return `edited ${file_path}`;
    },
  },
  bash: {
    description: 'Run a shell command in the workspace.',
    input_schema: object({ command: { type: 'string' } }, ['command']),
    execute: async ({ command }) => {
      try {
        const { stdout, stderr } = await run('bash', ['-c', command], { cwd: dir, timeout: 60_000 });
        return `${stdout}${stderr}\nexit code 0`;
      } catch (error) {
        return `${error.stdout ?? ''}${error.stderr ?? ''}\nexit code ${error.code ?? 1}`;
      }
    },
  },
  grep: {
    description: 'Search file contents with a regular expression.',
    input_schema: object({ pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']),
    execute: async ({ pattern, path }) => {
      try {
        return (await run('grep', ['-rnE', '--', pattern, path ?? '.'], { cwd: dir })).stdout;
      } catch {
        return 'no matches';
      }
    },
  },
};
const client = new Anthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: process.env.A3S_BASE_URL, maxRetries: 0 });
const messages = [{ role: 'user', content: 'The add() test fails. Find the bug and fix it.' }];
let toolCalls = 0;
let text = '';
for (let step = 0; step < 20; step += 1) {
  const message = await client.messages
    .stream({
      model: 'claude-test',
      max_tokens: 4096,
      system: 'You are a coding agent working in a local repository. Use the tools to inspect and change files.',
      tools: Object.entries(tools).map(([name, { description, input_schema }]) => ({ name, description, input_schema })),
      messages,
    })
    .finalMessage();
  messages.push({ role: 'assistant', content: message.content });
  const calls = message.content.filter((block) => block.type === 'tool_use');
  text = message.content.filter((block) => block.type === 'text').map((block) => block.text).join('');
  if (calls.length === 0) break;
  const results = [];
  for (const call of calls) {
    toolCalls += 1;
    results.push({ type: 'tool_result', tool_use_id: call.id, content: await tools[call.name].execute(call.input) });
  }
  messages.push({ role: 'user', content: results });
}
console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, toolCalls, text }));
