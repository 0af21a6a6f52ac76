// Every program under examples/ runs against the scripted model server, as a user would run it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { aclFor, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function runExample(file: string, args: readonly string[], env: Record<string, string>, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', join(root, file), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('examples', () => {
  it('streaming/hitl_confirmation_loop.ts: approves one confirmation and rejects the next from stdin', { timeout: 60_000 }, async () => {
    h = await startHarness('anthropic', [
      toolCallResponse('write', { file_path: 'approved.txt', content: 'yes' }),
      toolCallResponse('write', { file_path: 'rejected.txt', content: 'no' }),
      textResponse('Wrote one file; the other was refused.'),
    ]);
    const result = await runExample('examples/streaming/hitl_confirmation_loop.ts', [h.dir, 'Write two files'], { A3S_ACL: aclFor(h.server, 'anthropic') }, 'y\nn\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Wrote one file; the other was refused.');
    expect(result.stdout).toMatch(/\[write\] exit 0[\s\S]*\[write\] exit 1/);
    expect(result.stdout).toMatch(/run run_\S+ completed: \d+ events, 2 tool call\(s\)/);
    expect(result.stderr.match(/Allow write/g)).toHaveLength(2);
    expect(readFileSync(join(h.dir, 'approved.txt'), 'utf8')).toBe('yes');
    expect(() => readFileSync(join(h!.dir, 'rejected.txt'))).toThrow();
  });
});
