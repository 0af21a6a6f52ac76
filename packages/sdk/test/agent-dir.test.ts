// Agent directories, slash commands, project instructions and dynamic workflows through the
// public SDK, against the scripted model server: schedules fire on a fake clock, each schedule
// keeps its own durable history across a restart, script tools stay inside their allowed tools.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPromptOf, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, ScheduleClock } from '../src/index.js';
import { FileSessionStore } from '../src/index.js';
import { fixtureMcpStdioCommand } from '@a3s-lab/code-testing/mcp';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A clock the test moves by hand; due callbacks run in time order. */
class FakeClock implements ScheduleClock {
  #now: number;
  #timers: { at: number; callback: () => void; id: number }[] = [];
  #id = 0;
  constructor(start: string) {
    this.#now = Date.parse(start);
  }
  now(): number {
    return this.#now;
  }
  setTimeout(callback: () => void, delayMs: number): unknown {
    this.#id += 1;
    this.#timers.push({ at: this.#now + delayMs, callback, id: this.#id });
    return this.#id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }
  /** Moves time to `iso`, running every callback due on the way. */
  async advanceTo(iso: string): Promise<void> {
    const target = Date.parse(iso);
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers[0];
      if (next === undefined || next.at > target) break;
      this.#timers.shift();
      this.#now = next.at;
      next.callback();
      await new Promise((r) => setTimeout(r, 0));
    }
    this.#now = target;
  }
}

type Json = Record<string, unknown>;
const firstUser = (r: RecordedRequest): string => {
  const user = (((r.body as Json)['messages'] as Json[]) ?? []).find((m) => m['role'] === 'user');
  const content = user?.['content'];
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: Json) => c['text'] ?? '').join('') : '';
};

let h: Harness | undefined;
const temp: string[] = [];
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-agentdir-'));
  temp.push(dir);
  return dir;
};

