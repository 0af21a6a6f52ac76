// The conventions of issue 20 through the packed `a3s-code` binary: `npm pack` of this package,
// unpacked beside its node_modules, run with node as a user would run the installed bin.
// Needs `dist/` (CI builds before testing); locally without a build the file is skipped with a
// message, in CI a missing build fails it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { CLI_DIR, cleanEnv, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

const built = existsSync(join(CLI_DIR, 'dist', 'bin.js'));
const skip = !built && process.env['CI'] !== 'true';
if (skip) console.warn('packed-binary tests skipped: apps/cli/dist is missing (run pnpm build first; CI builds before testing)');

/** Runs the packed bin; resolves with its exit code and output. */
function runPacked(bin: string, args: readonly string[], options: { env: Record<string, string>; cwd: string; input?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

describe.skipIf(skip)('the packed a3s-code binary', () => {
  let dir = '';
  let bin = '';
  const fixture = scriptedRunFixture();
  beforeAll(() => {
    if (!built) throw new Error('apps/cli/dist/bin.js is missing: build before testing');
    // Unpacked inside apps/cli so the bin resolves its dependencies from apps/cli/node_modules.
    dir = mkdtempSync(join(CLI_DIR, '.packed-'));
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: CLI_DIR, encoding: 'utf8' });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? '';
    const untar = spawnSync('tar', ['xzf', tarball], { cwd: dir, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    bin = join(dir, 'package', 'dist', 'bin.js');
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('demo --help and serve --help print usage with exit 0', async () => {
    const home = fixture.tempDir('a3s-packed-home-');
    const demo = await runPacked(bin, ['demo', '--help'], { env: cleanEnv(home), cwd: home });
    const run = await runPacked(bin, ['run', '--help'], { env: cleanEnv(home), cwd: home });
    expect(demo.code).toBe(0);
    expect(demo.stdout).toBe(run.stdout);
    const serve = await runPacked(bin, ['serve', '--help'], { env: cleanEnv(home), cwd: home });
    expect(serve.code).toBe(0);
    expect(serve.stdout).toContain('--state-dir');
  });

  it('--json: a usage error is one JSON line with metadata, exit 2', async () => {
    const home = fixture.tempDir('a3s-packed-home-');
    const result = await runPacked(bin, ['run', '--json'], { env: cleanEnv(home), cwd: home });
    expect(result.code).toBe(2);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ version: 1, type: 'error', payload: { code: 'CONFIG_ERROR' }, metadata: { timestamp_ms: expect.any(Number) } });
  });

  it('run - reads the prompt from stdin; --json --compact has no delta lines; -o writes the answer; TERM=dumb has no escapes', async () => {
    const home = fixture.tempDir('a3s-packed-home-');
    const ws = fixture.tempDir('a3s-packed-ws-', { 'README.md': '# packed\n' });
    const model = await fixture.start([toolCallResponse('read', { file_path: 'README.md' }), textResponse(['Packed ', 'answer.']), textResponse('Plain answer.')]);
    writeWorkspaceConfig(ws, model, home);
    const json = await runPacked(bin, ['run', '-', '--workspace', ws, '--json', '--compact', '-o', 'answer.txt'], { env: cleanEnv(home), cwd: ws, input: 'what is in the readme?\n' });
    expect(json.code).toBe(0);
    expect(JSON.stringify(model.requests[0]?.body)).toContain('what is in the readme?');
    const lines = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; metadata?: unknown });
    expect(lines.map((l) => l.type)).toEqual(expect.arrayContaining(['tool_start', 'tool_end', 'agent_end']));
    expect(lines.filter((l) => l.type.endsWith('_delta'))).toEqual([]);
    expect(lines.every((l) => typeof l.metadata === 'object')).toBe(true);
    expect(readFileSync(join(ws, 'answer.txt'), 'utf8')).toBe('Packed answer.');

    const dumb = await runPacked(bin, ['run', 'say it', '--workspace', ws], { env: cleanEnv(home, { TERM: 'dumb', FORCE_COLOR: '' }), cwd: ws });
    expect(dumb.code).toBe(0);
    expect(dumb.stdout).toContain('Plain answer.');
    expect(dumb.stdout + dumb.stderr).not.toContain('\u001b');
  });
});
