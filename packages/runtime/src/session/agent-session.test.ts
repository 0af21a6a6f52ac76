import { describe, expect, it } from 'vitest';
import { FakeLlm, aborted, deferred, makeSession, probeTool, textTurn, toolTurn, until } from '../../test/session-kit.js';
import { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent, LlmContentPart, LlmMessage } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { Conversation } from './conversation.js';

const rejection = async (promise: Promise<unknown>): Promise<CodeError> => {
  try {
    await promise;
  } catch (error) {
    if (CodeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
};

const userText = (message: LlmMessage | undefined): string => (message?.role === 'user' ? ((message.content.find((p) => p.type === 'text') as { text: string } | undefined)?.text ?? '') : '');

/** Every tool_call is answered by a tool_result in the next message. */
function expectValidHistory(history: readonly LlmMessage[]): void {
  history.forEach((message, i) => {
    const calls = message.content.filter((p): p is Extract<LlmContentPart, { type: 'tool_call' }> => p.type === 'tool_call').map((c) => c.id);
    if (calls.length === 0) return;
    const answered = (history[i + 1]?.content ?? []).filter((p) => p.type === 'tool_result').map((p) => (p as { toolCallId: string }).toolCallId);
    expect(answered.sort()).toEqual(calls.sort());
  });
}

/** A tool that blocks until aborted (then reports cancellation), announcing when it runs. */
function blockingTool(name = 'block') {
  const running = deferred();
  let settled = false;
  const tool = probeTool(name, {
    run: async (_text, signal) => {
      running.resolve();
      await aborted(signal);
      // Cleanup after the abort takes a little while; close() must wait for it.
      await new Promise((r) => setTimeout(r, 20));
      settled = true;
      return { output: 'aborted', exitCode: 1 };
    },
  });
  return { tool, running: running.promise, settled: () => settled };
}

describe('AgentSession conversation', () => {
  it('send runs to completion and records the run with its events', async () => {
    const echo = probeTool('echo');
    const { session, events } = makeSession(new FakeLlm([toolTurn([{ id: 'c1', name: 'echo', input: { text: 'a' } }]), textTurn('done')]), [echo]);
    const result = await session.send('do it');
    expect(result).toMatchObject({ text: 'done', toolCallsCount: 1, turns: 2, promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    const [run] = session.runs();
    expect(run).toMatchObject({ id: result.runId, status: 'completed', kind: 'send', prompt: 'do it', text: 'done', toolCallsCount: 1, turns: 2 });
    const replay = session.runEvents(result.runId)!;
    expect(replay.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(replay[0]?.type).toBe('agent_start');
    expect(replay.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'done', tool_calls: 1 } });
    expect(replay.map((e) => e.metadata?.sequence)).toEqual(replay.map((_, i) => i + 1));
    expect(session.currentRun()).toBeNull();
    expect(session.runEventPage(result.runId, 0, 2)?.hasMore).toBe(true);
  });

  it('stream yields the run events and result; a malformed request changes nothing', async () => {
    const { session } = makeSession(new FakeLlm([textTurn('streamed')]), []);
    await expect(session.send({ prompt: 5 } as never)).rejects.toMatchObject({ code: 'SESSION_ERROR', details: { field: 'prompt' } });
    expect(session.runs()).toEqual([]);
    const stream = await session.stream({ prompt: 'hi' });
    expect(session.currentRun()?.kind).toBe('stream');
    const seen: AgentEvent[] = [];
    for await (const e of stream) seen.push(e);
    expect(seen.map((e) => e.type)).toEqual(['agent_start', 'turn_start', 'text_delta', 'turn_end', 'agent_end']);
    expect((await stream.result).text).toBe('streamed');
  });

  it('an overlapping send or stream is SESSION_BUSY; after close everything is SESSION_CLOSED', async () => {
    const { tool, running } = blockingTool();
    const { session } = makeSession(new FakeLlm([toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }]), textTurn('after')]), [tool]);
    const stream = await session.stream('block');
    await running;
    expect(await rejection(session.send('again'))).toMatchObject({ code: 'SESSION_BUSY', details: { operation: 'send', activeOperation: 'stream' } });
    expect(await rejection(session.stream('again'))).toMatchObject({ code: 'SESSION_BUSY' });
    await session.close();
    await expect(stream.result).rejects.toMatchObject({ code: 'SESSION_ERROR', details: { cancelled: true } });
    expect(session.closed).toBe(true);
    expect(await rejection(session.send('x'))).toMatchObject({ code: 'SESSION_CLOSED' });
    expect(await rejection(session.stream('x'))).toMatchObject({ code: 'SESSION_CLOSED' });
    expect(await rejection(session.tool('block', { text: 'x' }))).toMatchObject({ code: 'SESSION_CLOSED' });
    expect(session.runs()[0]?.status).toBe('cancelled');
    // close() is idempotent.
    await session.close();
  });

  it('fully consuming a stream is a lifecycle barrier: an immediate send is admitted', async () => {
    const llm = new FakeLlm([toolTurn([{ id: 'c', name: 'echo', input: { text: 'x' } }]), textTurn('first'), textTurn('second')]);
    const { session } = makeSession(llm, [probeTool('echo')]);
    const stream = await session.stream('one');
    let terminal: AgentEvent | undefined;
    for await (const e of stream) {
      terminal = e;
      if (e.type === 'agent_end') {
        // Already at the terminal event, before done: the gate is free.
        expect(session.currentRun()).toBeNull();
        expect((await session.send('two')).text).toBe('second');
      }
    }
    expect(terminal?.type).toBe('agent_end');
  });

  it('a stream dropped with break cancels the run; admission is held until the producer stopped', async () => {
    const { tool, running } = blockingTool();
    const { session } = makeSession(new FakeLlm([toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }]), textTurn('next')]), [tool]);
    const stream = await session.stream('go');
    for await (const e of stream) if (e.type === 'tool_execution_start') break;
    await running;
    await expect(stream.result).rejects.toMatchObject({ details: { cancelled: true } });
    expect(session.runs()[0]?.status).toBe('cancelled');
    expect((await session.send('next')).text).toBe('next');
  });

  it('cancelRun with a stale id cancels nothing; the current id cancels that run', async () => {
    const { tool, running } = blockingTool();
    const llm = new FakeLlm([textTurn('one'), toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }])]);
    const { session } = makeSession(llm, [tool]);
    const first = await session.send('one');
    const second = session.send('two');
    await running;
    expect(session.cancelRun(first.runId)).toBe(false);
    expect(session.cancelRun('run_unknown')).toBe(false);
    expect(session.currentRun()?.status).toBe('running');
    const current = session.currentRun()!.id;
    expect(session.cancelRun(current)).toBe(true);
    expect(await rejection(second)).toMatchObject({ code: 'SESSION_ERROR', details: { cancelled: true } });
    expect(session.runs().map((r) => r.status)).toEqual(['completed', 'cancelled']);
  });

  it('cancel() waits until the run has stopped; with no run it resolves at once', async () => {
    await makeSession(new FakeLlm([]), []).session.cancel();
    const { tool, running, settled } = blockingTool();
    const { session } = makeSession(new FakeLlm([toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }])]), [tool]);
    const sending = session.send('go');
    sending.catch(() => undefined);
    await running;
    await session.cancel();
    expect(settled()).toBe(true);
    expect(session.currentRun()).toBeNull();
    expect(session.runs()[0]?.status).toBe('cancelled');
    expect(session.runs()[0]?.error?.message).toBe('run cancelled: cancelled by host');
    await expect(sending).rejects.toMatchObject({ details: { cancelled: true } });
  });

  it('a throwing listener neither fails the run nor hangs the stream', async () => {
    const { session } = makeSession(new FakeLlm([textTurn('fine'), textTurn('again')]), []);
    session.subscribe(() => {
      throw new Error('host bug');
    });
    const stream = await session.stream('hi');
    const seen: string[] = [];
    for await (const e of stream) seen.push(e.type);
    expect(seen.at(-1)).toBe('agent_end');
    expect((await session.send('again')).text).toBe('again');
  });
});

