import { Conversation } from './conversation.js';
import { BudgetGuard, HookRegistry, InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { describe, expect, it } from 'vitest';
import { FakeLlm, aborted, callContent, callEvents, deferred, probeTool, textTurn, toolTurn } from '../../test/session-kit.js';
import type { ScriptStep } from '../../test/session-kit.js';
import { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent, AnyTool, LlmContentPart, LlmMessage, LlmUsage } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import { ToolCallRunner } from './tool-call-runner.js';
import { runTurnLoop, toBase64 } from './turn-loop.js';
import { stableJson } from './stable-json.js';
import type { TurnLoopLimits, TurnLoopOutcome } from './turn-loop.js';

const LIMITS: TurnLoopLimits = { maxToolRounds: 50, circuitBreakerThreshold: 3, duplicateToolCallThreshold: 3, llmApiTimeoutMs: undefined, maxOutputTokens: undefined, maxParseRetries: 2, maxContinuationTurns: 3 };
const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });

interface Loop {
  readonly llm: FakeLlm;
  /** What the loop reported to its usage sink, one entry per model call. */
  readonly usages: readonly LlmUsage[];
  readonly history: readonly LlmMessage[];
  readonly events: AgentEvent[];
  readonly controller: AbortController;
  run(prompt?: string): Promise<TurnLoopOutcome>;
  /** The rejection of the run, as a CodeError. */
  fail(prompt?: string): Promise<CodeError>;
}

function loop(script: ScriptStep[], tools: AnyTool[], limits: Partial<TurnLoopLimits> = {}, budget?: BudgetGuard, withHooks?: (hooks: HookRegistry) => void): Loop {
  const llm = new FakeLlm(script);
  const conversation = new Conversation();
  const events: AgentEvent[] = [];
  const controller = new AbortController();
  const emit = (e: AgentEvent): void => void events.push(e);
  const hooks = new HookRegistry();
  withHooks?.(hooks);
  const kernel = new InvocationKernel({ registry: new ToolRegistry(tools), workspace: new MemoryWorkspaceBackend(), sessionId: 's', emit, hooks, ...(budget === undefined ? {} : { budget }) });
  const registry = new ToolRegistry(tools);
  const usages: LlmUsage[] = [];
  const run = (prompt = 'go'): Promise<TurnLoopOutcome> =>
    runTurnLoop(
      {
        llm,
        system: 'sys',
        tools: () => registry.definitions(),
        conversation,
        emit,
        signal: controller.signal,
        limits: { ...LIMITS, ...limits },
        toolCalls: new ToolCallRunner(kernel),
        onUsage: (usage) => void usages.push(usage),
        onToolCalls: () => undefined,
        onTurn: () => undefined,
      },
      user(prompt),
    );
  return {
    llm,
    usages,
    get history() {
      return conversation.messages();
    },
    events,
    controller,
    run,
    fail: async (prompt) => {
      try {
        await run(prompt);
      } catch (error) {
        if (CodeError.isInstance(error)) return error;
        throw error;
      }
      throw new Error('the run did not fail');
    },
  };
}

/** Every tool_call in history has exactly one tool_result in the next message. */
function expectValidHistory(history: readonly LlmMessage[]): void {
  history.forEach((message, i) => {
    const calls = message.content.filter((p): p is Extract<LlmContentPart, { type: 'tool_call' }> => p.type === 'tool_call');
    if (calls.length === 0) return;
    const next = history[i + 1];
    expect(next?.role, `message ${i + 1} answers the tool calls of message ${i}`).toBe('user');
    const answered = (next?.content ?? []).filter((p) => p.type === 'tool_result').map((p) => (p as { toolCallId: string }).toolCallId);
    expect(answered.sort()).toEqual(calls.map((c) => c.id).sort());
  });
}

const resultsIn = (message: LlmMessage | undefined) => (message?.content ?? []).filter((p): p is Extract<LlmContentPart, { type: 'tool_result' }> => p.type === 'tool_result');
const types = (events: readonly AgentEvent[]) => events.map((e) => e.type);

