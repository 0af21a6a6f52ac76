// Governance end-to-end through the public SDK, over both wire protocols: permission policy,
// confirmations (answer, timeout, YOLO lanes), pre_tool_use hooks (block, no laundering of
// arguments), host-direct calls, and secret redaction of tool output everywhere it goes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import { Agent, CodeError } from '../src/index.js';
import type { AgentEvent, Session } from '../src/index.js';
import { PROTOCOLS, aclFor, startHarness, writeFiles } from './harness.js';
import type { Harness } from './harness.js';

/** Streams `prompt` and returns every event; `onEvent` may act on them (answer confirmations). */
async function streamAll(session: Session, prompt: string, onEvent: (event: AgentEvent) => Promise<void> | void = () => undefined): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of await session.stream(prompt)) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

const types = (events: readonly AgentEvent[]): string[] => events.map((e) => e.type);

describe.each(PROTOCOLS)('governance over %s', (protocol) => {
  let h: Harness | undefined;
  const extraAgents: Agent[] = [];
  afterEach(async () => {
    for (const agent of extraAgents.splice(0)) await agent.close();
    await h?.cleanup();
    h = undefined;
  });

  /** What the model was shown as the first tool result of the conversation. */
  const shownToModel = (request = 1) => toolResultsOf(h!.server.requests[request]!)[0];

  it('permissionPolicy deny: the model gets permission_denied, the tool never runs, the event is streamed', async () => {
    h = await startHarness(protocol, [toolCallResponse('write', { file_path: 'owned.txt', content: 'pwned' }), textResponse('I could not write it.')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['write'], defaultDecision: 'allow' } });
    const events = await streamAll(session, 'write owned.txt');
    expect(existsSync(join(h.dir, 'owned.txt'))).toBe(false);
    const denied = events.find((e) => e.type === 'permission_denied');
    expect(denied).toMatchObject({ toolName: 'write', payload: { origin: 'agent', rule: 'write' } });
    expect(events.filter((e) => e.type === 'tool_execution_start')).toEqual([]);
    const end = events.find((e) => e.type === 'tool_end');
    expect(end?.payload['error_kind']).toMatchObject({ type: 'permission_denied' });
    expect(shownToModel()?.content).toMatch(/^Permission denied/);
    if (protocol === 'anthropic') expect(shownToModel()?.isError).toBe(true);
    // The denial is replayable too.
    const [run] = await session.runs();
    expect(types(await session.runEvents(run!.id))).toContain('permission_denied');
  });

  it('ask + a human who says no: the command never runs', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo ran > ran.txt' }), textResponse('ok, not running it')]);
    const session = h.agent.session(h.dir, { permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 30_000 } });
    const events = await streamAll(session, 'run it', async (event) => {
      if (event.type !== 'confirmation_required') return;
      const [pending] = await session.pendingConfirmations();
      expect(pending).toMatchObject({ toolName: 'bash', args: { command: 'echo ran > ran.txt' } });
      expect(await session.confirmToolUse(pending!.toolId, false, 'not on my machine')).toBe(true);
    });
    expect(existsSync(join(h.dir, 'ran.txt'))).toBe(false);
    expect(types(events)).toEqual(expect.arrayContaining(['confirmation_required', 'confirmation_received', 'permission_denied']));
    expect(shownToModel()?.content).toMatch(/rejected: not on my machine/);
    expect(await session.pendingConfirmations()).toEqual([]);
  });

  it('ask + no answer: timeoutAction reject denies, auto_approve runs', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo first > first.txt' }), textResponse('timed out'), toolCallResponse('bash', { command: 'echo second > second.txt' }), textResponse('auto-approved')]);
    const rejecting = h.agent.session(h.dir, { permissionPolicy: { ask: ['bash*'] }, confirmationPolicy: { defaultTimeoutMs: 150, timeoutAction: 'reject' } });
    const rejected = await streamAll(rejecting, 'first');
    expect(types(rejected)).toEqual(expect.arrayContaining(['confirmation_required', 'confirmation_timeout', 'permission_denied']));
    expect(rejected.find((e) => e.type === 'confirmation_timeout')?.payload['action']).toBe('reject');
    expect(existsSync(join(h.dir, 'first.txt'))).toBe(false);
    expect(shownToModel()?.content).toMatch(/confirmation timed out/);

    const approving = h.agent.session(h.dir, { permissionPolicy: { ask: ['bash*'] }, confirmationPolicy: { defaultTimeoutMs: 150, timeoutAction: 'auto_approve' } });
    const approved = await streamAll(approving, 'second');
    expect(approved.find((e) => e.type === 'confirmation_timeout')?.payload['action']).toBe('auto_approve');
    expect(readFileSync(join(h.dir, 'second.txt'), 'utf8')).toBe('second\n');
  });

  it('yoloLanes approve their lane without asking; other lanes still ask', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo yolo > yolo.txt' }), toolCallResponse('write', { file_path: 'w.txt', content: 'w' }), textResponse('done')]);
    const session = h.agent.session(h.dir, {
      permissionPolicy: { ask: ['bash*', 'write'] },
      confirmationPolicy: { yoloLanes: ['execute'], defaultTimeoutMs: 150, timeoutAction: 'reject' },
    });
    const events = await streamAll(session, 'go');
    expect(readFileSync(join(h.dir, 'yolo.txt'), 'utf8')).toBe('yolo\n');
    // Only the write asked (and timed out): bash was in a YOLO lane.
    expect(events.filter((e) => e.type === 'confirmation_required').map((e) => e.toolName)).toEqual(['write']);
    expect(existsSync(join(h.dir, 'w.txt'))).toBe(false);
  });

  it('a pre_tool_use hook on bash (priority 10) blocks before a permissive policy is consulted', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'rm -rf src' }), textResponse('blocked')], { 'src/a.txt': 'keep\n' });
    const session = h.agent.session(h.dir, { permissionPolicy: { defaultDecision: 'allow' } });
    const order: string[] = [];
    session.registerHook('audit', 'pre_tool_use', { tool: 'bash' }, null, () => void order.push('audit (priority 100)'));
    session.registerHook('no-rm', 'pre_tool_use', { tool: 'bash' }, { priority: 10 }, (event) => {
      order.push('no-rm (priority 10)');
      const command = String((event.payload['args'] as { command?: unknown }).command);
      return command.startsWith('rm ') ? { action: 'block', reason: 'rm is not allowed here' } : { action: 'continue' };
    });
    const events = await streamAll(session, 'clean up');
    expect(readFileSync(join(h.dir, 'src/a.txt'), 'utf8')).toBe('keep\n');
    expect(order).toEqual(['no-rm (priority 10)']);
    expect(events.find((e) => e.type === 'tool_end')?.payload['error_kind']).toMatchObject({ type: 'hook_denied', reason: 'rm is not allowed here', retryable: false });
    expect(shownToModel()?.content).toMatch(/Blocked by hook 'no-rm': rm is not allowed here/);
  });

  it('a hook cannot launder arguments: invalid modified args are rejected, modified args face the policy', async () => {
    h = await startHarness(protocol, [
      toolCallResponse('bash', { command: 'echo one > one.txt' }),
      toolCallResponse('bash', { command: 'echo two > two.txt' }),
      textResponse('done'),
    ]);
    const session = h.agent.session(h.dir, { permissionPolicy: { deny: ['bash(rm *)'], defaultDecision: 'allow' } });
    let calls = 0;
    session.registerHook('rewrite', 'pre_tool_use', { tool: 'bash' }, null, () => {
      calls += 1;
      // First an argument object bash does not accept, then a command the policy denies.
      return calls === 1 ? { action: 'continue', modified: { args: { command: 42, sneaky: true } } } : { action: 'continue', modified: { args: { command: 'rm -rf .' } } };
    });
    const events = await streamAll(session, 'go');
    expect(existsSync(join(h.dir, 'one.txt'))).toBe(false);
    expect(existsSync(join(h.dir, 'two.txt'))).toBe(false);
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends.map((e) => (e.payload['error_kind'] as { type?: string } | undefined)?.type)).toEqual(['invalid_argument', 'permission_denied']);
    expect(shownToModel()?.content).toMatch(/arguments modified by a pre_tool_use hook are invalid/);
    expect(events.filter((e) => e.type === 'tool_execution_start')).toEqual([]);
  });

  it("the spec's planning-hook sample registers, and a duplicate id or unknown event is a CONFIG_ERROR", async () => {
    h = await startHarness(protocol, [textResponse('planned')]);
    const session = await h.agent.sessionAsync(h.dir);
    session.registerHook('planning-policy', 'pre_planning', null, null, (event) => ({
      action: 'continue',
      modified: {
        modified_task: `${String(event.payload['task_description'])}\n\nKeep changes scoped and testable.`,
        selected_strategy: 'step_by_step',
        hints: ['Preserve the original user request'],
      },
    }));
    expect(() => session.registerHook('planning-policy', 'pre_planning', null, null, () => undefined)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    expect(() => session.registerHook('x', 'before_everything' as never, null, null, () => undefined)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
    expect((await session.send('plan something')).text).toBe('planned');
    expect(session.unregisterHook('planning-policy')).toBe(true);
  });

  it('host-direct bash skips a deny policy (host control plane) but a pre_tool_use hook still stops it', async () => {
    h = await startHarness(protocol, []);
    const session = h.agent.session(h.dir, { permissionPolicy: { deny: ['bash'], defaultDecision: 'deny' } });
    const seen: AgentEvent[] = [];
    session.onEvent((e) => seen.push(e));
    expect(await session.bash('echo host > host.txt && echo direct')).toContain('direct');
    expect(readFileSync(join(h.dir, 'host.txt'), 'utf8')).toBe('host\n');
    expect(seen.find((e) => e.type === 'tool_start')?.payload['origin']).toBe('host-direct');
    expect(types(seen)).not.toContain('permission_denied');

    session.registerHook('freeze', 'pre_tool_use', { tool: 'bash' }, { priority: 10 }, () => ({ action: 'block', reason: 'change freeze' }));
    let caught: unknown;
    try {
      await session.bash('echo blocked > blocked.txt');
    } catch (error) {
      caught = error;
    }
    expect(CodeError.isInstance(caught) && caught.code).toBe('TOOL_ERROR');
    expect((caught as CodeError).details['errorKind']).toMatchObject({ type: 'hook_denied', reason: 'change freeze' });
    expect(existsSync(join(h.dir, 'blocked.txt'))).toBe(false);
    // Nothing of this touched the conversation.
    expect(await session.runs()).toEqual([]);
  });

  it('a secret env value printed by bash is redacted in the tool result, the events and runEvents', async () => {
    const secret = `tok-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'cat creds.txt; printf "env:[%s]\\n" "$DEPLOY_TOKEN"' }), textResponse('read the credentials')]);
    writeFiles(h.dir, { 'creds.txt': `deploy with ${secret} please\n` });
    process.env['DEPLOY_TOKEN'] = secret;
    let agent: Agent;
    try {
      agent = await Agent.create(aclFor(h.server, protocol), { env: { ...process.env } });
    } finally {
      delete process.env['DEPLOY_TOKEN'];
    }
    extraAgents.push(agent);
    const session = await agent.sessionAsync(h.dir);
    const events = await streamAll(session, 'show me the credentials');

    const shown = shownToModel()?.content ?? '';
    expect(shown).toContain('deploy with [REDACTED] please');
    expect(shown).not.toContain(secret);
    // The child process never received the secret-named variable in the first place.
    expect(shown).toContain('env:[]');
    const end = events.find((e) => e.type === 'tool_end');
    expect(String(end?.payload['output'])).toContain('[REDACTED]');
    expect(JSON.stringify(events)).not.toContain(secret);
    const [run] = await session.runs();
    expect(JSON.stringify(await session.runEvents(run!.id))).not.toContain(secret);
    expect(JSON.stringify(await session.runEventPage(run!.id))).not.toContain(secret);
    expect(JSON.stringify(session.state())).not.toContain(secret);
    // Host-direct output is redacted the same way.
    const direct = await session.bash('cat creds.txt');
    expect(direct).toContain('deploy with [REDACTED] please');
    expect(direct).not.toContain(secret);
  });
});
