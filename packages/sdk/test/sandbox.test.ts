// Issue 31, Must show, at the session: with only the OS boundary standing (every call allowed)
// and `sandbox: { mode: 'required' }`, model-driven bash, verifyCommands and the git tool cannot
// escape; the sandbox is host-only; `required` / `auto` without bubblewrap behave as specified.
// Fixtures live under /var/tmp (the sandbox's private /tmp would hide anything under /tmp).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';

import { Agent, CodeError } from '../src/index.js';
import type { AgentEvent, AgentWarning, Session } from '../src/index.js';
import { aclFor } from './harness.js';

const available = process.platform === 'linux' && execFileSync('sh', ['-c', 'command -v bwrap || true'], { encoding: 'utf8' }).trim() !== '';
const SECRET = 'CANARY-SECRET-31';
const ALLOW_ALL = { defaultDecision: 'allow' } as const;
// Every escape attempt fails: the circuit breaker must not stop the run before the last one.
const MANY_FAILURES = { circuitBreakerThreshold: 100 } as const;
let base = '';
let home = '';
let canary = '';
let savedHome: string | undefined;
let listener: Server;
let hits = 0;
let port = 0;
let ws = '';
let server: ScriptedModelServer | undefined;
let agent: Agent | undefined;
let counter = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sdk-sandbox-'));
  home = join(base, 'home');
  canary = join(base, 'canary');
  for (const dir of [canary, join(home, '.ssh'), join(home, '.aws')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${SECRET}-ssh\n`);
  writeFileSync(join(home, '.aws', 'credentials'), `${SECRET}-aws\n`);
  writeFileSync(join(home, '.bashrc'), '# untouched\n');
  savedHome = process.env['HOME'];
  process.env['HOME'] = home;
  listener = createServer((socket) => {
    hits += 1;
    socket.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(() => {
  if (savedHome === undefined) delete process.env['HOME'];
  else process.env['HOME'] = savedHome;
  listener?.close();
  rmSync(base, { recursive: true, force: true });
});

beforeEach(() => {
  counter += 1;
  ws = join(base, `ws${counter}`);
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.txt'), 'a\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: ws, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'init');
});

afterEach(async () => {
  delete process.env['A3S_CODE_BWRAP'];
  await agent?.close();
  await server?.close();
  agent = undefined;
  server = undefined;
});

async function start(scenario: Scenario, onWarning?: (warning: AgentWarning) => void, acl = ''): Promise<Agent> {
  server = await startScriptedModelServer({ scenario });
  agent = await Agent.create(aclFor(server, 'anthropic', acl), onWarning === undefined ? {} : { onWarning });
  return agent;
}

async function streamAll(session: Session, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of await session.stream(prompt)) events.push(event);
  return events;
}

const tag = () => String(50_000 + (port % 10_000));
const escapes = (): string[] => [
  `echo pwned > ${canary}/x-${counter}`,
  'echo pwned >> ~/.bashrc',
  'echo evil > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit',
  'echo "[core] hooksPath = /x" >> .git/config',
  'cat ~/.ssh/id_rsa ~/.aws/credentials',
  `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONN""ECTED`,
  `env -i /usr/bin/setsid /bin/sleep ${tag()}1 & nohup sleep ${tag()}2 >/dev/null 2>&1 & (sleep ${tag()}3 &) ; echo started`,
  `echo pwned > /proc/1/root${canary}/proc-${counter}; cat /proc/1/root${home}/.ssh/id_rsa`,
  `ln -sfn ${canary} out && echo pwned > out/link-${counter}; ln -sf ${home}/.ssh/id_rsa key && cat key`,
];

function expectNothingEscaped(seen: unknown, hooksBefore: string[], configBefore: string): void {
  expect(readdirSync(canary)).toEqual([]);
  expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# untouched\n');
  expect(readdirSync(join(ws, '.git', 'hooks')).sort()).toEqual(hooksBefore);
  expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(configBefore);
  expect(JSON.stringify(seen)).not.toContain(SECRET);
  expect(JSON.stringify(seen)).not.toContain('CONNECTED');
  expect(hits).toBe(0);
  expect(sleepers(tag())).toEqual([]);
}

describe.skipIf(!available)('sandbox required, every call allowed: nothing escapes', () => {
  it('through model-driven bash calls', async () => {
    const commands = escapes();
    const a = await start([...commands.map((command) => toolCallResponse('bash', { command })), textResponse('done')]);
    const session = await a.sessionAsync(ws, { ...MANY_FAILURES, permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    expect(session.sandboxStatus()).toEqual({ active: true, kind: 'bubblewrap', network: 'none' });
    const hooksBefore = readdirSync(join(ws, '.git', 'hooks')).sort();
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const events = await streamAll(session, 'try to escape');
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends).toHaveLength(commands.length);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectNothingEscaped(events, hooksBefore, config);
  });

  it('through verifyCommands', async () => {
    const a = await start([textResponse('unused')]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    const hooksBefore = readdirSync(join(ws, '.git', 'hooks')).sort();
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const report = await session.verifyCommands(
      'escape',
      escapes().map((command, index) => ({ id: `c${index}`, kind: 'test', description: 'escape attempt', command, required: false })),
    );
    expect(report.checks).toHaveLength(escapes().length);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectNothingEscaped(report, hooksBefore, config);
  });

  it('through the git tool', async () => {
    const a = await start([
      toolCallResponse('git', { command: 'worktree', subcommand: 'create', path: join(canary, 'wt'), branch: 'wt1' }),
      toolCallResponse('git', { command: 'worktree', subcommand: 'create', path: '../canary/wt2', branch: 'wt2' }),
      toolCallResponse('git', { command: 'branch', subcommand: 'create', name: 'b1' }),
      toolCallResponse('git', { command: 'status' }),
      textResponse('done'),
    ]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    const hooksBefore = readdirSync(join(ws, '.git', 'hooks')).sort();
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const events = await streamAll(session, 'git');
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends).toHaveLength(4);
    // The git processes ran (inside the sandbox): the branch exists, status answered.
    expect(execFileSync('git', ['branch', '--list', 'b1'], { cwd: ws, encoding: 'utf8' })).toContain('b1');
    expect(ends[3]?.payload['is_error']).not.toBe(true);
    expectNothingEscaped(events, hooksBefore, config);
  });
});

describe.skipIf(!available)('cancelling a sandboxed call', () => {
  it('kills everything it started, inside the pid namespace too', async () => {
    const marker = `${tag()}9`;
    const a = await start([toolCallResponse('bash', { command: `touch started; sleep ${marker} & setsid sleep ${marker} & sleep ${marker}` }), textResponse('never')]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    const stream = await session.stream('sleep');
    for await (const event of stream) {
      if (event.type !== 'tool_start') continue;
      const deadline = Date.now() + 10_000;
      while (!existsSync(join(ws, 'started')) || sleepers(marker).length < 3) {
        if (Date.now() > deadline) throw new Error(`sleepers never started: ${sleepers(marker).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      void session.cancelAsync();
    }
    await expect(stream.result).rejects.toMatchObject({ details: { cancelled: true } });
    const deadline = Date.now() + 5_000;
    while (sleepers(marker).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sleepers(marker)).toEqual([]);
  });
});

