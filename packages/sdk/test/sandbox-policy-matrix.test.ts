// Issue 31, one policy for every tool: each tool, driven by the (scripted) model through the
// public SDK, is walked against each rule of the session's sandbox policy — a deny-read path, an
// allowWrite path, the protected paths (.git/hooks, .git/config, agent config), and the network
// policy (none / allow-list / full / unset) — and obeys the same answer the sandboxed process
// gets. Fixtures live under /var/tmp (the sandbox's private /tmp would hide anything under /tmp).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startScriptedModelServer, textResponse, toolCallsResponse } from '@a3s-lab/code-testing';
import type { ScriptedResponse, ScriptedModelServer } from '@a3s-lab/code-testing';

import { Agent, LocalWorkspaceBackend } from '../src/index.js';
import type { Session, SessionOptions } from '../src/index.js';
import { aclFor } from './harness.js';

const available = process.platform === 'linux' && execFileSync('sh', ['-c', 'command -v bwrap || true'], { encoding: 'utf8' }).trim() !== '';
const SECRET = 'MATRIX-SECRET-31';
const RULES = { permissionPolicy: { defaultDecision: 'allow' }, circuitBreakerThreshold: 1000 } as const;

interface Listener {
  readonly server: Server;
  port: number;
  hits: number;
}

let base = '';
let ws = '';
let cache = '';
let canary = '';
let server: ScriptedModelServer;
let agent: Agent;
let allowed: Listener;
let other: Listener;
const queue: ScriptedResponse[] = [];
let turn = 0;

async function listen(body: string): Promise<Listener> {
  const listener: Listener = { server: createServer(), port: 0, hits: 0 };
  listener.server.on('request', (_request, response) => {
    listener.hits += 1;
    response.end(body);
  });
  await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
  listener.port = (listener.server.address() as { port: number }).port;
  return listener;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp('/var/tmp/a3s-sandbox-matrix-'));
  ws = join(base, 'ws');
  cache = join(base, 'cache');
  canary = join(base, 'canary');
  for (const dir of [join(ws, 'secrets'), join(ws, '.a3s'), cache, canary]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(ws, 'secrets', 'key.txt'), `${SECRET}\n`);
  writeFileSync(join(ws, 'notes.txt'), 'public notes\n');
  writeFileSync(join(cache, 'existing.txt'), 'cache entry\n');
  writeFileSync(join(ws, 'agent.acl'), 'default_model = "x/y"\n');
  writeFileSync(join(ws, '.a3s', 'config.acl'), 'default_model = "x/y"\n');
  symlinkSync('secrets/key.txt', join(ws, 'link.txt'));
  execFileSync('sh', ['-c', 'git init -q -b main && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m init'], { cwd: ws });
  allowed = await listen('ALLOWED-LISTENER');
  other = await listen('OTHER-LISTENER');
  server = await startScriptedModelServer({ scenario: () => queue.shift() ?? textResponse('done') });
  agent = await Agent.create(aclFor(server, 'anthropic'));
});

afterAll(async () => {
  await agent?.close();
  await server?.close();
  allowed?.server.close();
  other?.server.close();
  rmSync(base, { recursive: true, force: true });
});

type Call = readonly [tool: string, input: Record<string, unknown>];
interface Outcome {
  readonly failed: boolean;
  readonly text: string;
}

/** One model turn calling every `calls` entry in parallel; their `tool_end` outcomes in order. */
async function drive(session: Session, calls: readonly Call[]): Promise<Outcome[]> {
  turn += 1;
  const ids = calls.map((_call, index) => `toolu_m${turn}_${index}`);
  queue.push(toolCallsResponse(calls.map(([name, input], index) => ({ id: ids[index] as string, name, input }))), textResponse('done'));
  const ends = new Map<string, Outcome>();
  for await (const event of await session.stream('walk the matrix')) {
    if (event.type !== 'tool_end') continue;
    const payload = event.payload as { tool_id: string; exit_code?: number; output?: string; error_kind?: unknown };
    ends.set(payload.tool_id, { failed: payload.exit_code !== 0, text: `${payload.output ?? ''} ${JSON.stringify(payload.error_kind ?? null)}` });
  }
  return ids.map((id) => ends.get(id) ?? { failed: true, text: 'no tool_end' });
}

async function open(options: SessionOptions = {}): Promise<Session> {
  return agent.sessionAsync(ws, { ...RULES, ...options });
}

const program = (body: string): Call => ['program', { type: 'script', language: 'javascript', source: `export default async (ctx) => { ${body} }` }];
const diffFor = (before: string, after: string): string => `@@ -1,1 +1,1 @@\n-${before}\n+${after}\n`;