describe('AgentSession history', () => {
  it('a failed first model call leaves the conversation as it was', async () => {
    const llm = new FakeLlm([textTurn('kept'), () => { throw new CodeError('LLM_ERROR', 'down'); }, () => { throw new CodeError('LLM_ERROR', 'down'); }, textTurn('back')]);
    const { session, events } = makeSession(llm, []);
    await session.send('first');
    const before = session.history();
    expect(await rejection(session.send('second'))).toMatchObject({ code: 'LLM_ERROR' });
    expect(session.history()).toEqual(before);
    expect(events.at(-1)).toMatchObject({ type: 'error', payload: { code: 'LLM_ERROR', message: 'down' } });
    // A request that brought its own history does not leave it installed either.
    const replaced: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'other' }] }, { role: 'assistant', content: [{ type: 'text', text: 'conversation' }] }];
    expect(await rejection(session.send({ prompt: 'third', history: replaced }))).toMatchObject({ code: 'LLM_ERROR' });
    expect(session.history()).toEqual(before);
    await session.send('fourth');
    expect(llm.requests.at(-1)?.messages.map(userText)).toEqual(['first', '', 'fourth']);
  });

  it('send({ history }) replaces the conversation for a run that succeeds', async () => {
    const llm = new FakeLlm([textTurn('a'), textTurn('b')]);
    const { session } = makeSession(llm, []);
    await session.send('first');
    const history: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'earlier' }] }, { role: 'assistant', content: [{ type: 'text', text: 'reply' }] }];
    await session.send({ prompt: 'now', history });
    expect(llm.requests[1]?.messages.map(userText)).toEqual(['earlier', '', 'now']);
    expect(session.history()).toHaveLength(4);
  });

  it('Conversation.answerDanglingToolCalls answers the dangling tool calls of the last assistant message, and only those', () => {
    const conversation = new Conversation([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'on it' }, { type: 'tool_call', id: 'a', name: 'x', input: {} }, { type: 'tool_call', id: 'b', name: 'y', input: {} }] },
    ]);
    expect(conversation.answerDanglingToolCalls('budget exhausted')).toBe(true);
    expect(conversation.messages()[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: 'a', content: 'not executed: budget exhausted', isError: true },
        { type: 'tool_result', toolCallId: 'b', content: 'not executed: budget exhausted', isError: true },
      ],
    });
    // Nothing to repair: unchanged.
    expect(conversation.answerDanglingToolCalls('again')).toBe(false);
    expect(conversation.length).toBe(3);
    const textOnly = new Conversation([{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }]);
    textOnly.answerDanglingToolCalls('x');
    expect(textOnly.length).toBe(1);
    const empty = new Conversation();
    empty.answerDanglingToolCalls('x');
    expect(empty.messages()).toEqual([]);
  });

  it('after a budget stop the history is valid and the next request is accepted', async () => {
    const echo = probeTool('echo');
    const llm = new FakeLlm([
      toolTurn([{ id: 'a', name: 'echo', input: { text: '1' } }], { inputTokens: 10, outputTokens: 5 }),
      textTurn('after raise'),
    ]);
    const { session } = makeSession(llm, [echo], { budget: { maxTokens: 15 } });
    const error = await rejection(session.send('spend'));
    expect(error).toMatchObject({ code: 'BUDGET_EXHAUSTED', details: { kind: 'tokens', limit: 15, used: 15 } });
    // The model turn spent the last tokens, so the kernel refused the tool before it ran.
    expect(echo.calls).toEqual([]);
    expectValidHistory(session.history());
    const last = session.history().at(-1)?.content[0];
    expect(last).toMatchObject({ type: 'tool_result', toolCallId: 'a', isError: true, content: expect.stringMatching(/^not executed: tokens budget exhausted/) });
    expect(session.runs()[0]?.status).toBe('failed');
    // The session stays open; the host raises the budget and continues the conversation.
    session.budget!.raise({ maxTokens: 1000 });
    expect((await session.send('continue')).text).toBe('after raise');
    expectValidHistory(llm.requests[1]!.messages);
  });
});