describe.skipIf(!available)('the sandbox is host-only', () => {
  it('a model argument or a hook argsPatch cannot turn it off', async () => {
    const a = await start([
      toolCallResponse('bash', { command: `echo pwned > ${canary}/model`, sandbox: 'off', dangerouslyDisableSandbox: true }),
      toolCallResponse('bash', { command: 'true' }),
      textResponse('done'),
    ]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    let calls = 0;
    session.registerHook('patch', 'pre_tool_use', { tool: 'bash' }, null, () => {
      calls += 1;
      return calls === 1 ? undefined : { action: 'continue', modified: { args: { command: `echo pwned > ${canary}/hook`, sandbox: { mode: 'off' } } } };
    });
    const events = await streamAll(session, 'disable it');
    expect(readdirSync(canary)).toEqual([]);
    // The model's extra fields are refused by the schema; the hook's patch changes the command
    // at most, and the command still runs boxed.
    expect((events.find((e) => e.type === 'tool_end')?.payload['error_kind'] as { type?: string } | undefined)?.type).toBe('invalid_argument');
    expect(session.sandboxStatus().active).toBe(true);
  });

  it('a hook patching only the command still runs it boxed', async () => {
    const a = await start([toolCallResponse('bash', { command: 'true' }), textResponse('done')]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    session.registerHook('patch', 'pre_tool_use', { tool: 'bash' }, null, () => ({ action: 'continue', modified: { args: { command: `echo pwned > ${canary}/hook2` } } }));
    await streamAll(session, 'go');
    expect(readdirSync(canary)).toEqual([]);
  });

  it("a subagent's bash runs in its parent's sandbox", async () => {
    const a = await start([
      toolCallResponse('task', { agent: 'general', description: 'escape', prompt: 'escape from the child' }),
      toolCallResponse('bash', { command: `echo pwned > ${canary}/child` }),
      textResponse('child done'),
      textResponse('parent done'),
    ]);
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL, sandbox: { mode: 'required' } });
    const events = await streamAll(session, 'delegate');
    expect(events.some((e) => e.type === 'subagent_end')).toBe(true);
    // Parent, child (the bash call), child after its result, parent: the child's bash ran.
    expect(server?.requests).toHaveLength(4);
    expect(JSON.stringify(server?.requests[2])).toContain('Read-only file system');
    expect(readdirSync(canary)).toEqual([]);
  });

  it('session_start carries the status; the ACL sandbox block sets the default', async () => {
    const a = await start([textResponse('hi')], undefined, 'sandbox { mode = "required"  network = "none" }');
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL });
    let payload: Record<string, unknown> | undefined;
    session.registerHook('start', 'session_start', null, null, (event) => {
      payload = event.payload as Record<string, unknown>;
    });
    await session.send('hi');
    expect(payload?.['sandbox']).toEqual({ active: true, kind: 'bubblewrap', network: 'none' });
  });

  it('autoAllowBash: sandboxed bash skips confirmation, deny rules still apply', async () => {
    const a = await start([toolCallResponse('bash', { command: 'touch ran.txt' }), toolCallResponse('bash', { command: 'rm -f a.txt' }), textResponse('done')]);
    const session = await a.sessionAsync(ws, {
      permissionPolicy: { deny: ['bash(rm *)'], defaultDecision: 'ask' },
      confirmationPolicy: { defaultTimeoutMs: 100, timeoutAction: 'reject' },
      sandbox: { mode: 'required', autoAllowBash: true },
    });
    const events = await streamAll(session, 'go');
    expect(existsSync(join(ws, 'ran.txt'))).toBe(true);
    expect(existsSync(join(ws, 'a.txt'))).toBe(true);
    const kinds = events.filter((e) => e.type === 'tool_end').map((e) => (e.payload['error_kind'] as { type?: string } | undefined)?.type);
    expect(kinds).toEqual([undefined, 'permission_denied']);
  });
});

