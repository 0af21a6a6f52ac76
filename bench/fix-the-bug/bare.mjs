// Child of loop.bench.ts: the same scripted fix-the-bug job through a bare Vercel `ai` loop
// (streamText + @ai-sdk/anthropic) with 4 plain tools (read, edit, bash, grep) on node:fs and
// child_process: the floor for a governed harness. Prints peak RSS and the tool call count.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { createAnthropic } from '@ai-sdk/anthropic';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';

const run = promisify(execFile);
const dir = process.env.A3S_DIR;
const object = (properties, required) => jsonSchema({ type: 'object', additionalProperties: false, properties, required });
const tools = {
  read: tool({
    description: 'Read a text file of the workspace with line numbers.',
    inputSchema: object({ file_path: { type: 'string', description: 'Workspace-relative path.' } }, ['file_path']),
    execute: async ({ file_path }) =>
      (await readFile(join(dir, file_path), 'utf8'))
        .split('\n')
        .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
        .join('\n'),
  }),
  edit: tool({
    description: 'Replace one exact occurrence of old_string with new_string in a file.',
    inputSchema: object(
      { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
      ['file_path', 'old_string', 'new_string'],
    ),
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
    execute: async ({ command }) => {
      try {
        const { stdout, stderr } = await run('bash', ['-c', command], { cwd: dir, timeout: 60_000 });
        return `${stdout}${stderr}\nexit code 0`;
      } catch (error) {
        return `${error.stdout ?? ''}${error.stderr ?? ''}\nexit code ${error.code ?? 1}`;
      }
    },
  }),
  grep: tool({
    description: 'Search file contents with a regular expression.',
    inputSchema: object({ pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']),
    execute: async ({ pattern, path }) => {
      try {
        return (await run('grep', ['-rnE', '--', pattern, path ?? '.'], { cwd: dir })).stdout;
      } catch {
        return 'no matches';
      }
    },
  }),
};
const anthropic = createAnthropic({ apiKey: 'sk-ant-test-key-000000', baseURL: `${process.env.A3S_BASE_URL}/v1` });
const result = streamText({
  model: anthropic('claude-test'),
  system: 'You are a coding agent working in a local repository. Use the tools to inspect and change files.',
  prompt: 'The add() test fails. Find the bug and fix it.',
  tools,
  stopWhen: stepCountIs(20),
  maxOutputTokens: 4096,
  maxRetries: 0,
});
let toolCalls = 0;
for await (const part of result.fullStream) {
  if (part.type === 'error') throw part.error;
  if (part.type === 'tool-call') toolCalls += 1;
}
console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, toolCalls, text: await result.text }));
