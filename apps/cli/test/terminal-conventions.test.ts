// Terminal conventions of issue 20: `demo --help` works like `run --help`; TERM=dumb turns
// colour, the spinner and cursor movement off even on a TTY; every `--json` line carries
// `metadata`, the `error` line of a failure before the run included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { colorWanted } from '../src/ansi.js';
import { displayWidth } from '../src/display-width.js';
import { oneLine } from '../src/tool-summary.js';
import { main } from '../src/main.js';
import { cleanEnv, runMain, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

/** A non-TTY stdin with nothing on it (a closed pipe). */
const closedStdin = (): PassThrough => {
  const stdin = new PassThrough();
  stdin.end();
  return stdin;
};

describe('terminal conventions', () => {
  const fixture = scriptedRunFixture();

  it('demo --help (and -h) prints the usage and exits 0, like run --help', async () => {
    const home = fixture.tempDir('a3s-cli-home-');
    for (const flag of ['--help', '-h']) {
      const demo = await runMain(['demo', flag], { env: cleanEnv(home), cwd: home });
      const run = await runMain(['run', flag], { env: cleanEnv(home), cwd: home });
      expect(demo.code).toBe(0);
      expect(demo.stdout).toBe(run.stdout);
      expect(demo.stdout).toContain('a3s-code demo');
    }
  });

  it('colour is off for TERM=dumb unless FORCE_COLOR asks for it', () => {
    expect(colorWanted(true, { TERM: 'xterm-256color' })).toBe(true);
    expect(colorWanted(true, { TERM: 'dumb' })).toBe(false);
    expect(colorWanted(true, { TERM: 'dumb', FORCE_COLOR: '1' })).toBe(true);
  });

  it('TERM=dumb on a TTY: no escape sequences, no spinner, no redrawn lines', async () => {
    const ws = fixture.tempDir('a3s-cli-dumb-', { 'README.md': '# dumb\n' });
    const home = fixture.tempDir('a3s-cli-home-');
    writeWorkspaceConfig(ws, await fixture.start([toolCallResponse('read', { file_path: 'README.md' }, { latencyMs: 300 }), textResponse(['Read ', 'it.'], { latencyMs: 300 })]), home);
    const output = (tty: boolean): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } => {
      const stream = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 80 } : {});
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      return { stream, text: () => text };
    };
    const stdout = output(true);
    const stderr = output(true);
    const code = await main(['run', 'read the readme', '--workspace', ws, '--yes'], { stdin: closedStdin(), stdout: stdout.stream, stderr: stderr.stream, env: cleanEnv(home, { TERM: 'dumb' }), cwd: ws });
    expect(code).toBe(0);
    const all = stdout.text() + stderr.text();
    // Progress on stderr, the answer alone on stdout (not live, so it is not streamed twice).
    expect(stdout.text()).toBe('Read it.\n');
    expect(stderr.text()).toMatch(/^✓ read {2}README\.md/m);
    expect(stderr.text()).not.toContain('Read it.');
    expect(all).not.toContain('\u001b');
    expect(all).not.toContain('\r');
  });

  it('--json: every line carries metadata, the error line of a usage error too', async () => {
    const home = fixture.tempDir('a3s-cli-home-');
    const usage = await runMain(['run', '--json'], { env: cleanEnv(home), cwd: home });
    expect(usage.code).toBe(2);
    const [errorLine, ...rest] = usage.stdout.trim().split('\n');
    expect(rest).toEqual([]);
    const error = JSON.parse(errorLine ?? '{}') as { type: string; payload: { code: string }; metadata: { timestamp_ms: number } };
    expect(error).toMatchObject({ version: 1, type: 'error', payload: { code: 'CONFIG_ERROR' } });
    expect(typeof error.metadata.timestamp_ms).toBe('number');

    const ws = fixture.tempDir('a3s-cli-json-', { 'README.md': '# json\n' });
    writeWorkspaceConfig(ws, await fixture.start([toolCallResponse('read', { file_path: 'README.md' }), textResponse('Done.')]), home);
    const run = await runMain(['run', 'read it', '--workspace', ws, '--json'], { env: cleanEnv(home), cwd: ws });
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { metadata?: unknown });
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((line) => typeof line.metadata === 'object' && line.metadata !== null)).toBe(true);
  });

  it('run - reads the prompt from stdin; --compact drops the delta lines; -o writes the final answer', async () => {
    const home = fixture.tempDir('a3s-cli-home-');
    const ws = fixture.tempDir('a3s-cli-stdin-', { 'README.md': '# stdin\n' });
    const model = await fixture.start([toolCallResponse('read', { file_path: 'README.md' }), textResponse(['The ', 'answer.'])]);
    writeWorkspaceConfig(ws, model, home);
    const stdin = new PassThrough();
    stdin.end('what does the readme say?\n');
    const out = new PassThrough();
    let stdout = '';
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const code = await main(['run', '-', '--workspace', ws, '--json', '--compact', '-o', 'answer.txt'], { stdin, stdout: out, stderr: new PassThrough(), env: cleanEnv(home), cwd: ws });
    expect(code).toBe(0);
    expect(JSON.stringify(model.requests[0]?.body)).toContain('what does the readme say?');
    const types = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['agent_start', 'tool_start', 'tool_end', 'turn_end', 'agent_end']));
    expect(types.filter((t) => t.endsWith('_delta'))).toEqual([]);
    expect(readFileSync(join(ws, 'answer.txt'), 'utf8')).toBe('The answer.');

    const empty = new PassThrough();
    empty.end('');
    const err = new PassThrough();
    let stderr = '';
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    expect(await main(['run', '-', '--workspace', ws], { stdin: empty, stdout: new PassThrough(), stderr: err, env: cleanEnv(home), cwd: ws })).toBe(2);
    expect(stderr).toContain('stdin was empty');
    const compactAlone = await runMain(['run', 'x', '--compact'], { env: cleanEnv(home), cwd: ws });
    expect(compactAlone.code).toBe(2);
    expect(compactAlone.stderr).toContain('--compact only applies to --json');
  });

  it('with a prompt argument, a piped stdin is appended as context; an empty one adds nothing', async () => {
    const home = fixture.tempDir('a3s-cli-home-');
    const ws = fixture.tempDir('a3s-cli-ctx-');
    const model = await fixture.start([textResponse('Looks fine.'), textResponse('Nothing piped.')]);
    writeWorkspaceConfig(ws, model, home);
    const piped = await runMain(['run', 'review this diff', '--workspace', ws], { env: cleanEnv(home), cwd: ws, input: '--- a/x\n+++ b/x\n-old\n+new\n' });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('Looks fine.\n');
    expect(JSON.stringify(model.requests[0]?.body)).toContain(JSON.stringify('review this diff\n\n<stdin>\n--- a/x\n+++ b/x\n-old\n+new\n</stdin>').slice(1, -1));
    const empty = await runMain(['run', 'just this', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(empty.code).toBe(0);
    expect(JSON.stringify(model.requests[1]?.body)).not.toContain('<stdin>');
  });

  it('a 401 is printed once, on stderr, whether stdout is a terminal or not; --json has one error line', async () => {
    const home = fixture.tempDir('a3s-cli-home-');
    const ws = fixture.tempDir('a3s-cli-401-', { 'README.md': '# 401\n' });
    writeWorkspaceConfig(ws, await fixture.start(() => errorResponse(401, { message: 'invalid x-api-key' })), home);
    const capture = (tty: boolean): { stream: PassThrough; text: () => string } => {
      const stream = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 100 } : {});
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      return { stream, text: () => text };
    };
    for (const tty of [true, false]) {
      const stdout = capture(tty);
      const stderr = capture(tty);
      const code = await main(['run', 'hi', '--workspace', ws], { stdin: closedStdin(), stdout: stdout.stream, stderr: stderr.stream, env: cleanEnv(home, { TERM: 'dumb' }), cwd: ws });
      expect(code).toBe(3);
      expect(stdout.text()).toBe('');
      expect(stderr.text().split('invalid x-api-key').length - 1).toBe(1);
      expect(stderr.text()).toMatch(/✗ error LLM_ERROR: .*HTTP 401/);
    }
    const json = await runMain(['run', 'hi', '--workspace', ws, '--json'], { env: cleanEnv(home), cwd: ws });
    expect(json.code).toBe(3);
    expect((json.stdout + json.stderr).split('invalid x-api-key').length - 1).toBe(1);
    const last = JSON.parse(json.stdout.trim().split('\n').at(-1) ?? '{}') as { type?: string; metadata?: unknown };
    expect(last.type).toBe('error');
    expect(typeof last.metadata).toBe('object');
  });

  it('tool arguments are cut at display columns, not string length', () => {
    const cut = oneLine('echo 日本語のテキスト 🙂 '.repeat(10), 30);
    expect(displayWidth(cut)).toBeLessThanOrEqual(30);
    expect(displayWidth(cut)).toBeGreaterThanOrEqual(28);
    expect(cut.endsWith('…')).toBe(true);
  });
});
