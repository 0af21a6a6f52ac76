// The interactive terminal as a person uses it: `a3s-code` in a tmux pane, typing prompts,
// answering an ask inline, /help, Ctrl-C during a turn, /exit, then `a3s-code --continue`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { CLI_BIN_MISSING, cleanEnv, eventually, liveProcessesInGroup, runBin, scriptedAcl, tempDir, writeWorkspaceConfig } from './cli-harness.js';
import { HAS_TMUX, startInTmux } from './tmux-harness.js';
import type { TmuxProcess } from './tmux-harness.js';

const count = (text: string, part: string): number => text.split(part).length - 1;
/** The prompt is back: the last non-empty line of the screen is `›`. */
const atPrompt = (screen: string): boolean => /^›\s*$/.test(screen.trimEnd().split('\n').at(-1) ?? '');

describe.skipIf(CLI_BIN_MISSING || !HAS_TMUX)('a3s-code chat in a terminal (tmux)', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('two prompts in one chat, an inline approval, /help, Ctrl-C during a turn, /exit, then --continue', async () => {
    const server = await startScriptedModelServer({
      scenario: [
        textResponse('First answer.'),
        toolCallResponse('bash', { command: 'echo approved-run' }),
        textResponse('Ran it.'),
        toolCallResponse('bash', { command: 'echo $$ > pid.txt; sleep 30; touch late.txt' }),
        textResponse('Continued where we left off.'),
      ],
    });
    cleanups.push(() => server.close());
    const ws = tempDir('a3s-cli-chat-', { 'README.md': '# chat\n' });
    cleanups.push(ws.cleanup);
    const home = tempDir('a3s-cli-home-');
    cleanups.push(home.cleanup);
    writeWorkspaceConfig(ws.dir, server, home.dir);
    const start = (args: string[]): TmuxProcess => {
      const pane = startInTmux(args, cleanEnv(home.dir), ws.dir);
      cleanups.push(() => pane.kill());
      return pane;
    };

    const chat = start(['--workspace', ws.dir]);
    await chat.waitFor((s) => s.includes('/help for commands') && atPrompt(s), 'the chat header and prompt');
    const sessionId = /session (\S+) · \/help/.exec(chat.screen())?.[1];
    expect(sessionId).toBeDefined();

    chat.type('first question');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('First answer.') && atPrompt(s), 'the first answer');

    chat.type('run something');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('Allow bash to run: echo approved-run'), 'the inline question');
    chat.type('y');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('Ran it.') && atPrompt(s), 'the second answer');
    expect(chat.screen()).toMatch(/✓ bash {2}echo approved-run/);
    // The second prompt's model request carries the first exchange.
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain('first question');
    expect(second).toContain('First answer.');
    expect(second).toContain('run something');

    chat.type('/help');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('/sessions') && s.includes('/exit') && s.includes('/compact') && atPrompt(s), 'the /help text');
    expect(server.requests).toHaveLength(3);

    chat.type('wait a bit');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('Allow bash to run: echo $$ > pid.txt'), 'the third question');
    chat.type('y');
    chat.press('Enter');
    expect(await eventually(() => existsSync(join(ws.dir, 'pid.txt')) && readFileSync(join(ws.dir, 'pid.txt'), 'utf8').trim().length > 0)).toBe(true);
    const pid = Number(readFileSync(join(ws.dir, 'pid.txt'), 'utf8').trim());
    chat.press('C-c');
    await chat.waitFor((s) => s.includes('turn cancelled') && atPrompt(s), 'the cancelled turn and the prompt again');
    expect(await eventually(() => liveProcessesInGroup(pid).length === 0)).toBe(true);
    expect(existsSync(join(ws.dir, 'late.txt'))).toBe(false);

    chat.type('/exit');
    chat.press('Enter');
    await chat.waitFor((s) => s.includes('[exited '), 'the chat to end');
    expect(chat.exitCode()).toBe(0);
    expect(chat.screen()).toContain('a3s-code --continue to pick it up');
    const requestsBefore = server.requests.length;

    const again = start(['--continue', '--workspace', ws.dir]);
    await again.waitFor((s) => s.includes('(resumed,') && atPrompt(s), 'the resumed chat');
    expect(again.screen()).toContain(`session ${sessionId!} (resumed,`);
    // Input history survives the chat: ↑ brings back the last prompt (/exit); Ctrl-U clears it.
    expect(readFileSync(join(home.dir, '.a3s', 'chat-history'), 'utf8')).toBe('first question\nrun something\n/help\nwait a bit\n/exit\n');
    again.press('Up');
    await again.waitFor((s) => /^› \/exit\s*$/m.test(s), 'the last prompt from the history');
    again.press('C-u');
    again.type('where were we?');
    again.press('Enter');
    await again.waitFor((s) => s.includes('Continued where we left off.') && atPrompt(s), 'the answer in the continued chat');
    const carried = JSON.stringify(server.requests[requestsBefore]!.body);
    expect(carried).toContain('first question');
    expect(carried).toContain('Ran it.');
    expect(carried).toContain('where were we?');
    again.press('C-d');
    await again.waitFor((s) => s.includes('[exited '), 'Ctrl-D to leave');
    expect(again.exitCode()).toBe(0);
    expect(server.errors).toEqual([]);
  }, 180_000);
});

