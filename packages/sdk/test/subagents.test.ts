// Subagents and workers through the public SDK, against the scripted model server over both
// wire protocols: the Subagents, Worker agents and Confirmation inheritance samples of
// node-sdk.md, real overlap of parallel children, cancellation, parent denials holding in
// children, and a parent and a worker on two different providers.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPromptOf, textResponse, toolCallResponse, toolNamesOf, toolResultsOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, Session } from '../src/index.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

type Json = Record<string, unknown>;
const messagesOf = (r: RecordedRequest): Json[] => ((r.body as Json)['messages'] as Json[] | undefined) ?? [];
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: Json) => (typeof b['text'] === 'string' ? b['text'] : '')).join('') : '';
/** The first user message of a request: a child's task prompt, or the parent's prompt. */
const firstUser = (r: RecordedRequest): string => textOf(messagesOf(r).find((m) => m['role'] === 'user')?.['content']);
/** Assistant turns already in the request: which step of its script a conversation is at. */
const step = (r: RecordedRequest): number => messagesOf(r).filter((m) => m['role'] === 'assistant').length;

/** Routes each request by its first user message to that conversation's script. */
function routed(scripts: Record<string, readonly ScriptedResponse[] | ((r: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>)>) {
  return (r: RecordedRequest): ScriptedResponse | Promise<ScriptedResponse> => {
    const key = Object.keys(scripts).find((k) => firstUser(r).startsWith(k));
    if (key === undefined) throw new Error(`no script for ${JSON.stringify(firstUser(r).slice(0, 80))}`);
    const script = scripts[key];
    if (typeof script === 'function') return script(r);
    const response = script?.[step(r)];
    if (response === undefined) throw new Error(`script '${key}' has no step ${step(r)}`);
    return response;
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.each(['anthropic', 'openai'] as const)('subagents over the %s wire protocol', (protocol) => {
  it('spec sample: session.task() and session.tasks() run built-in agents with their own tools and report events', async () => {
    h = await startHarness(protocol, routed({
      'Inspect the repository': [toolCallResponse('grep', { pattern: 'auth', output_mode: 'files_with_matches' }), textResponse('Auth lives in src/auth.ts.')],
      'Locate auth tests': [textResponse('Tests are in test/auth.test.ts.')],
      'Review auth edge cases': [toolCallResponse('bash', { command: 'echo checked' }), textResponse('Edge cases look covered.')],
    }), { 'src/auth.ts': 'export const auth = 1;\n', 'test/auth.test.ts': 'auth\n' });
    const session = await h.agent.sessionAsync(h.dir);
    const events: AgentEvent[] = [];
    session.onEvent((e) => events.push(e));
    const one = await session.task({ agent: 'explore', description: 'Find auth entry points', prompt: 'Inspect the repository and summarize the auth-related files.' });
    expect(one).toMatchObject({ agent: 'explore', status: 'completed', text: 'Auth lives in src/auth.ts.', turns: 2, toolCallsCount: 1 });
    expect(one.transcript).toHaveLength(4);
    expect(one.usage.totalTokens).toBeGreaterThan(0);
    // The ToolResult fields the original returns, beside ours: what the `task` tool gives the model.
    expect(one).toMatchObject({ name: 'task', exitCode: 0, output: expect.stringMatching(/^\[explore task_\S+\] completed: Find auth entry points .*\nAuth lives in src\/auth\.ts\.$/) });
    expect(JSON.parse(one.metadataJson)).toMatchObject({ task: { agent: 'explore', status: 'completed', task_id: one.taskId } });
    const both = await session.tasks([
      { agent: 'explore', description: 'Find tests', prompt: 'Locate auth tests.' },
      { agent: 'verification', description: 'Check risk', prompt: 'Review auth edge cases.' },
    ]);
    expect(both.map((r) => [r.agent, r.status, r.text])).toEqual([
      ['explore', 'completed', 'Tests are in test/auth.test.ts.'],
      ['verification', 'completed', 'Edge cases look covered.'],
    ]);
    expect(both.map((r) => [r.name, r.exitCode, r.output.split('\n')[1]])).toEqual([
      ['task', 0, 'Tests are in test/auth.test.ts.'],
      ['task', 0, 'Edge cases look covered.'],
    ]);
    // Each child was offered its agent's tools only, and its prompt.
    const explore = h.server.requests.find((r) => firstUser(r).startsWith('Inspect the repository'));
    expect(toolNamesOf(explore!).sort()).toEqual(['glob', 'grep', 'ls', 'read']);
    expect(systemPromptOf(explore!)).toContain('You explore a codebase without changing it');
    const verification = h.server.requests.find((r) => firstUser(r).startsWith('Review auth'));
    expect(toolNamesOf(verification!).sort()).toEqual(['bash', 'git', 'glob', 'grep', 'ls', 'read']);
    const types = events.filter((e) => e.type.startsWith('subagent_')).map((e) => `${e.type}:${e.payload['agent']}`);
    expect(types.filter((t) => t.startsWith('subagent_start'))).toHaveLength(3);
    expect(types.filter((t) => t.startsWith('subagent_end'))).toHaveLength(3);
    expect(types).toContain('subagent_progress:explore');
    const end = events.find((e) => e.type === 'subagent_end' && e.payload['agent'] === 'explore');
    expect(end?.payload).toMatchObject({ status: 'completed', task_id: one.taskId, usage: { total_tokens: one.usage.totalTokens } });
    // Task snapshots (with the full transcript) are part of the session snapshot.
    const snapshot = await session.save();
    expect(snapshot.subagentTasks.map((t) => t['agent'])).toEqual(['explore', 'explore', 'verification']);
    expect((snapshot.subagentTasks[0]?.['transcript'] as unknown[]).length).toBe(4);
  });

  it('the model delegates with the task tool; the child answer comes back and its tokens count in the parent run', async () => {
    h = await startHarness(protocol, routed({
      'Who handles auth?': [toolCallResponse('task', { agent: 'explore', description: 'find auth', prompt: 'Find the auth module.' }), textResponse('The explore agent says: src/auth.ts.')],
      'Find the auth module.': [textResponse('src/auth.ts')],
    }));
    const session = await h.agent.sessionAsync(h.dir);
    expect(session.toolNames()).toEqual(expect.arrayContaining(['task', 'parallel_task']));
    const result = await session.send('Who handles auth?');
    expect(result.text).toBe('The explore agent says: src/auth.ts.');
    const parentSecond = h.server.requests.filter((r) => firstUser(r) === 'Who handles auth?')[1];
    expect(toolResultsOf(parentSecond!)[0]?.content).toMatch(/\[explore task_[^\]]+\] completed: find auth[\s\S]*src\/auth\.ts/);
    expect(systemPromptOf(parentSecond!)).toContain('# Subagents');
    const child = h.server.requests.find((r) => firstUser(r) === 'Find the auth module.');
    expect(toolNamesOf(child!)).not.toContain('task');
    const run = (await session.runs())[0];
    const parentOnly = h.server.requests.filter((r) => firstUser(r) === 'Who handles auth?').length;
    expect(parentOnly).toBe(2);
    // Two parent model calls plus the child's: the run's prompt tokens include the child's.
    const events = await session.runEvents(run!.id);
    const parentTurns = events.filter((e) => e.type === 'turn_end').map((e) => (e.payload['usage'] as Json)['input_tokens'] as number);
    expect(run!.usage.promptTokens).toBeGreaterThan(parentTurns.reduce((a, b) => a + b, 0));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['subagent_start', 'subagent_end']));
  });
});

