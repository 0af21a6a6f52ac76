// Issue 31: protected paths hold when `.git` is created DURING a sandboxed call (`git init` then
// a hook or a hooksPath in the same command), through model-driven bash and verifyCommands; and
// a platform without a sandbox (macOS: Seatbelt is not implemented) is reported, never silent.
// Fixtures live under /var/tmp (the sandbox's private /tmp would hide anything under /tmp).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { ScriptedResponse, ScriptedModelServer } from '@a3s-lab/code-testing';
import { LocalWorkspaceBackend } from '@a3s-lab/code-local';

import { Agent, CodeError } from '../src/index.js';
import type { AgentEvent, AgentWarning } from '../src/index.js';
import { aclFor } from './harness.js';

const available = process.platform === 'linux' && execFileSync('sh', ['-c', 'command -v bwrap || true'], { encoding: 'utf8' }).trim() !== '';
const ALLOW_ALL = { defaultDecision: 'allow' } as const;
const queue: ScriptedResponse[] = [];
const warnings: AgentWarning[] = [];
let base = '';
let ws = '';
let counter = 0;
let server: ScriptedModelServer;
let agent: Agent;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-git-'));
  server = await startScriptedModelServer({ scenario: () => queue.shift() ?? textResponse('done') });
  agent = await Agent.create(aclFor(server, 'anthropic'), { onWarning: (warning) => warnings.push(warning) });
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

beforeEach(() => {
  counter += 1;
  ws = join(base, `ws${counter}`);
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.txt'), 'a\n');
});

async function bash(command: string): Promise<AgentEvent[]> {
  queue.push(toolCallResponse('bash', { command }), textResponse('done'));
  const session = await agent.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
  const events: AgentEvent[] = [];
  for await (const event of await session.stream('go')) events.push(event);
  await session.closeAsync();
  return events;
}

const hooks = (): string[] => readdirSync(join(ws, '.git', 'hooks')).filter((name) => !name.endsWith('.sample'));

describe.skipIf(!available)('a .git created during a sandboxed call', () => {
  it('git init, a hook and a hooksPath in one command: the repository stays, the hook and the config go', async () => {
    const events = await bash('git init -q && printf "#!/bin/sh\\necho ran > hook-ran\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git config core.hooksPath .evil && ls .git/hooks/pre-commit');
    const end = events.find((event) => event.type === 'tool_end');
    // Inside the call the command did what it wanted; after it, what git would run is gone.
    expect(String(end?.payload['output'])).toMatch(/removed what the command created at protected paths: .*\.git\/config/);
    expect(existsSync(join(ws, '.git', 'HEAD'))).toBe(true);
    expect(hooks()).toEqual([]);
    expect(existsSync(join(ws, '.git', 'config'))).toBe(false);
    // The host's next git command runs no hook of the model's.
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws });
    expect(existsSync(join(ws, 'hook-ran'))).toBe(false);
  });

  it('a plain git init (and user.* config) is kept as git wrote it', async () => {
    await bash('git init -q && git config user.email a@b');
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toContain('email = a@b');
    expect(hooks()).toEqual([]);
  });

  it('a .git file pointing elsewhere is removed', async () => {
    await bash('mkdir -p elsewhere/hooks && echo "gitdir: elsewhere" > .git');
    expect(existsSync(join(ws, '.git'))).toBe(false);
    expect(existsSync(join(ws, 'elsewhere'))).toBe(true);
  });

  it('through verifyCommands too', async () => {
    const session = await agent.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    await session.verifyCommands('git init', [{ id: 'init', kind: 'test', description: 'init and hook', command: 'git init -q && echo evil > .git/hooks/post-checkout', required: false }]);
    await session.closeAsync();
    expect(hooks()).toEqual([]);
  });
});

describe('a platform without a sandbox (macOS: Seatbelt is not implemented)', () => {
  it("mode 'required' is SANDBOX_UNAVAILABLE naming the platform; 'auto' reports { active: false, reason } and commands run", async () => {
    let error: unknown;
    try {
      new LocalWorkspaceBackend(ws, { sandbox: { mode: 'required', platform: 'darwin' } });
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.hasCode(error, 'SANDBOX_UNAVAILABLE')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ platform: 'darwin', reason: expect.stringMatching(/platform 'darwin'.*Seatbelt is not implemented/) });

    const backend = new LocalWorkspaceBackend(ws, { sandbox: { mode: 'auto', platform: 'darwin' } });
    // Through the SDK: the session's `required` is checked against the backend the host passed.
    expect(() => agent.session(ws, { workspaceBackend: backend, sandbox: { mode: 'required' } })).toThrow(expect.objectContaining({ code: 'SANDBOX_UNAVAILABLE' }));
    warnings.length = 0;
    queue.push(toolCallResponse('bash', { command: 'echo ran > ran.txt' }), textResponse('done'));
    const session = await agent.sessionAsync(ws, { workspaceBackend: backend, sandbox: { mode: 'auto' }, permissionPolicy: ALLOW_ALL });
    expect(session.sandboxStatus()).toEqual({ active: false, kind: 'none', network: 'full', reason: expect.stringContaining("platform 'darwin'") });
    expect(warnings).toEqual([expect.objectContaining({ kind: 'sandbox_unavailable', reason: expect.stringContaining('Seatbelt') })]);
    await session.send('go');
    expect(readFileSync(join(ws, 'ran.txt'), 'utf8')).toBe('ran\n');
    await session.closeAsync();
    await backend.close();
  });
});
