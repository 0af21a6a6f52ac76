// `a3s-code demo` with no API key: the bundled scripted model really fixes the copied repo.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stripAnsi } from '../src/ansi.js';
import { demoRepoPath } from '../src/demo-command.js';
import { cleanEnv, runMain, tempDir } from './cli-harness.js';

const workspaceOf = (output: string): string => {
  const match = /sample repo is in (\S+)/.exec(stripAnsi(output));
  expect(match, output).not.toBeNull();
  return match![1]!;
};

describe('a3s-code demo', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('fixes the failing test of a temp copy with the scripted model when no key is set', async () => {
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    // The bundled repo really is broken, so the demo has something to fix.
    expect(() => execFileSync(process.execPath, ['test.js'], { cwd: demoRepoPath(), stdio: 'pipe' })).toThrow();

    const result = await runMain(['demo'], { env: cleanEnv(home.dir), cwd: home.dir });
    // What it did goes to stderr (the human's stream); stdout gets only the session's answer.
    const out = stripAnsi(result.stderr);
    const workspace = workspaceOf(result.stderr);
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));

    expect(out).toContain('no API key found: using the bundled scripted model');
    expect(out).toMatch(/^✗ bash {2}node test\.js .*exit 1$/m);
    expect(out).toMatch(/^✓ grep {2}function sum\\b/m);
    expect(out).toMatch(/^✓ read {2}src\/stats\.js/m);
    expect(out).toMatch(/^✓ edit {2}src\/stats\.js/m);
    expect(out).toMatch(/^✓ bash {2}node test\.js/m);
    expect(out).toContain('final diff:');
    expect(out).toContain('-  for (let i = 1; i < values.length; i++) {');
    expect(out).toContain('+  for (let i = 0; i < values.length; i++) {');
    expect(out).toContain('✓ tests pass: node test.js -> all 4 tests passed');
    expect(result.stdout).toMatch(/^Fixed `sum` in `src\/stats\.js` \(line \d+\): .*\n$/s);
    expect(result.stdout).toContain('all 4 tests passed');
    expect(result.stdout).not.toMatch(/✓|final diff|sample repo is in/);
    // The copy is fixed (and the tests pass when run here, outside the CLI); the original is not.
    expect(readFileSync(join(workspace, 'src/stats.js'), 'utf8')).toContain('for (let i = 0; i < values.length; i++)');
    expect(execFileSync(process.execPath, ['test.js'], { cwd: workspace, encoding: 'utf8' })).toContain('all 4 tests passed');
    expect(readFileSync(join(demoRepoPath(), 'src/stats.js'), 'utf8')).toContain('for (let i = 1; i < values.length; i++)');
    expect(result.code).toBe(0);
  });

  it('--json keeps stdout to envelopes and says on stderr which model it uses', async () => {
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    const result = await runMain(['demo', '--json'], { env: cleanEnv(home.dir), cwd: home.dir });
    const workspace = workspaceOf(result.stderr);
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    expect(result.stderr).toContain('no API key found: using the bundled scripted model');
    const types = result.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('agent_start');
    expect(types.at(-1)).toBe('agent_end');
    expect(types.filter((t) => t === 'tool_end')).toHaveLength(5);
    expect(result.code).toBe(0);
  });
});
