// The CLI as a person uses it: a real process in a pseudo-terminal, answering prompts and
// pressing Ctrl-C. The model is the scripted server; the workspace config points at it. Runs
// the a3s-code binary ($A3S_CODE_BIN, else the built dist/bin.js).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { CLI_BIN_MISSING, cleanEnv, eventually, isAlive, liveProcessesInGroup, spawnInPty, tempDir, writeWorkspaceConfig } from './cli-harness.js';
import type { PtyProcess } from './cli-harness.js';

const PROMPT_TAIL = 'lways allow bash this session';
const count = (text: string, part: string): number => text.split(part).length - 1;

describe.skipIf(CLI_BIN_MISSING)('a3s-code in a pseudo-terminal', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const setUp = async (scenario: Scenario): Promise<{ server: ScriptedModelServer; workspace: string; home: string }> => {
    const server = await startScriptedModelServer({ scenario });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-pty-', { 'README.md': '# pty\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    writeWorkspaceConfig(ws.dir, server, home.dir);
    return { server, workspace: ws.dir, home: home.dir };
  };
  const track = (pty: PtyProcess): PtyProcess => {
    cleanups.push(() => {
      if (pty.child.exitCode === null) pty.child.kill('SIGKILL');
    });
    return pty;
  };

  it('asks twice: the approved command runs and its output shows, the denied one is reported and never runs', async () => {
    const { server, workspace, home } = await setUp([
      toolCallResponse('bash', { command: "printf '%s-%s\\n' approved output" }, { text: 'Running the first command.' }),
      toolCallResponse('bash', { command: 'touch denied-marker.txt' }, { text: 'Now the second one.' }),
      textResponse('One command ran and one was refused.'),
    ]);
    const pty = track(spawnInPty(['run', 'run two commands', '--workspace', workspace, '--permission-mode', 'default'], cleanEnv(home)));

    await pty.waitFor((s) => count(s, PROMPT_TAIL) >= 1, 'the first confirmation prompt');
    expect(pty.screen()).toContain("Allow bash to run: printf '%s-%s\\n' approved output");
    pty.type('y\n');
    await pty.waitFor((s) => count(s, PROMPT_TAIL) >= 2, 'the second confirmation prompt');
    expect(pty.screen()).toContain('Allow bash to run: touch denied-marker.txt');
    pty.type('n\n');
    const code = await pty.exited;
    const screen = pty.screen();

    // The approved command's OUTPUT (not its text) is on screen under its tool line.
    expect(screen).toMatch(/^✓ bash {2}printf .*\n\s+approved-output$/m);
    // The denial is reported on the tool line, and the command never ran.
    expect(screen).toMatch(/^✗ bash {2}touch denied-marker\.txt .*denied: rejected: denied by the user$/m);
    expect(existsSync(join(workspace, 'denied-marker.txt'))).toBe(false);
    expect(screen).toContain('One command ran and one was refused.');
    expect(screen).toMatch(/── done in .* 3 turns · 2 tool calls/);
    // What the model was told.
    expect(toolResultsOf(server.requests[1]!)[0]?.content).toContain('approved-output');
    expect(toolResultsOf(server.requests[2]!)[1]?.content).toContain('Permission denied');
    expect(server.errors).toEqual([]);
    // The run completed but its last tool call was denied: exit code 1 (documented).
    expect(code).toBe(1);
  }, 120_000);

  it('"always" approves later asks for the same tool without asking again', async () => {
    const { workspace, home } = await setUp([
      toolCallResponse('bash', { command: 'echo first > one.txt' }),
      toolCallResponse('bash', { command: 'echo second > two.txt' }),
      textResponse('Both written.'),
    ]);
    const pty = track(spawnInPty(['run', 'write two files', '--workspace', workspace], cleanEnv(home)));
    await pty.waitFor((s) => count(s, PROMPT_TAIL) >= 1, 'the confirmation prompt');
    pty.type('a\n');
    const code = await pty.exited;
    expect(count(pty.screen(), PROMPT_TAIL)).toBe(1);
    expect(readFileSync(join(workspace, 'one.txt'), 'utf8')).toBe('first\n');
    expect(readFileSync(join(workspace, 'two.txt'), 'utf8')).toBe('second\n');
    expect(code).toBe(0);
  }, 120_000);

  it('Ctrl-C during a long bash call cancels the turn, kills its process group and exits 130', async () => {
    const { workspace, home } = await setUp([
      toolCallResponse('bash', { command: 'echo $$ > shell.pid; sleep 60 & echo $! > sleep.pid; wait' }),
      textResponse('never reached'),
    ]);
    const pty = track(spawnInPty(['run', 'sleep a while', '--workspace', workspace, '--yes'], cleanEnv(home)));
    const sleepPidFile = join(workspace, 'sleep.pid');
    const shellPidFile = join(workspace, 'shell.pid');
    expect(await eventually(() => existsSync(sleepPidFile) && readFileSync(sleepPidFile, 'utf8').trim() !== '', 60_000)).toBe(true);
    const shellPid = Number(readFileSync(shellPidFile, 'utf8').trim());
    const sleepPid = Number(readFileSync(sleepPidFile, 'utf8').trim());
    // The tool's shell leads its own process group, and `sleep` is in it.
    expect(liveProcessesInGroup(shellPid)).toContain(sleepPid);

    pty.type('\u0003');
    const code = await pty.exited;
    const screen = pty.screen();
    expect(screen).toContain('cancelling…');
    expect(screen).toMatch(/✗ bash {2}echo \$\$ > shell\.pid.*cancelled/);
    expect(screen).toContain('✗ cancelled');
    expect(screen).not.toContain('never reached');
    expect(code).toBe(130);
    expect(await eventually(() => liveProcessesInGroup(shellPid).length === 0 && !isAlive(sleepPid))).toBe(true);
  }, 120_000);

  it('Ctrl-C while a confirmation question is open cancels the run, exit 130', async () => {
    const { workspace, home } = await setUp([toolCallResponse('bash', { command: 'touch never.txt' }), textResponse('never reached')]);
    const pty = track(spawnInPty(['run', 'ask me', '--workspace', workspace], cleanEnv(home)));
    await pty.waitFor((s) => s.includes(PROMPT_TAIL), 'the confirmation prompt');
    pty.type('\u0003');
    const code = await pty.exited;
    expect(pty.screen()).toContain('✗ cancelled');
    expect(existsSync(join(workspace, 'never.txt'))).toBe(false);
    expect(code).toBe(130);
  }, 120_000);

  it('a second Ctrl-C exits at once, and the tool\'s process group still dies', async () => {
    // The group ignores SIGTERM, so the first Ctrl-C's cancellation waits for the SIGKILL grace.
    const { workspace, home } = await setUp([toolCallResponse('bash', { command: "trap '' TERM; echo $$ > shell.pid; sleep 60 & echo $! > sleep.pid; wait" })]);
    const pty = track(spawnInPty(['run', 'stubborn', '--workspace', workspace, '--yes'], cleanEnv(home)));
    const sleepPidFile = join(workspace, 'sleep.pid');
    expect(await eventually(() => existsSync(sleepPidFile) && readFileSync(sleepPidFile, 'utf8').trim() !== '', 60_000)).toBe(true);
    const shellPid = Number(readFileSync(join(workspace, 'shell.pid'), 'utf8').trim());
    pty.type('\u0003');
    await pty.waitFor((s) => s.includes('cancelling…'), 'the cancelling notice');
    pty.type('\u0003');
    const code = await pty.exited;
    expect(pty.screen()).toContain('interrupted twice, exiting now');
    expect(code).toBe(130);
    expect(await eventually(() => liveProcessesInGroup(shellPid).length === 0)).toBe(true);
  }, 120_000);
});
