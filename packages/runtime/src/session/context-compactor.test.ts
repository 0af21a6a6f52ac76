import { Conversation } from './conversation.js';
import { describe, expect, it } from 'vitest';
import { FakeLlm, makeSession, probeTool } from '../../test/session-kit.js';
import type { ScriptStep } from '../../test/session-kit.js';
import { CodeError } from '@a3s-lab/code-core';
import type { AgentEvent, LlmMessage, LlmRequest, LlmStreamEvent } from '@a3s-lab/code-core';
import { COMPACTION_SUMMARY_MARKER } from './compaction-plan.js';
import { ContextCompactor, isContextOverflowError } from './context-compactor.js';
import type { CompactionContext } from './context-compactor.js';
import { COMPACTION_SYSTEM_PROMPT } from './summarize-conversation.js';
import { estimateMessagesTokens, estimateRequestTokens } from './token-estimate.js';

const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const bulky = (id: string): LlmMessage[] => [
  { role: 'assistant', content: [{ type: 'tool_call', id, name: 'read', input: { file_path: `${id}.ts` } }] },
  { role: 'user', content: [{ type: 'tool_result', toolCallId: id, content: `line of ${id}\n`.repeat(60), isError: false }] },
];

/** A conversation of `rounds` tool rounds (about 200 tokens each) after one prompt. */
function conversation(rounds: number): LlmMessage[] {
  const history = [user('refactor the storage layer')];
  for (let i = 0; i < rounds; i += 1) history.push(...bulky(`t${i}`));
  return history;
}

/** A text answer whose usage reports exactly our raw estimate of the request (calibration 1). */
function answer(text: string, request?: LlmRequest): LlmStreamEvent[] {
  const inputTokens = request === undefined ? 10 : estimateRequestTokens(request);
  return [
    { type: 'attempt_start', attempt: 1 },
    { type: 'text_delta', text },
    { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens, outputTokens: 20 }, content: [{ type: 'text', text }] },
  ];
}

const summaryStep =
  (text = 'Goals: refactor storage. Files: t*.ts read.'): ScriptStep =>
  (request) => {
    expect(request.system).toBe(COMPACTION_SYSTEM_PROMPT);
    return answer(text);
  };

/** A conversation that mirrors its writes into the test's array, so tests can assert on it. */
class MirroredConversation extends Conversation {
  readonly #mirror: LlmMessage[];
  constructor(mirror: LlmMessage[]) {
    super(mirror);
    this.#mirror = mirror;
  }
  override replace(messages: readonly LlmMessage[]): void {
    super.replace(messages);
    this.#mirror.splice(0, this.#mirror.length, ...messages);
  }
}

function contextOf(history: LlmMessage[], events: AgentEvent[] = [], signal = new AbortController().signal): CompactionContext {
  return { system: 'sys', tools: () => [], conversation: new MirroredConversation(history), emit: (e) => void events.push(e), signal };
}