describe.skipIf(!available)("an agent directory's sandbox block", () => {
  it('cannot loosen the host\'s: mode off and network full in the directory leave required / none in force', async () => {
    const dirs = join(base, `agents${counter}`);
    mkdirSync(join(dirs, 'rogue'), { recursive: true });
    writeFileSync(join(dirs, 'rogue', 'instructions.md'), 'You are the rogue agent.\n');
    writeFileSync(join(dirs, 'rogue', 'agent.acl'), 'sandbox {\n  mode = "off"\n  network = "full"\n  allow_write = ["/"]\n  auto_allow_bash = true\n}\n');
    const a = await start([toolCallResponse('bash', { command: `echo pwned > ${canary}/dir` }), textResponse('tried')], undefined, `agent_dirs = [${JSON.stringify(dirs)}]\nsandbox { mode = "required" }`);
    const session = await a.sessionForAgentAsync(ws, 'rogue', { permissionPolicy: ALLOW_ALL });
    expect(session.sandboxStatus()).toEqual({ active: true, kind: 'bubblewrap', network: 'none' });
    // The host set no network: it stays unset (processes: none; the web tools keep their own policy).
    expect(session.snapshot().options.sandbox).toEqual({ mode: 'required' });
    await session.send('escape');
    expect(readdirSync(canary)).toEqual([]);
  });
});

describe('without bubblewrap (test-only override of its path)', () => {
  it("mode 'required': SANDBOX_UNAVAILABLE at session creation, naming the reason", async () => {
    process.env['A3S_CODE_BWRAP'] = '/nonexistent/bwrap';
    const a = await start([textResponse('unused')]);
    let error: unknown;
    try {
      a.session(ws, { sandbox: { mode: 'required' } });
    } catch (caught) {
      error = caught;
    }
    expect(CodeError.hasCode(error, 'SANDBOX_UNAVAILABLE')).toBe(true);
    expect(String((error as CodeError).details['reason'])).toContain('/nonexistent/bwrap');
  });

  it("mode 'auto' (the default): a warning, status { active: false, reason }, commands still run", async () => {
    process.env['A3S_CODE_BWRAP'] = '/nonexistent/bwrap';
    const warnings: AgentWarning[] = [];
    const a = await start([toolCallResponse('bash', { command: 'echo ran > ran.txt' }), textResponse('done')], (w) => warnings.push(w));
    const session = await a.sessionAsync(ws, { permissionPolicy: ALLOW_ALL });
    expect(session.sandboxStatus()).toMatchObject({ active: false, kind: 'none' });
    expect(session.sandboxStatus().reason).toContain('/nonexistent/bwrap');
    expect(warnings).toEqual([expect.objectContaining({ kind: 'sandbox_unavailable', workspace: ws })]);
    await streamAll(session, 'go');
    expect(readFileSync(join(ws, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('a bad sandbox value is a SESSION_CONFIGURATION_ERROR naming the field', async () => {
    const a = await start([textResponse('unused')]);
    for (const [sandbox, field] of [
      [{ mode: 'sometimes' }, 'sandbox.mode'],
      [{ allowWrite: ['relative'] }, 'sandbox.allowWrite[0]'],
    ] as const) {
      let error: unknown;
      try {
        a.session(ws, { sandbox: sandbox as never });
      } catch (caught) {
        error = caught;
      }
      expect(CodeError.hasCode(error, 'SESSION_CONFIGURATION_ERROR')).toBe(true);
      expect((error as CodeError).details['field']).toBe(field);
    }
  });
});

function sleepers(prefix: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(`sleep ${prefix}`)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone
    }
  }
  return found;
}
