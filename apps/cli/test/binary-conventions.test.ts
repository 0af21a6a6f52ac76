// The Unix-tool conventions of issue 20, through the a3s-code binary as a user runs it:
// `$A3S_CODE_BIN` (the packaging job sets it to the bin of the packed, installed tarball), else
// the built apps/cli/dist/bin.js. Model traffic is real HTTP to the scripted model server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { displayWidth } from '../src/display-width.js';
import { CLI_BIN_MISSING, cleanEnv, runBin, scriptedRunFixture, spawnInPty, writeWorkspaceConfig } from './cli-harness.js';

/** Every escape sequence (colour, cursor movement, erase). */
const ESCAPE = /\u001b/;
/** SGR (colour / bold / dim) sequences. */
const SGR = /\u001b\[[0-9;]*m/;
const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

interface Envelope {
  version: number;
  type: string;
  payload: Record<string, unknown>;
  metadata?: unknown;
}

/** stdout as JSONL: every line one JSON object with version 1 and an object `metadata`. */
function jsonLines(stdout: string): Envelope[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const value = JSON.parse(line) as Envelope;
      expect(value.version).toBe(1);
      expect(typeof value.metadata === 'object' && value.metadata !== null, `no metadata: ${line}`).toBe(true);
      return value;
    });
}