describe('ContextCompactor.compact', () => {
  it('does nothing below the threshold', async () => {
    const llm = new FakeLlm([]);
    const compactor = new ContextCompactor({ llm, maxContextTokens: 100_000 });
    const history = conversation(4);
    expect(await compactor.compact(contextOf(history), 'threshold')).toBe('not_needed');
    expect(history).toHaveLength(9);
    expect(llm.requests).toHaveLength(0);
  });

  it('above the threshold summarises the prefix with one tool-less call and reports the figures', async () => {
    const llm = new FakeLlm([summaryStep()]);
    const compactor = new ContextCompactor({ llm, maxContextTokens: 3000 });
    const history = conversation(14);
    const original = [...history];
    const events: AgentEvent[] = [];
    const usage: number[] = [];
    expect(await compactor.compact({ ...contextOf(history, events), onUsage: (u) => void usage.push(u.inputTokens) }, 'threshold')).toBe('compacted');

    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0] as LlmRequest;
    expect(request.tools).toEqual([]);
    expect(request.maxTokens).toBe(compactor.summaryMaxTokens);
    expect(request.messages).toHaveLength(1);
    const transcript = (request.messages[0]?.content[0] as { text: string }).text;
    expect(transcript).toContain('refactor the storage layer');
    expect(transcript).toContain('Assistant called read');
    expect(usage).toEqual([10]);

    expect(history[0]?.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(COMPACTION_SUMMARY_MARKER) });
    // The retained suffix is the original tail, intact, and fits the retain budget.
    const retained = history.slice(1);
    expect(original.slice(original.length - retained.length)).toEqual(retained);
    expect(retained[0]?.role).toBe('assistant');
    expect(estimateMessagesTokens(history)).toBeLessThan(0.4 * 3000);

    expect(events).toHaveLength(1);
    const payload = events[0]?.payload as Record<string, number | string>;
    expect(events[0]?.type).toBe('context_compacted');
    expect(payload).toMatchObject({ reason: 'threshold', removed_messages: original.length - retained.length, retained_messages: retained.length, max_context_tokens: 3000 });
    expect(payload['before_tokens']).toBeGreaterThan(0.8 * 3000);
    expect(payload['after_tokens']).toBeLessThan(payload['before_tokens'] as number);
    expect(payload['summary_bytes']).toBe('Goals: refactor storage. Files: t*.ts read.'.length);
  });

  it('rejects a replacement that would not reduce the history, keeps it, and does not retry at once', async () => {
    const llm = new FakeLlm([summaryStep('x'.repeat(40_000))]);
    const compactor = new ContextCompactor({ llm, maxContextTokens: 3000 });
    const history = conversation(14);
    const original = structuredClone(history);
    const events: AgentEvent[] = [];
    expect(await compactor.compact(contextOf(history, events), 'threshold')).toBe('rejected');
    expect(history).toEqual(original);
    expect(events).toEqual([]);
    // Backoff: the same history does not pay for another summary (the fake has no step left).
    expect(await compactor.compact(contextOf(history, events), 'threshold')).toBe('not_needed');
    expect(llm.requests).toHaveLength(1);
    // A context overflow ignores the backoff.
    llm.push(summaryStep());
    expect(await compactor.compact(contextOf(history, events), 'context_overflow')).toBe('compacted');
  });

  it('a failed summary keeps the history and reports failed: true', async () => {
    const llm = new FakeLlm([
      () => {
        throw new CodeError('LLM_ERROR', 'upstream 500', { details: { status: 500 } });
      },
    ]);
    const compactor = new ContextCompactor({ llm, maxContextTokens: 3000 });
    const history = conversation(14);
    const original = structuredClone(history);
    const events: AgentEvent[] = [];
    expect(await compactor.compact(contextOf(history, events), 'threshold')).toBe('failed');
    expect(history).toEqual(original);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context_compacted',
      payload: { failed: true, removed_messages: 0, retained_messages: original.length, summary_bytes: 0, error: { code: 'LLM_ERROR', message: 'upstream 500' } },
    });
    expect(events[0]?.payload['after_tokens']).toBe(events[0]?.payload['before_tokens']);
  });

  it('propagates cancellation during the summary instead of reporting a failure', async () => {
    const controller = new AbortController();
    const llm = new FakeLlm([
      () => {
        controller.abort(new Error('stop'));
        throw new Error('aborted');
      },
    ]);
    const compactor = new ContextCompactor({ llm, maxContextTokens: 3000 });
    const events: AgentEvent[] = [];
    await expect(compactor.compact(contextOf(conversation(14), events, controller.signal), 'threshold')).rejects.toThrow('aborted');
    expect(events).toEqual([]);
  });

  it('calibrates its estimate with the reported usage of the last request', async () => {
    const compactor = new ContextCompactor({ llm: new FakeLlm([]), maxContextTokens: 3000 });
    const history = conversation(4);
    const hook = compactor.forRun(contextOf(history));
    await hook.beforeModelCall();
    const raw = estimateRequestTokens({ system: 'sys', tools: [], messages: history });
    expect(compactor.estimate('sys', [], history)).toBe(raw);
    compactor.observeUsage({ inputTokens: raw, outputTokens: 1, cacheReadTokens: raw });
    expect(compactor.calibration).toBeCloseTo(2, 5);
    expect(compactor.estimate('sys', [], history)).toBe(2 * raw);
    // A usage report with no recorded estimate behind it changes nothing.
    compactor.observeUsage({ inputTokens: 5, outputTokens: 1 });
    expect(compactor.calibration).toBeCloseTo(2, 5);
  });
});