describe('AgentSession budget (session-wide; BUDGET_EXHAUSTED leaves the session open)', () => {
  it('maxToolCalls: the run that needs one call too many is rejected; text answers still work; raise() restores tools', async () => {
    const echo = probeTool('echo');
    const llm = new FakeLlm([
      toolTurn([{ id: '1', name: 'echo', input: { text: 'a' } }]),
      textTurn('used exactly the budget'),
      toolTurn([{ id: '2', name: 'echo', input: { text: 'b' } }]),
      textTurn('no tools needed'),
      toolTurn([{ id: '3', name: 'echo', input: { text: 'c' } }]),
      textTurn('raised'),
    ]);
    const { session, events } = makeSession(llm, [echo], { budget: { maxToolCalls: 1 } });
    // A run that spends exactly the budget can still give its final answer.
    expect((await session.send('one call')).text).toBe('used exactly the budget');
    // The next tool call is refused before it runs: the run is rejected.
    expect(await rejection(session.send('another call'))).toMatchObject({ code: 'BUDGET_EXHAUSTED', details: { kind: 'tool_calls', limit: 1 } });
    expect(echo.calls).toEqual(['a']);
    expect(events.filter((e) => e.type === 'budget_threshold_hit')).toHaveLength(1);
    expectValidHistory(session.history());
    expect(session.closed).toBe(false);
    // Usage is not reset per run: a run that needs no tool is fine.
    expect((await session.send('just talk')).text).toBe('no tools needed');
    session.budget!.raise({ maxToolCalls: 5 });
    expect((await session.send('tools again')).text).toBe('raised');
    expect(echo.calls).toEqual(['a', 'c']);
    expect(session.budget!.usage().toolCalls).toBe(2);
  });

  it('with tool calls used up, the model turn is still gated by the token budget', async () => {
    const llm = new FakeLlm([toolTurn([{ id: '1', name: 'echo', input: { text: 'a' } }], { inputTokens: 10, outputTokens: 5 }), textTurn('fits', { inputTokens: 10, outputTokens: 5 }), textTurn('never')]);
    const { session } = makeSession(llm, [probeTool('echo')], { budget: { maxToolCalls: 1, maxTokens: 30 } });
    expect((await session.send('a')).text).toBe('fits');
    expect(await rejection(session.send('b'))).toMatchObject({ code: 'BUDGET_EXHAUSTED', details: { kind: 'tokens', limit: 30, used: 30 } });
    expect(llm.remaining).toBe(1);
    session.budget!.reset();
    expect((await session.send('c')).text).toBe('never');
  });

  it('without a budget option there is no guard', () => {
    expect(makeSession(new FakeLlm([]), []).session.budget).toBeNull();
  });
});