describe.skipIf(CLI_BIN_MISSING)('the a3s-code binary', () => {
  const fixture = scriptedRunFixture();
  const setUp = async (scenario: Scenario, files: Readonly<Record<string, string>> = { 'README.md': '# bin\n' }): Promise<{ ws: string; home: string; model: ScriptedModelServer }> => {
    const model = await fixture.start(scenario);
    const ws = fixture.tempDir('a3s-bin-ws-', files);
    const home = fixture.tempDir('a3s-bin-home-');
    writeWorkspaceConfig(ws, model, home);
    return { ws, home, model };
  };

  it('progress goes to stderr and only the final answer to stdout; -o / --output-last-message write it to a file', async () => {
    const { ws, home, model } = await setUp([toolCallResponse('read', { file_path: 'README.md' }, { text: 'Reading it.' }), textResponse(['The ', 'answer.'])]);
    const result = await runBin(['run', 'what is in the readme?', '--workspace', ws, '-o', 'answer.txt'], { env: cleanEnv(home), cwd: ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The answer.\n');
    expect(result.stderr).toMatch(/^a3s-code · anthropic\/claude-test · /);
    expect(result.stderr).toContain('Reading it.');
    expect(result.stderr).toMatch(/^✓ read {2}README\.md {2}\S+$/m);
    expect(result.stderr).toMatch(/^── done in .* · 2 turns · 1 tool call · /m);
    expect(result.stderr).not.toContain('The answer.');
    // Neither stream is a terminal: no colour, no spinner, no cursor movement.
    expect(result.stdout + result.stderr).not.toMatch(ESCAPE);
    expect(result.stderr).not.toContain('\r');
    expect(readFileSync(join(ws, 'answer.txt'), 'utf8')).toBe('The answer.');

    model.setScenario([textResponse('Second answer.')]);
    const long = await runBin(['run', 'again', '--workspace', ws, '--output-last-message', 'last.md'], { env: cleanEnv(home), cwd: ws });
    expect(long.code).toBe(0);
    expect(long.stdout).toBe('Second answer.\n');
    expect(readFileSync(join(ws, 'last.md'), 'utf8')).toBe('Second answer.');
  });

  it('run - reads the prompt from stdin; with a prompt argument a piped stdin is appended as context', async () => {
    const { ws, home, model } = await setUp([textResponse('From stdin.'), textResponse('Reviewed.'), textResponse('No context.')]);
    const dash = await runBin(['run', '-', '--workspace', ws], { env: cleanEnv(home), cwd: ws, input: 'what is 2 + 2?\n' });
    expect(dash.code).toBe(0);
    expect(dash.stdout).toBe('From stdin.\n');
    expect(JSON.stringify(model.requests[0]?.body)).toContain('what is 2 + 2?');

    const piped = await runBin(['run', 'review this patch', '--workspace', ws], { env: cleanEnv(home), cwd: ws, input: '-old line\n+new line\n' });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('Reviewed.\n');
    expect(JSON.stringify(model.requests[1]?.body)).toContain(JSON.stringify('review this patch\n\n<stdin>\n-old line\n+new line\n</stdin>').slice(1, -1));

    // A closed, empty stdin (`< /dev/null`) adds nothing and does not wait.
    const empty = await runBin(['run', 'just the prompt', '--workspace', ws], { env: cleanEnv(home), cwd: ws, input: '' });
    expect(empty.code).toBe(0);
    expect(JSON.stringify(model.requests[2]?.body)).not.toContain('<stdin>');
    expect(empty.stderr).not.toContain('no data on stdin');

    const nothing = await runBin(['run', '-', '--workspace', ws], { env: cleanEnv(home), cwd: ws, input: '' });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('stdin was empty');
    expect(nothing.stdout).toBe('');
  });

  it('--json: one JSON object per line, each with metadata (usage error, run, model failure); --compact drops only the delta lines', async () => {
    const home = fixture.tempDir('a3s-bin-home-');
    const usage = await runBin(['run', '--json'], { env: cleanEnv(home), cwd: home });
    expect(usage.code).toBe(2);
    const [usageError, ...more] = jsonLines(usage.stdout);
    expect(more).toEqual([]);
    expect(usageError).toMatchObject({ type: 'error', payload: { code: 'CONFIG_ERROR' }, metadata: { timestamp_ms: expect.any(Number) } });

    const scenario = (): Scenario => [toolCallResponse('read', { file_path: 'README.md' }, { text: 'Reading.' }), textResponse(['All ', 'done.'])];
    const { ws, home: wsHome, model } = await setUp(scenario());
    const full = await runBin(['run', 'read it', '--workspace', ws, '--json', '-o', 'out.txt'], { env: cleanEnv(wsHome), cwd: ws });
    expect(full.code).toBe(0);
    const fullEvents = jsonLines(full.stdout);
    expect(fullEvents.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(0);
    expect(readFileSync(join(ws, 'out.txt'), 'utf8')).toBe('All done.');

    model.setScenario(scenario());
    const compact = await runBin(['run', 'read it', '--workspace', ws, '--json', '--compact'], { env: cleanEnv(wsHome), cwd: ws });
    expect(compact.code).toBe(0);
    const compactEvents = jsonLines(compact.stdout);
    expect(compactEvents.filter((e) => e.type.endsWith('_delta'))).toEqual([]);
    expect(compactEvents.map((e) => e.type)).toEqual(fullEvents.filter((e) => !e.type.endsWith('_delta')).map((e) => e.type));
    expect(compactEvents.map((e) => e.type)).toEqual(expect.arrayContaining(['agent_start', 'turn_start', 'tool_start', 'tool_end', 'turn_end', 'agent_end']));
    expect(compactEvents.at(-1)?.payload['text']).toBe('All done.');

    model.setScenario([errorResponse(401, { message: 'invalid x-api-key' })]);
    const failed = await runBin(['run', 'hi', '--workspace', ws, '--json'], { env: cleanEnv(wsHome), cwd: ws });
    expect(failed.code).toBe(3);
    const events = jsonLines(failed.stdout);
    expect(events.at(-1)).toMatchObject({ type: 'error', payload: { code: 'LLM_ERROR' } });
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('demo --help prints the usage of run --help, exit 0', async () => {
    const home = fixture.tempDir('a3s-bin-home-');
    const demo = await runBin(['demo', '--help'], { env: cleanEnv(home), cwd: home });
    const run = await runBin(['run', '--help'], { env: cleanEnv(home), cwd: home });
    expect(demo.code).toBe(0);
    expect(demo.stderr).toBe('');
    expect(demo.stdout).toBe(run.stdout);
    expect(demo.stdout).toContain('a3s-code demo');
    expect(demo.stdout).toContain('--output-last-message');
  });

  it('a 401 from the provider is printed once, on stderr; stdout stays empty; exit 3', async () => {
    const { ws, home, model } = await setUp(() => errorResponse(401, { message: 'invalid x-api-key' }));
    const result = await runBin(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('invalid x-api-key').length - 1).toBe(1);
    expect(result.stderr).toMatch(/^✗ error LLM_ERROR: .*HTTP 401/m);
    // Authentication failures are not retried.
    expect(model.requests).toHaveLength(1);
  });

  it('widths are display columns: a command of wide characters is cut at 80 columns on its tool line', async () => {
    const command = `echo ${'日本語のテキスト🙂'.repeat(12)}`;
    const { ws, home } = await setUp([toolCallResponse('bash', { command }), textResponse('Echoed.')]);
    const result = await runBin(['run', 'echo it', '--workspace', ws, '--yes'], { env: cleanEnv(home), cwd: ws });
    expect(result.code).toBe(0);
    const key = /^✓ bash {2}(.*…) {2}\S+$/m.exec(result.stderr)?.[1];
    expect(key, result.stderr).toBeDefined();
    expect(key?.startsWith('echo 日本語')).toBe(true);
    expect(displayWidth(key ?? '')).toBeLessThanOrEqual(80);
    expect(displayWidth(key ?? '')).toBeGreaterThanOrEqual(79);
    // Counted in string length, the cut would have kept about twice as many characters.
    expect((key ?? '').length).toBeLessThan(50);
  });

  describe('on a terminal (pseudo-terminal)', () => {
    const slowScenario = (): Scenario => [toolCallResponse('read', { file_path: 'README.md' }, { latencyMs: 600 }), textResponse(['Done ', 'reading.'], { latencyMs: 600 })];
    const runInPty = async (term: string, extra: Record<string, string> = {}): Promise<{ raw: string; screen: string; code: number }> => {
      const { ws, home } = await setUp(slowScenario());
      const pty = spawnInPty(['run', 'read the readme', '--workspace', ws, '--yes'], cleanEnv(home, extra), { term });
      const code = await pty.exited;
      return { raw: pty.raw(), screen: pty.screen(), code };
    };

    it('xterm: colour and a spinner; the streamed answer is shown once', async () => {
      const { raw, screen, code } = await runInPty('xterm');
      expect(code).toBe(0);
      expect(raw).toMatch(SGR);
      expect(raw).toMatch(SPINNER_FRAMES);
      expect(screen.split('Done reading.').length - 1).toBe(1);
    });

    it('TERM=dumb: no escape sequences, no spinner, no line redrawn with a carriage return', async () => {
      const { raw, screen, code } = await runInPty('dumb');
      expect(code).toBe(0);
      expect(raw).not.toMatch(ESCAPE);
      expect(raw).not.toMatch(SPINNER_FRAMES);
      // The terminal turns each \n into \r\n; any other \r would be a redraw.
      expect(raw.replace(/\r\n/g, '\n')).not.toContain('\r');
      expect(screen).toMatch(/^✓ read {2}README\.md/m);
      expect(screen.split('Done reading.').length - 1).toBe(1);
    });

    it('NO_COLOR: no colour (the spinner stays: it is not colour)', async () => {
      const { raw, code } = await runInPty('xterm', { NO_COLOR: '1' });
      expect(code).toBe(0);
      expect(raw).not.toMatch(SGR);
    });
  });
});