describe('isContextOverflowError', () => {
  it('recognises flagged LLM errors and HTTP 413 only', () => {
    expect(isContextOverflowError(new CodeError('LLM_ERROR', 'too long', { details: { status: 400, contextOverflow: true } }))).toBe(true);
    expect(isContextOverflowError(new CodeError('LLM_ERROR', 'too large', { details: { status: 413 } }))).toBe(true);
    expect(isContextOverflowError(new CodeError('LLM_ERROR', 'prompt is too long', { details: { status: 400 } }))).toBe(false);
    expect(isContextOverflowError(new CodeError('TOOL_ERROR', 'x', { details: { contextOverflow: true } }))).toBe(false);
  });
});

/** A scripted model for a long tool session: tool rounds until `rounds`, then a final answer. Summaries on request. */
function longSessionModel(rounds: number): { llm: FakeLlm; turnRequests: LlmRequest[] } {
  const turnRequests: LlmRequest[] = [];
  let round = 0;
  const step: ScriptStep = (request) => {
    if (request.system === COMPACTION_SYSTEM_PROMPT) return answer(`Goals: read every file. Done so far: ${round} reads.`);
    // The loop passes its live history: copy it, later turns mutate it.
    turnRequests.push(structuredClone({ system: request.system, tools: request.tools, messages: request.messages }));
    const inputTokens = estimateRequestTokens(request);
    if (round >= rounds) return answer('all files read', request);
    round += 1;
    const call = { type: 'tool_call' as const, id: `r${round}`, name: 'dump', input: { text: `f${round}` } };
    return [
      { type: 'attempt_start', attempt: 1 },
      { type: 'tool_call_start', id: call.id, name: 'dump' },
      { type: 'tool_call_end', id: call.id, name: 'dump', input: call.input },
      { type: 'message_end', stopReason: 'tool_use', usage: { inputTokens, outputTokens: 10 }, content: [call] },
    ];
  };
  return { llm: new FakeLlm(Array.from({ length: 200 }, () => step)), turnRequests };
}

const dumpOutput = (text: string): string => `${text}: ${'data '.repeat(250)}`;
const dump = probeTool('dump', { run: async (text) => ({ output: dumpOutput(text) }) });
/** Estimated tokens one tool round of {@link longSessionModel} adds to the history. */
const roundTokens = estimateMessagesTokens([
  { role: 'assistant', content: [{ type: 'tool_call', id: 'r10', name: 'dump', input: { text: 'f10' } }] },
  { role: 'user', content: [{ type: 'tool_result', toolCallId: 'r10', content: dumpOutput('f10'), isError: false }] },
]);