describe('AgentSession hooks', () => {
  it('a pre_prompt block rejects the run before the model is called and changes nothing', async () => {
    const llm = new FakeLlm([textTurn('unused')]);
    const { session } = makeSession(llm, []);
    session.registerHook('guard', 'pre_prompt', null, null, (e) => (String(e.payload['prompt']).includes('secret') ? { action: 'block', reason: 'no secrets' } : undefined));
    const error = await rejection(session.send('tell me the secret'));
    expect(error).toMatchObject({ code: 'SESSION_ERROR', details: { hook: 'guard', blocked: true } });
    expect(error.message).toContain('no secrets');
    expect(llm.requests).toEqual([]);
    expect(session.history()).toEqual([]);
    expect(session.runs()[0]?.status).toBe('failed');
  });

  it('a pre_prompt retry is treated as a block; a hook that throws fails closed', async () => {
    const { session } = makeSession(new FakeLlm([]), []);
    session.registerHook('later', 'pre_prompt', null, null, () => ({ action: 'retry', reason: 'rate limited', retryAfterMs: 10 }));
    expect(await rejection(session.send('x'))).toMatchObject({ code: 'SESSION_ERROR', details: { hook: 'later', blocked: true } });
    session.unregisterHook('later');
    session.registerHook('broken', 'pre_prompt', null, null, () => {
      throw new Error('hook bug');
    });
    expect((await rejection(session.send('x'))).message).toMatch(/hook 'broken'.*hook bug/);
  });

  it('a pre_prompt hook may rewrite the prompt; post_response and on_error observe', async () => {
    const llm = new FakeLlm([textTurn('ok'), () => { throw new CodeError('LLM_ERROR', 'down'); }]);
    const { session } = makeSession(llm, []);
    const seen: string[] = [];
    session.registerHook('rewrite', 'pre_prompt', null, null, (e) => ({ action: 'continue', modified: { prompt: `${String(e.payload['prompt'])} (be brief)` } }));
    session.registerHook('after', 'post_response', null, null, (e) => void seen.push(`post:${String(e.payload['text'])}`));
    session.registerHook('err', 'on_error', null, null, (e) => void seen.push(`error:${String(e.payload['code'])}`));
    await session.send('explain');
    expect(userText(llm.requests[0]?.messages[0])).toBe('explain (be brief)');
    await rejection(session.send('again'));
    expect(seen).toEqual(['post:ok', 'error:LLM_ERROR']);
    expect(session.unregisterHook('rewrite')).toBe(true);
    expect(session.unregisterHook('rewrite')).toBe(false);
  });
});