describe('agent directories', () => {
  it('spec sample: schedules fire on a fake clock as governed sends; a script tool runs within its allowed tools; a restart continues each history', { timeout: 60_000 }, async () => {
    const agentDir = join(tempDir(), 'janitor');
    cpSync(join(here, 'fixtures', 'agent-dir'), agentDir, { recursive: true });
    // And an MCP tool: the fixture MCP server over stdio.
    const { command, args } = fixtureMcpStdioCommand();
    writeFileSync(join(agentDir, 'tools', 'fx.md'), `---\nkind: mcp\nname: fx\ntransport: stdio\ncommand: ${JSON.stringify(command)}\nargs: ${JSON.stringify(args)}\n---\nThe fixture server.\n`);
    const sessionsDir = tempDir();
    let nightly = 0;
    let hourly = 0;
    h = await startHarness('anthropic', (r: RecordedRequest): ScriptedResponse => {
      const prompt = firstUser(r);
      const turn = (((r.body as Json)['messages'] as Json[]) ?? []).filter((m) => m['role'] === 'assistant').length;
      if (prompt.startsWith('Nightly')) {
        // Each fire continues the same conversation: the first user message stays the first fire's.
        const assistantTurns = turn;
        if (assistantTurns % 2 === 0) return toolCallResponse('count_todos', { marker: 'TODO' });
        nightly += 1;
        return textResponse(`nightly report ${nightly}`);
      }
      hourly += 1;
      return textResponse(`hourly report ${hourly}`);
    }, { 'a.ts': '// TODO one\n// TODO two\n' });
    const store = new FileSessionStore(sessionsDir);
    const clock = new FakeClock('2026-12-01T23:30:00Z');
    const handle = await h.agent.serveAgentDir(agentDir, h.dir, { sessionStore: store, clock });
    expect([...handle.sessions().keys()].sort()).toEqual(['hourly', 'nightly']);
    expect(handle.sessions().get('nightly')?.id).toBe('schedule:nightly');
    // agent.acl was merged over the agent's configuration.
    expect(handle.sessions().get('nightly')?.snapshot().options.maxToolRounds).toBe(7);
    expect(handle.sessions().get('nightly')?.toolNames()).toEqual(expect.arrayContaining(['count_todos', 'Skill', 'search_skills', 'mcp__fx__echo']));
    expect((await handle.sessions().get('hourly')?.tool('mcp__fx__echo', { text: 'from a schedule' }))?.output).toBe('from a schedule');
    expect(handle.sessions().get('nightly')?.skills().map((s) => s.name)).toEqual(['tidy']);
    // Hour by hour, letting each fire finish (a fire still running when the next is due is skipped).
    for (const [at, count] of [['2026-12-02T00:30:00Z', 1], ['2026-12-02T01:30:00Z', 2], ['2026-12-02T02:30:00Z', 4]] as const) {
      await clock.advanceTo(at);
      while (handle.fires().length < count) await new Promise((r) => setTimeout(r, 20));
    }
    const fires = handle.fires().map((f) => `${f.schedule}@${new Date(f.dueAtMs).toISOString().slice(11, 16)}:${f.status}`);
    expect(fires).toEqual(['hourly@00:00:completed', 'hourly@01:00:completed', 'hourly@02:00:completed', 'nightly@02:00:completed']);
    // The script tool ran through the kernel as a program whose only tool was grep.
    const nightlyRequests = h.server.requests.filter((r) => firstUser(r).startsWith('Nightly'));
    const scriptResult = toolResultsOf(nightlyRequests.at(-1)!)[0]?.content ?? '';
    expect(scriptResult).toContain('"marker": "TODO"');
    expect(scriptResult).toMatch(/a\.ts:2|2/);
    expect(systemPromptOf(nightlyRequests[0]!)).toContain('You are the repository janitor');
    await handle.stop();
    expect(handle.isStopped()).toBe(true);

    // Restart: each schedule resumes its own session from the store and continues its history.
    const again = await h.agent.serveAgentDir(agentDir, h.dir, { sessionStore: store, clock });
    expect(again.sessions().get('nightly')?.history()).toHaveLength(4);
    expect(again.sessions().get('hourly')?.history()).toHaveLength(6);
    await clock.advanceTo('2026-12-03T02:00:00Z');
    while (again.fires().filter((f) => f.schedule === 'nightly').length < 1) await new Promise((r) => setTimeout(r, 20));
    await again.stop();
    expect(again.sessions().get('nightly')?.history()).toHaveLength(8);
    expect((await store.list()).map((e) => e.sessionId)).toEqual(['schedule:hourly', 'schedule:nightly']);
  });

  it('an overlapping fire is skipped and reported; a failing fire is recorded and the schedule keeps running', { timeout: 30_000 }, async () => {
    const agentDir = join(tempDir(), 'busy');
    mkdirSync(join(agentDir, 'schedules'), { recursive: true });
    writeFileSync(join(agentDir, 'instructions.md'), 'Be quick.\n');
    writeFileSync(join(agentDir, 'schedules', 'tick.md'), '---\ncron: "* * * * * *"\n---\nTick.\n');
    let calls = 0;
    h = await startHarness('openai', () => {
      calls += 1;
      if (calls === 1) return textResponse('slow tick', { latencyMs: 300 });
      if (calls === 2) return { error: { status: 400, message: 'bad tick' } };
      return textResponse('tick');
    });
    const clock = new FakeClock('2026-12-01T00:00:00Z');
    const handle = await h.agent.serveAgentDir(agentDir, h.dir, { clock });
    // :01 starts a slow fire; :02 is due while it runs (skipped).
    await clock.advanceTo('2026-12-01T00:00:02Z');
    while (handle.fires().length < 2) await new Promise((r) => setTimeout(r, 20));
    // :03 fails, :04 completes: the schedule keeps running after a failure.
    await clock.advanceTo('2026-12-01T00:00:03Z');
    while (handle.fires().length < 3) await new Promise((r) => setTimeout(r, 20));
    await clock.advanceTo('2026-12-01T00:00:04Z');
    while (handle.fires().length < 4) await new Promise((r) => setTimeout(r, 20));
    await handle.stop();
    const statuses = handle.fires().map((f) => f.status);
    expect(statuses).toEqual(['skipped', 'completed', 'failed', 'completed']);
    expect(handle.fires()[2]?.error?.code).toBe('LLM_ERROR');
  });

  it('load errors name the file: missing instructions, bad cron, duplicate names, escaping paths, unknown tool kinds', async () => {
    h = await startHarness('anthropic', []);
    const make = (files: Record<string, string>): string => {
      const dir = join(tempDir(), 'agent');
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      return dir;
    };
    await expect(h.agent.serveAgentDir(make({ 'x.md': 'x' }), h.dir)).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringContaining('instructions.md') });
    await expect(h.agent.serveAgentDir(make({ 'instructions.md': 'i', 'schedules/a.md': '---\ncron: "61 * * * *"\n---\nx' }), h.dir)).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringMatching(/schedules\/a\.md:2: invalid cron/) });
    await expect(h.agent.serveAgentDir(make({ 'instructions.md': 'i', 'schedules/a.md': '---\ncron: "* * *"\n---\nx' }), h.dir)).rejects.toMatchObject({ message: expect.stringContaining('5 or 6 fields') });
    await expect(h.agent.serveAgentDir(make({ 'instructions.md': 'i', 'schedules/a.md': '---\nname: same\ncron: "* * * * *"\n---\nx', 'schedules/b.md': '---\nname: same\ncron: "* * * * *"\n---\nx' }), h.dir)).rejects.toMatchObject({ message: expect.stringContaining("duplicate schedule name 'same'") });
    await expect(h.agent.serveAgentDir(make({ 'instructions.md': 'i', 'tools/t.md': '---\nkind: script\npath: ../../escape.js\n---\nx' }), h.dir)).rejects.toMatchObject({ code: 'CONFIG_ERROR', message: expect.stringMatching(/tools\/t\.md/) });
    await expect(h.agent.serveAgentDir(make({ 'instructions.md': 'i', 'tools/t.md': '---\nkind: rocket\n---\nx' }), h.dir)).rejects.toMatchObject({ message: expect.stringMatching(/tools\/t\.md:2: unknown tool kind "rocket"/) });
  });

  it('ACL agent_dirs makes directories available to sessionForAgentAsync', async () => {
    const root = tempDir();
    cpSync(join(here, 'fixtures', 'agent-dir'), join(root, 'janitor'), { recursive: true });
    h = await startHarness('anthropic', [textResponse('at your service')]);
    const { Agent } = await import('../src/index.js');
    const { aclFor } = await import('./harness.js');
    const agent = await Agent.create(aclFor(h.server, 'anthropic', `agent_dirs = ["${root}"]`));
    const session = await agent.sessionForAgentAsync(h.dir, 'janitor');
    expect(session.toolNames()).toContain('count_todos');
    expect(session.snapshot().options.maxToolRounds).toBe(7);
    expect((await session.send('hello')).text).toBe('at your service');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toContain('repository janitor');
    await expect(agent.sessionForAgentAsync(h.dir, 'nobody')).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR', message: expect.stringContaining('janitor') });
    await agent.close();
  });
});