describe.skipIf(!available)('one sandbox policy, every tool', () => {
  it('deny-read: no tool reads, lists, searches or writes the denied path', async () => {
    const session = await open({ sandbox: { mode: 'required', denyRead: [join(ws, 'secrets')] } });
    const reads: Call[] = [
      ['read', { file_path: 'secrets/key.txt' }],
      ['read', { file_path: 'link.txt' }],
      ['ls', { path: 'secrets' }],
      ['grep', { pattern: 'MATRIX', path: 'secrets' }],
      ['bash', { command: 'cat secrets/key.txt link.txt; ls secrets; grep -r MATRIX . 2>&1' }],
      program("return [await ctx.readFile('secrets/key.txt').catch((e) => String(e)), await ctx.grep('MATRIX'), await ctx.bash('cat link.txt')];"),
    ];
    const listings: Call[] = [
      ['ls', { path: '.' }],
      ['glob', { pattern: '**/*' }],
      ['grep', { pattern: 'MATRIX' }],
    ];
    const writes: Call[] = [
      ['write', { file_path: 'secrets/w.txt', content: 'x' }],
      ['edit', { file_path: 'secrets/key.txt', old_string: SECRET, new_string: 'EDITED' }],
      ['patch', { file_path: 'secrets/key.txt', diff: diffFor(SECRET, 'PATCHED') }],
      ['bash', { command: 'echo x > secrets/b.txt' }],
      program("await ctx.tool('write', { file_path: 'secrets/p.txt', content: 'x' }); return 'ok';"),
    ];
    const outcomes = await drive(session, [...reads, ...listings, ...writes, ['read', { file_path: 'notes.txt' }]]);
    for (const [index, outcome] of outcomes.entries()) expect(outcome.text, JSON.stringify(outcomes[index])).not.toContain(SECRET);
    for (const outcome of outcomes.slice(0, 4)) expect(outcome).toMatchObject({ failed: true, text: expect.stringMatching(/sandbox policy denies/) });
    for (const outcome of outcomes.slice(reads.length, reads.length + listings.length)) expect(outcome.text).not.toContain('key.txt');
    expect(outcomes.slice(reads.length + listings.length, -2).every((outcome) => outcome.failed)).toBe(true);
    expect(readdirSync(join(ws, 'secrets'))).toEqual(['key.txt']);
    expect(readFileSync(join(ws, 'secrets', 'key.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(outcomes.at(-1)).toMatchObject({ failed: false, text: expect.stringContaining('public notes') });
    await session.closeAsync();
  });

  it('write rules: processes write the workspace and allowWrite; file tools the workspace only; nothing else', async () => {
    const session = await open({ sandbox: { mode: 'required', allowWrite: [cache] } });
    const outcomes = await drive(session, [
      ['bash', { command: `echo ok > ${cache}/from-bash && echo ok > in-ws-bash.txt` }],
      program(`return await ctx.bash('echo ok > ${cache}/from-program');`),
      ['write', { file_path: join(cache, 'from-write'), content: 'x' }],
      program(`return await ctx.tool('write', { file_path: '${join(cache, 'from-ctx-write')}', content: 'x' });`),
      ['write', { file_path: 'in-ws-write.txt', content: 'ok' }],
      ['bash', { command: `echo x > ${canary}/bash` }],
      ['write', { file_path: join(canary, 'write'), content: 'x' }],
      ['edit', { file_path: join(cache, 'existing.txt'), old_string: 'cache', new_string: 'edited' }],
      ['patch', { file_path: join(cache, 'existing.txt'), diff: diffFor('cache entry', 'patched') }],
    ]);
    expect(outcomes.map((outcome) => outcome.failed)).toEqual([false, false, true, false, false, true, true, true, true]);
    expect(readFileSync(join(cache, 'existing.txt'), 'utf8')).toBe('cache entry\n');
    // The program itself succeeds; the write it asked for was refused (the tool result inside).
    expect(outcomes[2]?.text).toMatch(/outside the workspace/);
    expect(outcomes[3]?.text).toMatch(/outside the workspace/);
    expect(readdirSync(cache).sort()).toEqual(['existing.txt', 'from-bash', 'from-program']);
    expect(readdirSync(canary)).toEqual([]);
    expect(existsSync(join(ws, 'in-ws-bash.txt')) && existsSync(join(ws, 'in-ws-write.txt'))).toBe(true);
    await session.closeAsync();
  });

  it('protected paths: .git/hooks, .git/config and the agent config are written by no tool', async () => {
    const session = await open({ sandbox: { mode: 'required' } });
    const hooks = readdirSync(join(ws, '.git', 'hooks')).sort();
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8');
    const calls: Call[] = [];
    for (const path of ['.git/hooks/pre-commit', '.git/config', 'agent.acl', '.a3s/config.acl', '.a3s/hooks/h.json']) {
      calls.push(['write', { file_path: path, content: 'evil\n' }]);
      calls.push(['bash', { command: `mkdir -p "$(dirname ${path})" 2>/dev/null; echo evil >> ${path}` }]);
      calls.push(program(`return await ctx.tool('write', { file_path: '${path}', content: 'evil' });`));
      calls.push(program(`return await ctx.bash('echo evil >> ${path}');`));
    }
    calls.push(['edit', { file_path: '.git/config', old_string: '[core]', new_string: '[core]\n\thooksPath = /x' }]);
    calls.push(['edit', { file_path: 'agent.acl', old_string: 'x/y', new_string: 'evil/model' }]);
    calls.push(['patch', { file_path: 'agent.acl', diff: diffFor('default_model = "x/y"', 'default_model = "evil/z"') }]);
    const outcomes = await drive(session, calls);
    // The file tools refuse; a bash or ctx.bash command may "succeed" at a path that did not exist
    // (inside the sandbox), but what it made there is removed after the call: the files decide.
    for (const [index, outcome] of outcomes.entries()) if (!['program', 'bash'].includes(calls[index]?.[0] ?? '')) expect(outcome.failed, JSON.stringify([calls[index], outcome])).toBe(true);
    expect(readdirSync(join(ws, '.git', 'hooks')).sort()).toEqual(hooks);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(config);
    expect(readFileSync(join(ws, 'agent.acl'), 'utf8')).toBe('default_model = "x/y"\n');
    expect(readFileSync(join(ws, '.a3s', 'config.acl'), 'utf8')).toBe('default_model = "x/y"\n');
    expect(existsSync(join(ws, '.a3s', 'hooks'))).toBe(false);
    await session.closeAsync();
  });

  const fetchAll = (): Call[] => [
    ['web_fetch', { url: `http://127.0.0.1:${allowed.port}/`, format: 'text' }],
    ['web_fetch', { url: `http://127.0.0.1:${other.port}/`, format: 'text' }],
    program(`return await ctx.tool('web_fetch', { url: 'http://127.0.0.1:${allowed.port}/', format: 'text' });`),
    ['bash', { command: `curl -s -S --max-time 5 http://127.0.0.1:${allowed.port}/ ; echo` }],
    ['bash', { command: `curl -s -S --max-time 5 http://127.0.0.1:${other.port}/ ; echo` }],
  ];
  const targets = ['ALLOWED-LISTENER', 'OTHER-LISTENER', 'ALLOWED-LISTENER', 'ALLOWED-LISTENER', 'OTHER-LISTENER'];
  const reached = (outcomes: readonly Outcome[]): boolean[] => outcomes.map((outcome, index) => outcome.text.includes(targets[index] as string));

  it.each([
    // [sandbox.network, webFetch.allowHosts, reached: fetch allowed, fetch other, program fetch, curl allowed, curl other]
    ['none', ['127.0.0.1'], [false, false, false, false, false]],
    ['allow-list', [], [true, false, true, true, false]],
    ['full', ['127.0.0.1'], [true, true, true, true, true]],
    ['full', [], [false, false, false, true, true]],
    ['unset (default)', ['127.0.0.1'], [true, true, true, false, false]],
  ] as const)('network %s (webFetch.allowHosts %j): web_fetch, ctx web_fetch and curl reach the same hosts', async (network, allowHosts, expected) => {
    const sandboxNetwork = network === 'allow-list' ? { allow: [`127.0.0.1:${allowed.port}`] } : network === 'unset (default)' ? undefined : network;
    const session = await open({
      sandbox: { mode: 'required', ...(sandboxNetwork === undefined ? {} : { network: sandboxNetwork }) },
      ...(allowHosts.length === 0 ? {} : { webFetch: { allowHosts: [...allowHosts] } }),
    });
    const hitsBefore = other.hits;
    const outcomes = await drive(session, fetchAll());
    expect(reached(outcomes), JSON.stringify(outcomes)).toEqual(expected);
    if (network === 'none') expect(outcomes[0]?.text).toMatch(/sandbox network policy is 'none'/);
    if (network === 'allow-list') {
      expect(outcomes[1]?.text).toMatch(/not on the sandbox network allow-list/);
      expect(other.hits).toBe(hitsBefore);
    }
    await session.closeAsync();
  });

  it('a backend the host built with its own sandbox network: the web tools follow it too', async () => {
    const backend = new LocalWorkspaceBackend(ws, { sandbox: { mode: 'required', network: { allow: [`127.0.0.1:${allowed.port}`] } } });
    const session = await open({ workspaceBackend: backend });
    const outcomes = await drive(session, fetchAll());
    expect(reached(outcomes), JSON.stringify(outcomes)).toEqual([true, false, true, true, false]);
    await session.closeAsync();
    await backend.close();
  });

  it('network none: web_search reaches no engine either', async () => {
    const session = await open({ sandbox: { mode: 'required', network: 'none' } });
    const [outcome] = await drive(session, [['web_search', { query: 'sandbox policy' }]]);
    expect(outcome?.text).toMatch(/sandbox network policy is 'none'/);
    await session.closeAsync();
  });
});