describe.skipIf(CLI_BIN_MISSING || !HAS_TMUX)('a3s-code chat: a second Ctrl-C', () => {
  it('exits at once with 130 and leaves no tool process', async () => {
    // The command ignores SIGTERM (and so does its `sleep`), so the cancel of the first Ctrl-C waits
    // out the kill grace (2 s) before SIGKILL: the second Ctrl-C always lands while the turn is
    // still cancelling. A command that dies at SIGTERM can end the turn first on a fast direct
    // spawn, and a second Ctrl-C at the empty prompt then leaves the chat with 0, as it should.
    const server = await startScriptedModelServer({ scenario: [toolCallResponse('bash', { command: "trap '' TERM; echo $$ > pid.txt; sleep 60" })] });
    const ws = tempDir('a3s-cli-chat-');
    const home = tempDir('a3s-cli-home-');
    writeWorkspaceConfig(ws.dir, server, home.dir);
    const chat = startInTmux(['--yes'], cleanEnv(home.dir), ws.dir);
    try {
      await chat.waitFor((s) => s.includes('/help for commands') && atPrompt(s), 'the chat');
      chat.type('sleep');
      chat.press('Enter');
      expect(await eventually(() => existsSync(join(ws.dir, 'pid.txt')) && readFileSync(join(ws.dir, 'pid.txt'), 'utf8').trim().length > 0)).toBe(true);
      const pid = Number(readFileSync(join(ws.dir, 'pid.txt'), 'utf8').trim());
      chat.press('C-c');
      chat.press('C-c');
      await chat.waitFor((s) => s.includes('[exited '), 'the exit');
      expect(chat.exitCode()).toBe(130);
      expect(await eventually(() => liveProcessesInGroup(pid).length === 0)).toBe(true);
    } finally {
      chat.kill();
      await server.close();
      ws.cleanup();
      home.cleanup();
    }
  }, 120_000);
});

describe.skipIf(CLI_BIN_MISSING || !HAS_TMUX)('a3s-code chat: /model', () => {
  it('switches the session to another declared model, keeping the conversation; refuses an undeclared one', async () => {
    const server = await startScriptedModelServer({ scenario: [textResponse('One.'), textResponse('Two.')] });
    const ws = tempDir('a3s-cli-chat-');
    const home = tempDir('a3s-cli-home-');
    const config = join(ws.dir, 'agent.acl');
    writeFileSync(config, scriptedAcl(server).replace('models "claude-test" { tool_call = true }', 'models "claude-test" { tool_call = true }\n  models "claude-other" { tool_call = true }'));
    const chat = startInTmux(['--config', config], cleanEnv(home.dir), ws.dir);
    try {
      await chat.waitFor((s) => s.includes('/help for commands') && atPrompt(s), 'the chat');
      chat.type('first');
      chat.press('Enter');
      await chat.waitFor((s) => s.includes('One.') && atPrompt(s), 'the first answer');
      chat.type('/model anthropic/nope');
      chat.press('Enter');
      await chat.waitFor((s) => s.includes("'anthropic/nope' is not declared") && atPrompt(s), 'the refusal');
      chat.type('/model anthropic/claude-other');
      chat.press('Enter');
      await chat.waitFor((s) => s.includes('now on anthropic/claude-other') && atPrompt(s), 'the switch');
      chat.type('second');
      chat.press('Enter');
      await chat.waitFor((s) => s.includes('Two.') && atPrompt(s), 'the second answer');
      const body = server.requests[1]!.body as { model?: string };
      expect(body.model).toBe('claude-other');
      expect(JSON.stringify(body)).toContain('first');
      chat.type('/exit');
      chat.press('Enter');
      await chat.waitFor((s) => s.includes('[exited '), 'the end');
      expect(chat.exitCode()).toBe(0);
    } finally {
      chat.kill();
      await server.close();
      ws.cleanup();
      home.cleanup();
    }
  }, 120_000);
});

describe.skipIf(CLI_BIN_MISSING)('a3s-code without a terminal', () => {
  it('falls back to run: the prompt comes from stdin, the answer goes to stdout', async () => {
    const server = await startScriptedModelServer({ scenario: [textResponse('Piped answer.')] });
    const ws = tempDir('a3s-cli-chat-');
    const home = tempDir('a3s-cli-home-');
    try {
      writeWorkspaceConfig(ws.dir, server, home.dir);
      const result = await runBin(['--workspace', ws.dir], { env: cleanEnv(home.dir), cwd: ws.dir, input: 'a piped question\n' });
      expect(result.stdout).toBe('Piped answer.\n');
      expect(result.code).toBe(0);
      expect(JSON.stringify(server.requests[0]!.body)).toContain('a piped question');
      const refused = await runBin(['--continue'], { env: cleanEnv(home.dir), cwd: ws.dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('needs a terminal');
      expect(count(refused.stdout, '\n')).toBe(0);
    } finally {
      await server.close();
      ws.cleanup();
      home.cleanup();
    }
  }, 60_000);
});