describe('AgentSession with autoCompact', () => {
  it('compacts repeatedly over a long tool run; every model request stays inside the window', async () => {
    const { llm, turnRequests } = longSessionModel(30);
    const window = 3000;
    const { session, events } = makeSession(llm, [dump], { autoCompact: true, maxContextTokens: window, systemPrompt: 'You are a test agent.' });
    const result = await session.send('read every file');
    expect(result.text).toBe('all files read');

    const compactions = events.filter((e) => e.type === 'context_compacted');
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(compactions.every((e) => e.payload['failed'] === undefined && (e.payload['after_tokens'] as number) < (e.payload['before_tokens'] as number))).toBe(true);
    const sizes = turnRequests.map((r) => estimateRequestTokens(r));
    expect(Math.max(...sizes)).toBeLessThan(window);
    // Without compaction the last request would have been far larger than the window.
    expect(30 * roundTokens).toBeGreaterThan(3 * window);

    // The conversation stays valid: summary head, intact tool pairs, and the prompt still in force.
    const history = session.history();
    expect(history[0]?.role).toBe('user');
    const head = history[0]?.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])) ?? [];
    expect(head[0]).toContain(COMPACTION_SUMMARY_MARKER);
    expect(head).toContain('read every file');
    history.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant'));
    // The summarisation calls count as usage of the run.
    expect(result.promptTokens).toBeGreaterThan(sizes.reduce((a, b) => a + b, 0));
  });

  it('leaves the history alone when autoCompact is off', async () => {
    const { llm, turnRequests } = longSessionModel(12);
    const { session, events } = makeSession(llm, [dump], { maxContextTokens: 3000, systemPrompt: 'You are a test agent.' });
    await session.send('read every file');
    expect(events.some((e) => e.type === 'context_compacted')).toBe(false);
    expect(session.history()).toHaveLength(1 + 2 * 12 + 1);
    expect(estimateRequestTokens(turnRequests.at(-1) as LlmRequest)).toBeGreaterThan(3000);
  });

  it('on a context-overflow error compacts once and retries the turn', async () => {
    const history = conversation(6);
    const overflow = (): never => {
      throw new CodeError('LLM_ERROR', 'prompt is too long', { details: { status: 400, contextOverflow: true } });
    };
    const llm = new FakeLlm([overflow, summaryStep(), (request) => answer('fine now', request)]);
    // The window is large, so only the provider's refusal triggers the compaction.
    const { session, events } = makeSession(llm, [], { autoCompact: true, maxContextTokens: 3000, autoCompactThreshold: 1, systemPrompt: 'sys' });
    const result = await session.send({ prompt: 'continue', history });
    expect(result.text).toBe('fine now');
    expect(events.find((e) => e.type === 'context_compacted')?.payload).toMatchObject({ reason: 'context_overflow' });
    expect(events.filter((e) => e.type === 'turn_start').map((e) => e.payload)).toEqual([{ turn: 1, attempt: 1 }, { turn: 1, attempt: 2, retry: true, reason: 'context_overflow' }]);
    expect((llm.requests[2]?.messages.length ?? 0) < history.length).toBe(true);
  });

  it('a second overflow after compacting fails the run without looping', async () => {
    const overflow = (): never => {
      throw new CodeError('LLM_ERROR', 'prompt is too long', { details: { status: 400, contextOverflow: true } });
    };
    const llm = new FakeLlm([overflow, summaryStep(), overflow]);
    const { session } = makeSession(llm, [], { autoCompact: true, maxContextTokens: 3000, autoCompactThreshold: 1, systemPrompt: 'sys' });
    await expect(session.send({ prompt: 'continue', history: conversation(6) })).rejects.toMatchObject({ code: 'CONTEXT_ERROR' });
    expect(llm.remaining).toBe(0);
  });

  it('a failed summary does not fail the run', async () => {
    const { llm } = longSessionModel(0);
    const failing = new FakeLlm([
      () => {
        throw new CodeError('LLM_ERROR', 'summariser down', { details: { status: 503 } });
      },
      (request) => answer('answered anyway', request),
    ]);
    void llm;
    const { session, events } = makeSession(failing, [], { autoCompact: true, maxContextTokens: 3000, systemPrompt: 'sys' });
    const history = conversation(14);
    const result = await session.send({ prompt: 'go on', history });
    expect(result.text).toBe('answered anyway');
    expect(events.find((e) => e.type === 'context_compacted')?.payload).toMatchObject({ failed: true });
    expect(session.history()).toHaveLength(history.length + 2);
  });

  it('when the first model call fails after a compaction, the prompt leaves no trace and the compacted history stays valid', async () => {
    const llm = new FakeLlm([
      summaryStep(),
      () => {
        throw new CodeError('LLM_ERROR', 'bad request', { details: { status: 400 } });
      },
    ]);
    const { session } = makeSession(llm, [], { autoCompact: true, maxContextTokens: 3000, systemPrompt: 'sys' });
    // Install a long conversation that ends with an answer, then fail the next prompt.
    const history = [...conversation(14), { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done' }] }];
    session.restoreState({ ...session.state(), history });
    await expect(session.send('next')).rejects.toMatchObject({ code: 'LLM_ERROR' });
    const after = session.history();
    expect(after.length).toBeLessThan(history.length);
    expect(after.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
    after.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? 'user' : 'assistant'));
  });
});
