// The 4 plain tools (read, edit, bash, grep on node:fs and child_process) of the bare loops
// (bare.mjs through `ai`, bare-sdk.mjs through @anthropic-ai/sdk): name -> description, JSON
// Schema and implementation, over the workspace in A3S_DIR.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dir = process.env.A3S_DIR;
const object = (properties, required) => ({ type: 'object', additionalProperties: false, properties, required });

export const SYSTEM_PROMPT = 'You are a coding agent working in a local repository. Use the tools to inspect and change files.';
export const TASK = 'The add() test fails. Find the bug and fix it.';

export const plainTools = {
  read: {
    description: 'Read a text file of the workspace with line numbers.',
    schema: object({ file_path: { type: 'string', description: 'Workspace-relative path.' } }, ['file_path']),
    execute: async ({ file_path }) =>
      (await readFile(join(dir, file_path), 'utf8'))
        .split('\n')
        .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
        .join('\n'),
  },
  edit: {
    description: 'Replace one exact occurrence of old_string with new_string in a file.',
    schema: object({ file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, ['file_path', 'old_string', 'new_string']),
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
    schema: object({ command: { type: 'string' } }, ['command']),
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
    schema: object({ pattern: { type: 'string' }, path: { type: 'string' } }, ['pattern']),
    execute: async ({ pattern, path }) => {
      try {
        return (await run('grep', ['-rnE', '--', pattern, path ?? '.'], { cwd: dir })).stdout;
      } catch {
        return 'no matches';
      }
    },
  },
};