describe('runTurnLoop', () => {
  it('a text-only answer is one turn', async () => {
    const l = loop([textTurn('hello')], []);
    const outcome = await l.run('hi');
    expect(outcome).toEqual({ text: 'hello', turns: 1, toolCallsCount: 0 });
    expect(l.usages).toEqual([{ inputTokens: 10, outputTokens: 5 }]);
    expect(types(l.events)).toEqual(['turn_start', 'text_delta', 'turn_end']);
    expect(l.events[2]?.payload).toMatchObject({ turn: 1, stop_reason: 'end_turn', tool_calls: 0, usage: { input_tokens: 10, output_tokens: 5 } });
    expect(l.history).toEqual([user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }]);
    expect(l.llm.requests[0]?.system).toBe('sys');
  });

  it('a tool round then an answer: results go back to the model in request order', async () => {
    const echo = probeTool('echo');
    const l = loop([toolTurn([{ id: 'c1', name: 'echo', input: { text: 'a' } }, { id: 'c2', name: 'echo', input: { text: 'b' } }]), textTurn('done')], [echo]);
    const outcome = await l.run();
    expect(outcome).toMatchObject({ text: 'done', turns: 2, toolCallsCount: 2 });
    expect(echo.calls).toEqual(['a', 'b']);
    expect(resultsIn(l.llm.requests[1]?.messages.at(-1))).toEqual([
      { type: 'tool_result', toolCallId: 'c1', content: 'echo:a', isError: false },
      { type: 'tool_result', toolCallId: 'c2', content: 'echo:b', isError: false },
    ]);
    expect(types(l.events)).toEqual([
      'turn_start', 'tool_input_delta', 'tool_input_delta', 'tool_start', 'tool_execution_start', 'tool_end', 'tool_start', 'tool_execution_start', 'tool_end', 'turn_end',
      'turn_start', 'text_delta', 'turn_end',
    ]);
    expect(l.events[1]?.payload).toMatchObject({ tool_id: 'c1', tool_name: 'echo' });
    expectValidHistory(l.history);
  });

  it('refuses an identical call repeated beyond duplicateToolCallThreshold; other args reset the count', async () => {
    const echo = probeTool('echo');
    const same = (id: string) => toolTurn([{ id, name: 'echo', input: { text: 'x' } }]);
    const l = loop([same('1'), same('2'), toolTurn([{ id: '3', name: 'echo', input: { text: 'y' } }]), same('4'), same('5'), same('6'), textTurn('ok')], [echo], { duplicateToolCallThreshold: 2, circuitBreakerThreshold: 10 });
    await l.run();
    // x, x (2 allowed), y resets, x, x, then the third x in a row is refused without running.
    expect(echo.calls).toEqual(['x', 'x', 'y', 'x', 'x']);
    const refused = resultsIn(l.llm.requests[6]?.messages.at(-1))[0];
    expect(refused).toMatchObject({ toolCallId: '6', isError: true });
    expect(refused?.content).toMatch(/repeated 3 times.*duplicateToolCallThreshold 2/);
    const end = l.events.filter((e) => e.type === 'tool_end').at(-1);
    expect(end?.payload['error_kind']).toMatchObject({ type: 'invalid_argument' });
    // The refusal went through the kernel: its start carries the origin and the real arguments.
    const start = l.events.filter((e) => e.type === 'tool_start' && e.toolId === '6');
    expect(start.map((e) => e.payload)).toEqual([{ tool_id: '6', tool_name: 'echo', args: { text: 'x' }, origin: 'agent' }]);
  });

  it('a refusal is judged by the kernel before hooks: a pre_tool_use hook never sees it', async () => {
    const echo = probeTool('echo');
    const seen: string[] = [];
    const l = loop(
      [
        [{ type: 'attempt_start', attempt: 1 }, ...callEvents([{ id: 'bad', name: 'echo', raw: '{"text": ' }]), { type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 1, outputTokens: 1 }, content: callContent([{ id: 'bad', name: 'echo', input: {} }]) }],
        textTurn('ok'),
      ],
      [echo],
      {},
      undefined,
      (hooks) => hooks.register('spy', 'pre_tool_use', null, null, (event) => void seen.push(String(event.payload['tool_id']))),
    );
    await l.run();
    expect(seen).toEqual([]);
    expect(l.events.find((e) => e.type === 'tool_start' && e.toolId === 'bad')?.payload['origin']).toBe('agent');
  });

  it('key order does not make a call different (stableJson)', () => {
    expect(stableJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(stableJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    expect(stableJson(undefined)).toBe('undefined');
    expect(toBase64(new Uint8Array([104, 105]))).toBe('aGk=');
    expect(toBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(toBase64(new TextEncoder().encode('hello!'))).toBe('aGVsbG8h');
  });

  it('opens the circuit breaker after N rounds whose calls all failed; a success resets the count', async () => {
    const flaky = probeTool('flaky', { run: async (text) => (text === 'ok' ? { output: 'fine' } : { output: 'bad', exitCode: 1 }) });
    const call = (id: string, text: string) => toolTurn([{ id, name: 'flaky', input: { text: `${text}` } }]);
    const l = loop([call('1', 'f1'), call('2', 'ok'), call('3', 'f2'), call('4', 'f3'), textTurn('never')], [flaky], { circuitBreakerThreshold: 2 });
    const error = await l.fail();
    expect(error.code).toBe('TOOL_ERROR');
    expect(error.details).toEqual({ limit: 'circuitBreakerThreshold', circuitBreakerThreshold: 2 });
    expect(flaky.calls).toEqual(['f1', 'ok', 'f2', 'f3']);
    expect(l.llm.remaining).toBe(1);
    expectValidHistory(l.history);
  });

  it('stops after maxToolRounds and answers the unexecuted calls so history stays valid', async () => {
    const echo = probeTool('echo');
    const l = loop([toolTurn([{ id: '1', name: 'echo', input: { text: 'a' } }]), toolTurn([{ id: '2', name: 'echo', input: { text: 'b' } }, { id: '3', name: 'echo', input: { text: 'c' } }])], [echo], { maxToolRounds: 1 });
    const error = await l.fail();
    expect(error.code).toBe('SESSION_ERROR');
    expect(error.details).toEqual({ limit: 'maxToolRounds', maxToolRounds: 1 });
    expect(echo.calls).toEqual(['a']);
    const last = resultsIn(l.history.at(-1));
    expect(last.map((r) => [r.toolCallId, r.isError])).toEqual([['2', true], ['3', true]]);
    expect(last[0]?.content).toMatch(/not executed: maxToolRounds \(1\)/);
    expectValidHistory(l.history);
    expect(types(l.events).at(-1)).toBe('turn_end');
  });

  it('a provider retry re-emits turn_start with the same turn and drops the abandoned attempt', async () => {
    const echo = probeTool('echo');
    const kept = [{ id: 'k', name: 'echo', input: { text: 'kept' } }];
    const retried: ScriptStep = [
      { type: 'attempt_start', attempt: 1 },
      { type: 'text_delta', text: 'partial ' },
      ...callEvents([{ id: 'lost', name: 'echo', input: { text: 'lost' } }]),
      { type: 'attempt_start', attempt: 2, retryReason: 'stream interrupted' },
      { type: 'text_delta', text: 'again' },
      ...callEvents(kept),
      { type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 1, outputTokens: 1 }, content: callContent(kept, 'again') },
    ];
    const l = loop([retried, textTurn('end')], [echo]);
    await l.run();
    expect(echo.calls).toEqual(['kept']);
    const starts = l.events.filter((e) => e.type === 'turn_start');
    expect(starts.map((e) => [e.turn, e.payload['attempt']])).toEqual([[1, 1], [1, 2], [2, 1]]);
    expect(starts[1]?.payload).toMatchObject({ retry: true, reason: 'stream interrupted' });
    expect(l.events.filter((e) => e.type === 'tool_start').map((e) => e.toolId)).toEqual(['k']);
    expect(l.history[1]).toEqual({ role: 'assistant', content: callContent(kept, 'again') });
  });

  it('invalid JSON arguments become an error result the model can recover from; the tool never runs', async () => {
    const echo = probeTool('echo');
    const l = loop(
      [
        [{ type: 'attempt_start', attempt: 1 }, ...callEvents([{ id: 'bad', name: 'echo', raw: '{"text": "unterminated' }]), { type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 1, outputTokens: 1 }, content: callContent([{ id: 'bad', name: 'echo', input: {} }]) }],
        textTurn('recovered'),
      ],
      [echo],
    );
    expect((await l.run()).text).toBe('recovered');
    expect(echo.calls).toEqual([]);
    const [result] = resultsIn(l.llm.requests[1]?.messages.at(-1));
    expect(result).toMatchObject({ toolCallId: 'bad', isError: true });
    expect(result?.content).toMatch(/invalid JSON in the arguments of echo: \{"text": "unterminated/);
    expect(l.events.filter((e) => e.toolId === 'bad').map((e) => e.type)).toEqual(['tool_input_delta', 'tool_start', 'tool_end']);
  });

  it('a 16-wide read-only group fans out without piling listeners on the run signal', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    const allStarted = deferred();
    let started = 0;
    const wide: AnyTool = {
      name: 'wide',
      description: 'wide',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      capabilities: () => ({ readOnly: true, idempotent: true, cancellationSafe: true, maxParallelism: 16 }),
      execute: async (args: { text: string }) => {
        started += 1;
        if (started === 16) allStarted.resolve();
        await allStarted.promise;
        return { output: args.text };
      },
    };
    const calls = Array.from({ length: 16 }, (_, i) => ({ id: `w${i}`, name: 'wide', input: { text: String(i) } }));
    try {
      expect((await loop([toolTurn(calls), textTurn('done')], [wide]).run()).toolCallsCount).toBe(16);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(started).toBe(16);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('runs read-only calls concurrently (both start before either finishes) and mutating calls in order', async () => {
    const started: string[] = [];
    const bothStarted = deferred();
    const look = probeTool('look', {
      readOnly: true,
      run: async (text) => {
        started.push(text);
        if (started.length === 2) bothStarted.resolve();
        // Neither call can finish until the other has started: a serial runner would deadlock.
        await bothStarted.promise;
        return { output: text };
      },
    });
    const order: string[] = [];
    const gate = deferred();
    const change = probeTool('change', {
      run: async (text) => {
        order.push(`start ${text}`);
        if (text === 'first') await Promise.race([gate.promise, new Promise((r) => setTimeout(r, 30))]);
        order.push(`end ${text}`);
        return { output: text };
      },
    });
    const l = loop(
      [
        toolTurn([
          { id: 'r1', name: 'look', input: { text: 'a' } },
          { id: 'r2', name: 'look', input: { text: 'b' } },
          { id: 'w1', name: 'change', input: { text: 'first' } },
          { id: 'w2', name: 'change', input: { text: 'second' } },
        ]),
        textTurn('done'),
      ],
      [look, change],
    );
    await l.run();
    expect(started.sort()).toEqual(['a', 'b']);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(resultsIn(l.llm.requests[1]?.messages.at(-1)).map((r) => r.toolCallId)).toEqual(['r1', 'r2', 'w1', 'w2']);
  });

  it('cancellation during a tool ends the loop with the cancelled error and a valid history', async () => {
    const running = deferred();
    const slow = probeTool('slow', {
      run: async (_text, signal) => {
        running.resolve();
        await aborted(signal);
        return { output: 'stopped', exitCode: 1 };
      },
    });
    const l = loop([toolTurn([{ id: 's1', name: 'slow', input: { text: 'x' } }]), textTurn('never')], [slow]);
    const failing = l.fail();
    await running.promise;
    l.controller.abort(new Error('user pressed stop'));
    const error = await failing;
    expect(error.code).toBe('SESSION_ERROR');
    expect(error.details).toEqual({ cancelled: true });
    expect(error.message).toBe('run cancelled: user pressed stop');
    expect(l.llm.remaining).toBe(1);
    expect(resultsIn(l.history.at(-1))[0]).toMatchObject({ toolCallId: 's1', isError: true });
    expectValidHistory(l.history);
  });

  it('cancellation while the model streams ends the loop with the cancelled error', async () => {
    const l = loop(
      [
        async function* (_request, options) {
          yield { type: 'attempt_start', attempt: 1 } as const;
          await aborted(options!.abortSignal!);
          throw new Error('socket closed');
        },
      ],
      [],
    );
    const failing = l.fail();
    await new Promise((r) => setTimeout(r, 5));
    l.controller.abort('stop');
    expect(await failing).toMatchObject({ code: 'SESSION_ERROR', details: { cancelled: true }, message: 'run cancelled: stop' });
  });

  it('a model failure is an LLM_ERROR; a stream without message_end too', async () => {
    const broken = loop([() => { throw new CodeError('LLM_ERROR', 'overloaded', { details: { status: 529 } }); }], []);
    expect(await broken.fail()).toMatchObject({ code: 'LLM_ERROR', details: { status: 529 } });
    const truncated = loop([[{ type: 'attempt_start', attempt: 1 }, { type: 'text_delta', text: 'half' }]], []);
    expect(await truncated.fail()).toMatchObject({ code: 'LLM_ERROR', details: { turn: 1 } });
  });

  it('streams reasoning, passes maxOutputTokens / llmApiTimeoutMs, and returns tool images to the model', async () => {
    const shot = probeTool('shot', { run: async () => ({ output: 'captured', attachments: [{ mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) }, { mediaType: 'text/plain', data: new Uint8Array([65]) }] }) });
    let timeoutMs: number | undefined;
    const l = loop(
      [
        (_request, options) => {
          timeoutMs = options?.timeoutMs;
          return [{ type: 'attempt_start', attempt: 1 }, { type: 'reasoning_delta', text: 'thinking' }, ...toolTurn([{ id: 'i', name: 'shot', input: { text: 'x' } }]).slice(1)];
        },
        textTurn('seen', { inputTokens: 3, outputTokens: 2, cacheReadTokens: 7, cacheWriteTokens: 1 }),
      ],
      [shot],
      { maxOutputTokens: 123, llmApiTimeoutMs: 4567 },
    );
    await l.run();
    // Every model call's usage reaches the session's usage sink (the loop keeps no totals of its own).
    expect(l.usages).toEqual([{ inputTokens: 10, outputTokens: 5 }, { inputTokens: 3, outputTokens: 2, cacheReadTokens: 7, cacheWriteTokens: 1 }]);
    expect(l.llm.requests[0]?.maxTokens).toBe(123);
    expect(timeoutMs).toBe(4567);
    expect(l.events.find((e) => e.type === 'reasoning_delta')).toMatchObject({ text: 'thinking', payload: { turn: 1 } });
    expect(resultsIn(l.llm.requests[1]?.messages.at(-1))[0]).toEqual({ type: 'tool_result', toolCallId: 'i', content: 'captured', isError: false, images: [{ mediaType: 'image/png', data: 'AQID' }] });
  });

  it('BUDGET_EXHAUSTED mid-round: calls that ran report their results, the rest "not executed", nothing keeps running', async () => {
    const budget = new BudgetGuard({ maxToolCalls: 2 });
    const release = deferred();
    let finished = 0;
    const look = probeTool('look', {
      readOnly: true,
      run: async (text) => {
        if (text === 'slow') await release.promise;
        finished += 1;
        return { output: `saw ${text}` };
      },
    });
    const l = loop([toolTurn([{ id: 'a', name: 'look', input: { text: 'slow' } }, { id: 'b', name: 'look', input: { text: 'fast' } }, { id: 'c', name: 'look', input: { text: 'third' } }])], [look], {}, budget);
    const failing = l.fail();
    await new Promise((r) => setTimeout(r, 20));
    release.resolve();
    const error = await failing;
    expect(error.code).toBe('BUDGET_EXHAUSTED');
    // The rejection came after the slow call had settled.
    expect(finished).toBe(2);
    const results = resultsIn(l.history.at(-1));
    expect(results.map((r) => [r.toolCallId, r.content])).toEqual([
      ['a', 'saw slow'],
      ['b', 'saw fast'],
      ['c', expect.stringMatching(/^not executed: tool_calls budget exhausted/)],
    ]);
    expectValidHistory(l.history);
  });
});