describe('AgentSession host-direct tools and lifecycle', () => {
  it('a refusal that echoes malformed model input is redacted like any tool output', async () => {
    const secret = 'sk-ant-api03-' + 'x'.repeat(40);
    const echo = probeTool('echo');
    const malformed = [
      { type: 'attempt_start' as const, attempt: 1 },
      { type: 'tool_call_start' as const, id: 'bad', name: 'echo' },
      { type: 'tool_call_end' as const, id: 'bad', name: 'echo', input: undefined, invalidInput: `{"text": "${secret}` },
      { type: 'message_end' as const, stopReason: 'tool_use' as const, usage: { inputTokens: 1, outputTokens: 1 }, content: [{ type: 'tool_call' as const, id: 'bad', name: 'echo', input: {} }] },
    ];
    const llm = new FakeLlm([malformed, textTurn('ok')]);
    const { session, events } = makeSession(llm, [echo]);
    await session.send('go');
    const shown = JSON.stringify(llm.requests[1]?.messages.at(-1));
    expect(shown).toContain('invalid JSON');
    expect(shown).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('subscribe() sees host-direct tool events; they touch no run and no history', async () => {
    const { session } = makeSession(new FakeLlm([]), [probeTool('echo')]);
    const seen: AgentEvent[] = [];
    const unsubscribe = session.subscribe((e) => seen.push(e));
    const result = await session.tool('echo', { text: 'hi' });
    expect(result).toMatchObject({ name: 'echo', output: 'echo:hi', exitCode: 0 });
    expect(seen.map((e) => [e.type, e.payload['origin']])).toEqual([
      ['tool_start', 'host-direct'],
      ['tool_execution_start', undefined],
      ['tool_end', 'host-direct'],
    ]);
    expect(session.runs()).toEqual([]);
    expect(session.history()).toEqual([]);
    unsubscribe();
    await session.tool('echo', { text: 'again' });
    expect(seen).toHaveLength(3);
  });

  it('host-direct calls during a run stay out of the run record and its stream', async () => {
    const { tool, running } = blockingTool();
    const { session } = makeSession(new FakeLlm([toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }])]), [tool, probeTool('echo')]);
    const seen: AgentEvent[] = [];
    session.subscribe((e) => seen.push(e));
    const stream = await session.stream('go');
    await running;
    const direct = await session.tool('echo', { text: 'side' });
    expect(direct.output).toBe('echo:side');
    const hostIds = new Set(seen.filter((e) => e.payload['origin'] === 'host-direct').map((e) => e.toolId));
    expect(hostIds.size).toBe(1);
    await session.cancel();
    const streamed: AgentEvent[] = [];
    for await (const e of stream) streamed.push(e);
    const runId = session.runs()[0]!.id;
    expect(streamed.filter((e) => hostIds.has(e.toolId))).toEqual([]);
    expect((session.runEvents(runId) ?? []).filter((e) => hostIds.has(e.toolId))).toEqual([]);
    expect(seen.filter((e) => hostIds.has(e.toolId)).map((e) => e.type)).toEqual(['tool_start', 'tool_execution_start', 'tool_end']);
    expect(streamed.map((e) => e.toolId)).toContain('b');
  });

  it('close() cancels a running host-direct tool and waits for it before closing an owned workspace', async () => {
    const { tool, running, settled } = blockingTool();
    const workspace = new MemoryWorkspaceBackend();
    let workspaceClosedAfterTool: boolean | undefined;
    (workspace as { close?: () => Promise<void> }).close = async () => {
      workspaceClosedAfterTool = settled();
    };
    const llm = new FakeLlm([]);
    const { AgentSession } = await import('./agent-session.js');
    const { resolveSessionOptions } = await import('./resolve-session-options.js');
    const session = new AgentSession({ sessionId: 's', llm, workspace, tools: [tool], options: resolveSessionOptions({}), ownsWorkspace: true });
    const call = session.tool('block', { text: 'x' });
    await running;
    expect(session.activeTools().map((t) => [t.toolName, t.origin])).toEqual([['block', 'host-direct']]);
    await session.close();
    expect(settled()).toBe(true);
    expect(workspaceClosedAfterTool).toBe(true);
    const result = await call;
    expect(result.exitCode).not.toBe(0);
    expect(result.errorKind?.type).toBe('cancelled');
    expect(session.activeTools()).toEqual([]);
  });

  it('a caller abort signal cancels only that host-direct call', async () => {
    const { tool, running } = blockingTool();
    const { session } = makeSession(new FakeLlm([]), [tool, probeTool('echo')]);
    const controller = new AbortController();
    const call = session.tool('block', { text: 'x' }, { abortSignal: controller.signal });
    await running;
    controller.abort('enough');
    expect((await call).errorKind?.type).toBe('cancelled');
    expect((await session.tool('echo', { text: 'y' })).exitCode).toBe(0);
  });

  it('tools can be added and removed at run time; the model sees the current surface', async () => {
    const llm = new FakeLlm([textTurn('a'), textTurn('b')]);
    const { session } = makeSession(llm, [probeTool('echo')]);
    session.registerTool(probeTool('extra'));
    expect(session.toolNames()).toEqual(['echo', 'extra']);
    expect(() => session.registerTool(probeTool('extra'))).toThrow();
    session.registerTool(probeTool('extra'), { replace: true });
    await session.send('one');
    expect(llm.requests[0]?.tools.map((t) => t.name)).toEqual(['echo', 'extra']);
    expect(session.unregisterTool('extra')).toBe(true);
    expect(session.unregisterTool('extra')).toBe(false);
    await session.send('two');
    expect(llm.requests[1]?.tools.map((t) => t.name)).toEqual(['echo']);
    expect(session.toolDefinitions()).toEqual([{ name: 'echo', description: 'probe echo', parameters: expect.any(Object) }]);
    expect(session.getArtifact('a3s://tool-output/echo/none')).toBeNull();
    expect(session.systemPrompt()).toContain('Workspace: /memory.');
  });

  it('close() runs session_end hooks', async () => {
    const { session } = makeSession(new FakeLlm([]), []);
    let ended = false;
    session.registerHook('end', 'session_end', null, null, () => void (ended = true));
    await session.close();
    expect(ended).toBe(true);
  });
});