describe('slash commands, project instructions, dynamic workflow', () => {
  it('built-in and host slash commands are answered by the session, never sent to the model; unknown /words go to the model', async () => {
    h = await startHarness('anthropic', [textResponse('first answer'), textResponse('model saw /unknown')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.send('hello');
    const modelCalls = h.server.requests.length;
    expect((await session.send('/model')).text).toBe('anthropic/claude-test');
    expect((await session.send('/tools')).text.split('\n')).toContain('read');
    expect((await session.send('/cost')).text).toMatch(/^1 run\(s\): \d+ prompt \+ \d+ completion = \d+ tokens/);
    expect((await session.send('/history')).text).toMatch(/^2 message\(s\)/);
    expect((await session.send('/status')).text).toContain(`session ${session.id}`);
    session.registerCommand('deploy', 'Pretend to deploy', ({ args }) => `deploying ${args}`);
    const stream = await session.stream('/deploy staging');
    const events: AgentEvent[] = [];
    for await (const e of stream) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['agent_start', 'text_delta', 'agent_end']);
    expect((await stream.result).text).toBe('deploying staging');
    expect((await session.send('/help')).text).toContain('/deploy — Pretend to deploy');
    expect(session.listCommands().map((c) => c.name)).toEqual(['clear', 'compact', 'cost', 'deploy', 'help', 'history', 'model', 'status', 'tools']);
    expect(h.server.requests.length).toBe(modelCalls);
    expect((await session.send('/clear')).text).toBe('conversation cleared (2 message(s) removed)');
    expect(session.history()).toEqual([]);
    expect((await session.send('/unknown thing')).text).toBe('model saw /unknown');
    expect(h.server.requests.length).toBe(modelCalls + 1);
    expect(() => session.registerCommand('help', 'x', () => 'y')).toThrow(expect.objectContaining({ code: 'SESSION_ERROR' }));
    expect((await session.runs()).filter((r) => r.kind === 'command')).toHaveLength(8);
  });

  it('AGENTS.md of the workspace and its parents up to the repository root join the system prompt; the option turns it off', async () => {
    h = await startHarness('openai', [textResponse('a'), textResponse('b')]);
    const repo = tempDir();
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(join(repo, 'AGENTS.md'), 'Use pnpm, never npm.\n');
    writeFileSync(join(repo, 'pkg', 'CLAUDE.md'), 'In pkg: tabs for indentation.\n');
    const session = await h.agent.sessionAsync(join(repo, 'pkg'));
    await session.send('hi');
    const system = systemPromptOf(h.server.requests.at(-1)!);
    expect(system).toContain('<project_instructions path="../AGENTS.md">\nUse pnpm, never npm.');
    expect(system).toContain('<project_instructions path="CLAUDE.md">\nIn pkg: tabs for indentation.');
    expect(system.indexOf('Use pnpm')).toBeLessThan(system.indexOf('tabs for indentation'));
    const off = await h.agent.sessionAsync(join(repo, 'pkg'), { projectInstructions: false });
    await off.send('hi');
    expect(systemPromptOf(h.server.requests.at(-1)!)).not.toContain('project_instructions');
  });

  it('dynamic workflow spec sample: registerDynamicWorkflowRuntime, run, unregister', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    expect(session.toolNames()).not.toContain('dynamic_workflow');
    session.registerDynamicWorkflowRuntime();
    const result = await session.tool('dynamic_workflow', {
      source: `
    export default async function run(ctx, inputs) {
      if (inputs.kind === 'workflow') {
        return { type: 'complete', output: { text: inputs.input.message } }
      }
      return { type: 'fail', error: 'unexpected step invocation' }
    }
  `,
      input: { message: 'hello from Flow' },
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.output)).toEqual({ type: 'complete', output: { text: 'hello from Flow' } });
    const failed = await session.tool('dynamic_workflow', { source: 'export default async function run() { return { type: "fail", error: "nope" } }' });
    expect(failed).toMatchObject({ exitCode: 1, output: 'workflow failed: nope' });
    expect(session.unregisterDynamicTool('dynamic_workflow')).toBe(true);
    expect(session.toolNames()).not.toContain('dynamic_workflow');
    await session.closeAsync();
    expect(() => session.unregisterDynamicTool('x')).toThrow(expect.objectContaining({ code: 'SESSION_CLOSED' }));
    expect(() => session.registerDynamicWorkflowRuntime()).toThrow(expect.objectContaining({ code: 'SESSION_CLOSED' }));
    expect(session.toolNames()).not.toContain('dynamic_workflow');
  });

  it('dynamic workflow is a session feature: kept in the snapshot, a resumed session has it (and not once unregistered)', async () => {
    h = await startHarness('anthropic', [toolCallResponse('dynamic_workflow', { source: 'export default async function run(ctx, inputs) { return { type: "complete", output: inputs.input } }', input: 7 }), textResponse('done')]);
    const storeDir = mkdtempSync(join(tmpdir(), 'a3s-workflow-store-'));
    try {
      const store = new FileSessionStore(storeDir);
      const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, sessionId: 'workflow-1' });
      session.registerDynamicWorkflowRuntime();
      expect((await session.save()).dynamicWorkflow).toBe(true);
      await session.closeAsync();

      const resumed = await h.agent.resumeSessionAsync('workflow-1', { sessionStore: store });
      expect(resumed.toolNames()).toContain('dynamic_workflow');
      // The model sees it and calls it, governed like any tool.
      const result = await resumed.send('run the workflow');
      expect(result.text).toBe('done');
      const events = await resumed.runEvents(result.runId);
      // The workflow's nested `program` call ends first, then the model's call.
      const ends = events.filter((e) => e.type === 'tool_end').map((e) => [e.payload['tool_name'], e.payload['exit_code']]);
      expect(ends).toEqual([['program', 0], ['dynamic_workflow', 0]]);
      expect(events.findLast((e) => e.type === 'tool_end')?.payload['output']).toBe(JSON.stringify({ type: 'complete', output: 7 }));
      expect(resumed.unregisterDynamicTool('dynamic_workflow')).toBe(true);
      expect((await resumed.save()).dynamicWorkflow).toBe(false);
      await resumed.closeAsync();

      const again = await h.agent.resumeSessionAsync('workflow-1', { sessionStore: store });
      expect(again.toolNames()).not.toContain('dynamic_workflow');
      await again.closeAsync();
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  });
});