describe('subagents: concurrency, cancellation and limits', () => {
  it('8 parallel children really overlap (all 8 model calls are in flight at once)', async () => {
    let inFlight = 0;
    let peak = 0;
    let release!: () => void;
    const allArrived = new Promise<void>((r) => (release = r));
    const child = async (r: RecordedRequest): Promise<ScriptedResponse> => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      if (inFlight === 8) release();
      // Serial children would never get here: the 8th call only comes while the first 7 wait.
      await Promise.race([allArrived, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      inFlight -= 1;
      return textResponse(`done ${firstUser(r)}`, { latencyMs: 200 });
    };
    h = await startHarness('anthropic', routed({ 'part ': child }));
    const session = await h.agent.sessionAsync(h.dir, { maxParallelTasks: 8 });
    const started = Date.now();
    const results = await session.tasks(Array.from({ length: 8 }, (_, i) => ({ agent: 'explore', description: `part ${i}`, prompt: `part ${i}` })));
    const elapsed = Date.now() - started;
    expect(results.map((r) => r.text)).toEqual(Array.from({ length: 8 }, (_, i) => `done part ${i}`));
    expect(peak).toBe(8);
    console.log(`parallel children: 8 tasks of >=200 ms model latency in ${elapsed} ms (${(elapsed / 200).toFixed(2)}x one child's latency, 8x if serial)`);
  });

  it('maxParallelTasks bounds the children running at once', async () => {
    const gate = modelGate();
    h = await startHarness('openai', routed({ 'slice ': () => gate.hold(textResponse('ok')) }));
    const session = await h.agent.sessionAsync(h.dir, { maxParallelTasks: 2 });
    const children = childCounter(session);
    const all = session.tasks(Array.from({ length: 6 }, (_, i) => ({ agent: 'explore', description: `s${i}`, prompt: `slice ${i}` })));
    for (let round = 0; round < 3; round += 1) {
      // Two children hold a model call; no third one has started.
      await gate.held(2);
      expect(children.running).toBe(2);
      gate.releaseAll();
    }
    await all;
    expect(children.peak).toBe(2);
  });

  it('cancelling the parent mid fan-out ends every child and its processes; the terminal event is published once', async () => {
    const marker = `a3s-sub-${process.pid}-${Date.now()}`;
    h = await startHarness('anthropic', routed({
      'Fan out': [toolCallResponse('parallel_task', { tasks: [0, 1, 2].map((i) => ({ agent: 'general', description: `sleeper ${i}`, prompt: `sleeper ${i}` })) }), textResponse('unreachable')],
      'sleeper ': [toolCallResponse('bash', { command: `sleep 30 && echo ${marker}` }), textResponse('woke')],
    }));
    const session = await h.agent.sessionAsync(h.dir);
    const events: AgentEvent[] = [];
    session.onEvent((e) => events.push(e));
    const stream = await session.stream('Fan out');
    const seen: AgentEvent[] = [];
    const consumed = (async () => {
      for await (const e of stream) seen.push(e);
    })();
    const running = (): number => {
      let pids: string[];
      try {
        // The shells themselves (a sandboxed call also has bubblewrap processes naming the command).
        pids = execFileSync('pgrep', ['-f', `^bash -c sleep 30 && echo ${marker}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return 0;
      }
      // A shell's child between fork and exec of `sleep` carries the same command line for a
      // moment: count only the shells whose parent is not one of them.
      const parentOf = (pid: string): string | undefined => {
        try {
          return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1];
        } catch {
          return undefined;
        }
      };
      return pids.filter((pid) => {
        const parent = parentOf(pid);
        return parent !== undefined && !pids.includes(parent);
      }).length;
    };
    const deadline = Date.now() + 15_000;
    while (running() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(running()).toBe(3);
    await session.cancelAsync();
    await consumed;
    await expect(stream.result).rejects.toMatchObject({ details: { cancelled: true } });
    expect(running()).toBe(0);
    const ends = events.filter((e) => e.type === 'subagent_end');
    expect(ends.map((e) => e.payload['status'])).toEqual(['cancelled', 'cancelled', 'cancelled']);
    // Every child ended before the parent's terminal event, which came exactly once.
    const terminalAt = seen.findIndex((e) => e.type === 'error' || e.type === 'agent_end');
    expect(seen.filter((e) => e.type === 'error' || e.type === 'agent_end')).toHaveLength(1);
    expect(seen.filter((e) => e.type === 'subagent_end').length).toBe(3);
    expect(seen.findLastIndex((e) => e.type === 'subagent_end')).toBeLessThan(terminalAt);
  });

  it('a child asked to do what the parent denies is refused', async () => {
    h = await startHarness('anthropic', routed({
      'Delete build': [toolCallResponse('bash', { command: 'rm -rf build' }), textResponse('could not')],
    }), { 'build/out.js': 'x\n' });
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['bash(rm *)'], defaultDecision: 'allow' } });
    const result = await session.task({ agent: 'general', description: 'cleanup', prompt: 'Delete build' });
    expect(result.status).toBe('completed');
    const childResults = toolResultsOf(h.server.requests.at(-1)!);
    expect(childResults[0]?.content).toMatch(/Permission denied: parent session policy: .*rm/);
    expect(existsSync(join(h.dir, 'build/out.js'))).toBe(true);
  });

  it('manualDelegationEnabled: false hides the delegation tools from the model; session.task() still works', async () => {
    h = await startHarness('anthropic', routed({ 'Look around': [textResponse('looked')] }));
    const session = await h.agent.sessionAsync(h.dir, { manualDelegationEnabled: false });
    expect(session.toolNames()).not.toContain('task');
    expect(session.toolNames()).not.toContain('parallel_task');
    expect((await session.task({ agent: 'explore', description: 'look', prompt: 'Look around' })).text).toBe('looked');
  });

  it('autoDelegation caps the tasks of one run at maxTasks and tells the model to delegate', async () => {
    h = await startHarness('anthropic', routed({
      'Big job': [
        toolCallResponse('task', { agent: 'explore', description: 'one', prompt: 'sub one' }),
        toolCallResponse('task', { agent: 'explore', description: 'two', prompt: 'sub two' }),
        textResponse('finished'),
      ],
      'sub ': [textResponse('sub done')],
    }));
    const session = await h.agent.sessionAsync(h.dir, { autoDelegation: { enabled: true, maxTasks: 1 } });
    expect((await session.send('Big job')).text).toBe('finished');
    const parent = h.server.requests.filter((r) => firstUser(r) === 'Big job');
    expect(systemPromptOf(parent[0]!)).toContain('At most 1 task(s) per request');
    expect(toolResultsOf(parent[2]!).at(-1)?.content).toMatch(/autoDelegation\.maxTasks \(1\) reached/);
  });

  it('autoParallel runs several task calls of one turn at once; autoParallel: false runs them in order', async () => {
    for (const autoParallel of [true, false]) {
      const gate = modelGate();
      h = await startHarness('anthropic', routed({
        'Split it': [toolCallsResponseOf(['a', 'b', 'c']), textResponse('merged')],
        'piece ': () => gate.hold(textResponse('piece done')),
      }));
      const session = await h.agent.sessionAsync(h.dir, { autoParallel });
      const children = childCounter(session);
      const sent = session.send('Split it');
      for (let round = 0; round < (autoParallel ? 1 : 3); round += 1) {
        // In parallel all three children hold a model call at once; in order, one at a time.
        await gate.held(autoParallel ? 3 : 1);
        expect(children.running).toBe(autoParallel ? 3 : 1);
        gate.releaseAll();
      }
      expect((await sent).text).toBe('merged');
      expect(children.peak).toBe(autoParallel ? 3 : 1);
      await h.cleanup();
      h = undefined;
    }
  });
});

/** Holds scripted model answers until the test releases them; `held(n)` resolves once n are held. */
function modelGate(): { hold(response: ScriptedResponse): Promise<ScriptedResponse>; held(count: number): Promise<void>; releaseAll(): void } {
  const waiting: (() => void)[] = [];
  let onArrival: () => void = () => undefined;
  return {
    hold: (response) =>
      new Promise((resolve) => {
        waiting.push(() => resolve(response));
        onArrival();
      }),
    held: (count) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (waiting.length >= count) resolve();
          else onArrival = check;
        };
        check();
      }),
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
  };
}

/** Children of `session` started and not yet ended (from its subagent_start / subagent_end events), and the most at once. */
function childCounter(session: Session): { readonly running: number; readonly peak: number } {
  const counts = { running: 0, peak: 0 };
  session.onEvent((e) => {
    if (e.type === 'subagent_start') counts.peak = Math.max(counts.peak, (counts.running += 1));
    if (e.type === 'subagent_end') counts.running -= 1;
  });
  return counts;
}

function toolCallsResponseOf(names: readonly string[]): ScriptedResponse {
  return { toolCalls: names.map((n) => ({ name: 'task', input: { agent: 'explore', description: `piece ${n}`, prompt: `piece ${n}` } })) };
}

describe('worker agents', () => {
  it('spec sample: workerAgents, registerWorkerAgent, and a worker on another provider (Anthropic parent, OpenAI worker)', async () => {
    h = await startHarness('anthropic', routed({
      'Find and fix the loading-state regression': [toolCallResponse('write', { file_path: 'fix.txt', content: 'fixed' }), textResponse('Fixed; ran the narrow check.')],
      'Review the fix': [textResponse('Looks right.')],
      'Verify it': [textResponse('Verified.')],
    }));
    const session = h.agent.session(h.dir, {
      workerAgents: [
        { name: 'frontend-cow', description: 'Small verified frontend fixes', kind: 'implementer', model: 'openai/gpt-test', maxSteps: 24, prompt: 'Keep patches focused and run the narrowest relevant check.', confirmationInheritance: 'auto_approve' },
        { name: 'review-cow', description: 'Adversarial review', kind: 'reviewer' },
      ],
    });
    const fixed = await session.task({ agent: 'frontend-cow', description: 'Fix admin chat loading state', prompt: 'Find and fix the loading-state regression, then summarize verification.' });
    expect(fixed).toMatchObject({ status: 'completed', text: 'Fixed; ran the narrow check.' });
    expect(readFileSync(join(h.dir, 'fix.txt'), 'utf8')).toBe('fixed');
    const workerRequests = h.server.requests.filter((r) => firstUser(r).startsWith('Find and fix'));
    expect(workerRequests.map((r) => r.protocol)).toEqual(['openai', 'openai']);
    expect(systemPromptOf(workerRequests[0]!)).toContain('Keep patches focused');
    expect((await session.task({ agent: 'review-cow', description: 'review', prompt: 'Review the fix' })).text).toBe('Looks right.');
    expect(h.server.requests.find((r) => firstUser(r) === 'Review the fix')?.protocol).toBe('anthropic');
    const registered = session.registerWorkerAgent({ name: 'verify-cow', description: 'Run focused checks without editing files', kind: 'verifier' });
    expect(registered).toMatchObject({ name: 'verify-cow', description: 'Run focused checks without editing files', kind: 'verifier', builtin: false, confirmationInheritance: 'auto_approve' });
    expect(registered.tools).toContain('bash');
    expect(registered.tools).not.toContain('write');
    expect(session.agents().map((a) => a.name)).toContain('verify-cow');
    expect((await session.task({ agent: 'verify-cow', description: 'verify', prompt: 'Verify it' })).text).toBe('Verified.');
    expect(toolNamesOf(h.server.requests.find((r) => firstUser(r) === 'Verify it')!)).not.toContain('write');
  });

  it('an undeclared worker model is a configuration error naming it; unknown agents are refused', async () => {
    h = await startHarness('anthropic', []);
    expect(() => h?.agent.session(h.dir, { workerAgents: [{ name: 'ghost', description: 'x', kind: 'custom', model: 'openai/not-declared' }] })).toThrow(
      expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', message: expect.stringContaining('openai/not-declared') }),
    );
    const session = await h.agent.sessionAsync(h.dir);
    expect(() => session.registerWorkerAgent({ name: 'ghost', description: 'x', kind: 'custom', model: 'anthropic/nope' })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR' }));
    expect(() => session.registerWorkerAgent({ name: 'explore', description: 'x', kind: 'custom' })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR' }));
    await expect(session.task({ agent: 'nobody', description: 'x', prompt: 'y' })).rejects.toMatchObject({ code: 'SESSION_ERROR', message: expect.stringContaining('explore') });
    expect(() => session.task({ agent: 'explore', description: 'x', prompt: 'y', background: true })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR' }));
  });

  it('sessionForAgentAsync and sessionForWorkerAsync open top-level sessions acting as that agent', async () => {
    h = await startHarness('openai', routed({ 'What is here?': [textResponse('files')] }));
    const explorer = await h.agent.sessionForAgentAsync(h.dir, 'explore');
    expect(explorer.toolNames().sort()).toEqual(['glob', 'grep', 'ls', 'read']);
    expect((await explorer.send('What is here?')).text).toBe('files');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toContain('You explore a codebase without changing it');
    const worker = await h.agent.sessionForWorkerAsync(h.dir, { name: 'rev', description: 'review', kind: 'reviewer', maxSteps: 3 });
    expect(worker.toolNames().sort()).toEqual(['glob', 'grep', 'ls', 'read']);
    expect(worker.snapshot().options.maxToolRounds).toBe(3);
    await expect(h.agent.sessionForAgentAsync(h.dir, 'nope')).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
  });
});

describe('confirmation inheritance: three outcomes of the same Ask', () => {
  const script = routed({ 'Write the note': [toolCallResponse('write', { file_path: 'note.txt', content: 'hello' }), textResponse('attempted')] });

  it.each(['auto_approve', 'deny_on_ask', 'inherit_parent'] as const)('%s', async (mode) => {
    h = await startHarness('anthropic', script);
    const session = h.agent.session(h.dir, {
      permissionPolicy: { ask: ['write'], defaultDecision: 'allow' },
      confirmationPolicy: { defaultTimeoutMs: 10_000 },
      workerAgents: [{ name: 'restricted-writer', description: 'Write files', kind: 'implementer', confirmationInheritance: mode }],
    });
    const asked: AgentEvent[] = [];
    session.onEvent((e) => {
      if (e.type !== 'confirmation_required') return;
      asked.push(e);
      void session.confirmToolUse(e.toolId, true, 'parent approves');
    });
    const ended: AgentEvent[] = [];
    session.onEvent((e) => {
      if (e.type === 'subagent_end') ended.push(e);
    });
    const result = await session.task({ agent: 'restricted-writer', description: 'write', prompt: 'Write the note' });
    expect(result.status).toBe(mode === 'deny_on_ask' ? 'failed' : 'completed');
    const written = existsSync(join(h.dir, 'note.txt'));
    const toolResult = toolResultsOf(h.server.requests.at(-1)!)[0];
    if (mode === 'auto_approve') {
      expect(written).toBe(true);
      expect(asked).toHaveLength(0);
    } else if (mode === 'deny_on_ask') {
      // The child run fails at the ask: nothing is written, the model is not asked again.
      expect(written).toBe(false);
      expect(asked).toHaveLength(0);
      expect(h.server.requests).toHaveLength(1);
      expect(result.error).toMatchObject({ code: 'SECURITY_ERROR', message: expect.stringContaining("'deny_on_ask'") });
      expect(result.text).toBe('');
      expect(ended[0]?.payload).toMatchObject({ status: 'failed', error: { code: 'SECURITY_ERROR' } });
      expect(result).toMatchObject({ name: 'task', exitCode: 1, output: expect.stringContaining('failed') });
    } else {
      expect(written).toBe(true);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.toolId).toMatch(/^task_[^/]+\//);
      expect(asked[0]?.toolName).toBe('write');
    }
  });
});
