// `a3s-code run` in-process: asks without a terminal, config discovery, permission modes.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponse, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { NON_INTERACTIVE_DENIAL } from '../src/confirmation-handler.js';
import { cleanEnv, runMain, scriptedAcl, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

describe('a3s-code run', () => {
  const fixture = scriptedRunFixture();
  const dirs = (): { ws: string; home: string } => ({ ws: fixture.tempDir('a3s-cli-run-', { 'README.md': '# run\n' }), home: fixture.tempDir('a3s-cli-home-') });
  const start = (scenario: Scenario): Promise<ScriptedModelServer> => fixture.start(scenario);

  it('denies an ask when stdin is not a terminal and says on stderr how to allow it', async () => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start([toolCallResponse('bash', { command: 'touch made.txt' }), textResponse('It was refused.')]), home);
    const result = await runMain(['run', 'make a file', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(result.stderr).toContain('denied bash to run: touch made.txt');
    expect(result.stderr).toContain('stdin is not a terminal');
    expect(result.stderr).toContain('--yes');
    expect(result.stderr).toContain('--permission-mode');
    expect(existsSync(join(ws, 'made.txt'))).toBe(false);
    // The model learns why, too.
    expect(toolResultsOf(fixture.server()!.requests[1]!)[0]?.content).toContain(NON_INTERACTIVE_DENIAL);
    // Progress on stderr; stdout holds the final answer and nothing else.
    expect(result.stderr).toMatch(/✗ bash {2}touch made\.txt {2}\S+ {2}denied: rejected: confirmation needed/);
    expect(result.stdout).toBe('It was refused.\n');
    expect(result.stderr).not.toContain('It was refused.');
    expect(result.code).toBe(1);
  });

  it('answers asks with --yes', async () => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start([toolCallResponse('bash', { command: 'touch made.txt' }), textResponse('Made it.')]), home);
    const result = await runMain(['run', 'make a file', '--workspace', ws, '--yes'], { env: cleanEnv(home), cwd: ws });
    expect(existsSync(join(ws, 'made.txt'))).toBe(true);
    expect(result.stdout).toBe('Made it.\n');
    expect(result.stderr).toMatch(/^a3s-code · anthropic\/claude-test · .* · permissions: default \+ --yes · config: /);
    expect(result.stderr).toMatch(/^✓ bash {2}touch made\.txt/m);
    expect(result.stderr).toMatch(/^── done in .* · 2 turns · 1 tool call · /m);
    expect(result.stderr).not.toContain('asks');
    expect(result.code).toBe(0);
  });

  it.each([
    ['plan', false, /^✗ write {2}out\.txt {2}\S+ {2}denied: /m],
    ['accept-edits', true, /^✓ write {2}out\.txt/m],
    ['yolo', true, /^✓ write {2}out\.txt/m],
  ])('--permission-mode %s on a write without a TTY', async (mode, written, line) => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start([toolCallResponse('write', { file_path: 'out.txt', content: 'x\n' }), textResponse('ok')]), home);
    const result = await runMain(['run', 'write', '--workspace', ws, '--permission-mode', mode], { env: cleanEnv(home), cwd: ws });
    expect(existsSync(join(ws, 'out.txt'))).toBe(written);
    expect(result.stderr).toMatch(line);
    expect(result.stdout).toBe('ok\n');
    expect(result.stderr).not.toContain('stdin is not a terminal');
  });

  it.each([
    ['', false],
    ['subagent_confirmation_inheritance = "auto_approve"', true],
  ])('children of task ask this human unless the config says otherwise (%s)', async (line, written) => {
    const { ws, home } = dirs();
    const s = await start([toolCallResponse('task', { agent: 'general', description: 'note', prompt: 'Write child.txt.' }), toolCallResponse('write', { file_path: 'child.txt', content: 'x\n' }), textResponse('child done'), textResponse('Delegated.')]);
    const config = join(ws, 'custom.acl');
    // `task` itself runs without asking; the child's write is an ask nobody can answer here.
    writeFileSync(config, `${scriptedAcl(s)}${line}\npermission_policy {\n  allow = ["task", "read"]\n  default_decision = "ask"\n}\n`);
    const result = await runMain(['run', 'delegate', '--workspace', ws, '--config', 'custom.acl'], { env: cleanEnv(home), cwd: ws });
    expect(existsSync(join(ws, 'child.txt'))).toBe(written);
    if (!written) expect(result.stderr).toContain('denied write');
    expect(result.stdout).toBe('Delegated.\n');
  });

  it('prefers --config over the workspace config, and the workspace config over ~/.a3s/config.acl', async () => {
    const { ws, home } = dirs();
    const s = await start([textResponse('from the scripted server')]);
    // A broken home config must not even be read when the workspace has one.
    mkdirSync(join(home, '.a3s'));
    writeFileSync(join(home, '.a3s', 'config.acl'), 'this is { not acl');
    writeWorkspaceConfig(ws, s, home);
    const fromWorkspace = await runMain(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(fromWorkspace.stderr).toContain(`config: ${join(ws, '.a3s', 'config.acl')}`);
    expect(fromWorkspace.stdout).toBe('from the scripted server\n');
    expect(fromWorkspace.code).toBe(0);

    s.setScenario([textResponse('again')]);
    const explicit = join(ws, 'custom.acl');
    writeFileSync(explicit, scriptedAcl(s));
    const fromFlag = await runMain(['run', 'hi', '--workspace', ws, '--config', 'custom.acl'], { env: cleanEnv(home), cwd: ws });
    expect(fromFlag.stderr).toContain(`config: ${explicit}`);
    expect(fromFlag.stdout).toBe('again\n');
    expect(fromFlag.code).toBe(0);
  });

  it('falls back to ~/.a3s/config.acl (HOME respected), and names a broken one', async () => {
    const { ws, home } = dirs();
    mkdirSync(join(home, '.a3s'));
    const homeConfig = join(home, '.a3s', 'config.acl');
    writeFileSync(homeConfig, scriptedAcl(await start([textResponse('home config works')])));
    const ok = await runMain(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(ok.stdout).toBe('home config works\n');
    expect(ok.code).toBe(0);

    writeFileSync(homeConfig, 'providers "anthropic" {\n  models = [ unterminated\n');
    const broken = await runMain(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(broken.stderr).toContain('[CONFIG_ERROR]');
    expect(broken.stderr).toContain(homeConfig);
    expect(broken.code).toBe(2);
  });

  it('says so and suggests the demo when there is no config and no API key', async () => {
    const { ws, home } = dirs();
    const result = await runMain(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(result.stderr).toContain('no configuration found');
    expect(result.stderr).toContain('ANTHROPIC_API_KEY');
    expect(result.stderr).toContain('a3s-code demo');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
  });

  it('builds its config from ANTHROPIC_API_KEY when no file exists', async () => {
    const { ws, home } = dirs();
    const s = await start([textResponse('hello from env config')]);
    const env = cleanEnv(home, { ANTHROPIC_API_KEY: 'sk-ant-env-key-1234', ANTHROPIC_BASE_URL: s.anthropicBaseUrl });
    const result = await runMain(['run', 'hi', '--workspace', ws], { env, cwd: ws });
    expect(result.stderr).toContain('config: environment (ANTHROPIC_API_KEY)');
    expect(result.stderr).toContain('anthropic/claude-sonnet-4-20250514');
    expect(result.stdout).toBe('hello from env config\n');
    expect(s.requests[0]?.body).toMatchObject({ model: 'claude-sonnet-4-20250514' });
    // A known model gets a cost estimate.
    expect(result.stderr).toMatch(/≈ \$\d/);
    expect(result.code).toBe(0);
  });

  it('passes --max-tool-rounds to the session', async () => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start(() => toolCallResponse('ls', {})), home);
    const result = await runMain(['run', 'loop', '--workspace', ws, '--max-tool-rounds', '2'], { env: cleanEnv(home), cwd: ws });
    expect(result.stderr).toContain('maxToolRounds (2)');
    // A failed run has no answer: stdout stays empty.
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });

  it('rejects an -o path in a missing directory (or a directory) before any model call, exit 2', async () => {
    const { ws, home } = dirs();
    const s = await start([textResponse('unused')]);
    writeWorkspaceConfig(ws, s, home);
    for (const target of [join('no', 'such', 'dir', 'out.md'), '.']) {
      const result = await runMain(['run', 'hi', '--workspace', ws, '-o', target], { env: cleanEnv(home), cwd: ws });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^a3s-code: usage: -o .*(does not exist|is a directory)/);
      expect(result.stdout).toBe('');
    }
    expect(s.requests).toHaveLength(0);
  });

  it('rejects a missing workspace and an unknown model with exit 2', async () => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start([textResponse('unused')]), home);
    const missing = await runMain(['run', 'hi', '--workspace', join(ws, 'nope')], { env: cleanEnv(home), cwd: ws });
    expect(missing.stderr).toContain('workspace is not a directory');
    expect(missing.code).toBe(2);
    const unknown = await runMain(['run', 'hi', '--workspace', ws, '--model', 'anthropic/not-declared'], { env: cleanEnv(home), cwd: ws });
    expect(unknown.stderr).toContain("unknown model 'not-declared'");
    expect(unknown.code).toBe(2);
  });

  it('prints only the replacement when a provider stream is cut and retried (no TTY)', async () => {
    const { ws, home } = dirs();
    const s = await start([{ text: ['Provisional ', 'words ', 'that ', 'vanish.'], cutAfterEvents: 6 }, textResponse('Complete answer.')]);
    writeWorkspaceConfig(ws, s, home);
    const result = await runMain(['run', 'hi', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(s.requests).toHaveLength(2);
    expect(result.stdout).toBe('Complete answer.\n');
    expect(result.stderr).not.toContain('Provisional');
    expect(result.code).toBe(0);
  });

  it('reports a model failure without the control characters of the server\'s message, exit 3', async () => {
    const { ws, home } = dirs();
    writeWorkspaceConfig(ws, await start([errorResponse(401, { message: 'bad key \u001b]0;pwned\u0007\u001b[2J\u009b1A' })]), home);
    const result = await runMain(['run', 'hello', '--workspace', ws], { env: cleanEnv(home), cwd: ws });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('✗ error LLM_ERROR: anthropic request failed: HTTP 401');
    expect(result.stdout).toBe('');
    expect(result.stderr + result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