describe('AgentSession state', () => {
  it('state() survives JSON and restoreState() brings back history, runs and the system prompt', async () => {
    const big = 'x'.repeat(200_000);
    const llm = new FakeLlm([toolTurn([{ id: 'c', name: 'echo', input: { text: 'a' } }]), textTurn('saved')]);
    const { session } = makeSession(llm, [probeTool('echo', { run: async () => ({ output: big }) })], { instructions: 'Use tabs.' });
    const sent = await session.send('work');
    const state = JSON.parse(JSON.stringify(session.state()));
    expect(state).toMatchObject({ version: 1, sessionId: 'sess-test', pendingConfirmations: [], options: { instructions: 'Use tabs.', maxToolRounds: 50 } });
    expect(state.artifacts).toBeDefined();

    const target = makeSession(new FakeLlm([textTurn('resumed')]), [probeTool('echo')], { systemPrompt: 'other' }).session;
    target.restoreState(state);
    expect(target.history()).toEqual(session.history());
    expect(target.runs()).toEqual(session.runs());
    expect(target.runEvents(sent.runId)).toEqual(session.runEvents(sent.runId));
    expect(target.systemPrompt()).toBe(session.systemPrompt());
    expect(target.systemPrompt()).toContain('Use tabs.');
    const uri = (session.runEvents(sent.runId) ?? []).map((e) => (e.payload['artifacts'] as string[] | undefined)?.[0]).find((u) => u !== undefined);
    expect(uri).toBeDefined();
    expect(target.getArtifact(uri!)?.content).toBe(big);
    expect((await target.send('next')).text).toBe('resumed');
    expect(target.history()).toHaveLength(session.history().length + 2);
  });

  it('restoreState refuses a wrong version or a malformed state and changes nothing; busy sessions refuse too', async () => {
    const { session } = makeSession(new FakeLlm([textTurn('a')]), []);
    await session.send('a');
    const good = session.state();
    for (const bad of [{ ...good, version: 2 }, { ...good, history: 'x' }, { ...good, runs: null }, null]) {
      expect(() => session.restoreState(bad as never)).toThrow(expect.objectContaining({ code: 'SERIALIZATION_ERROR' }));
    }
    expect(session.state()).toEqual(good);

    const { tool, running } = blockingTool();
    const busy = makeSession(new FakeLlm([toolTurn([{ id: 'b', name: 'block', input: { text: 'x' } }])]), [tool]).session;
    const sending = busy.send('go');
    sending.catch(() => undefined);
    await running;
    expect(() => busy.restoreState(good)).toThrow(expect.objectContaining({ code: 'SESSION_BUSY' }));
    await busy.cancel();
  });

  it('a pending confirmation is listed, answered once, and part of state()', async () => {
    const echo = probeTool('echo');
    const { session, events } = makeSession(new FakeLlm([toolTurn([{ id: 'q', name: 'echo', input: { text: 'a' } }]), textTurn('approved')]), [echo], { permissionPolicy: { ask: ['echo'] } });
    const sending = session.send('ask first');
    await until(() => session.pendingConfirmations().length === 1);
    expect(session.state().pendingConfirmations).toMatchObject([{ toolId: 'q', toolName: 'echo' }]);
    expect(session.confirmToolUse('q', true, 'looks fine')).toBe(true);
    expect(session.confirmToolUse('q', false)).toBe(false);
    expect((await sending).text).toBe('approved');
    expect(echo.calls).toEqual(['a']);
    expect(events.map((e) => e.type)).toContain('confirmation_received');
  });
});
