// Lifecycle races and history validity through the public SDK, over both wire protocols: a retry
// after partial text, a stream consumer that walks away mid-confirmation, close during a stream,
// cancellation during a compaction, and the conversation the provider sees after each failure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPACTION_SYSTEM_PROMPT } from '@a3s-lab/code-runtime';
import { errorResponse, hangResponse, systemPromptOf, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { CodeError } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness, Protocol } from './harness.js';

/**
 * Problems of a recorded model request as its provider would see them: consecutive messages of
 * one role (Anthropic), a tool call without its result right after it, a result without a call.
 */
function conversationProblems(protocol: Protocol, request: RecordedRequest): string[] {
  const problems: string[] = [];
  const body = request.body as { messages: { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
  const messages = body.messages.filter((m) => m.role !== 'system');
  if (protocol === 'anthropic') {
    messages.forEach((message, i) => {
      const blocks = Array.isArray(message.content) ? (message.content as { type: string; id?: string; tool_use_id?: string }[]) : [];
      if (i > 0 && messages[i - 1]!.role === message.role) problems.push(`messages ${i - 1} and ${i} are both ${message.role}`);
      const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
      if (calls.length === 0) return;
      const next = messages[i + 1];
      const answered = new Set(Array.isArray(next?.content) ? (next.content as { type: string; tool_use_id?: string }[]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
      for (const id of calls) if (!answered.has(id)) problems.push(`tool_use ${id} of message ${i} has no tool_result in the next message`);
    });
  } else {
    messages.forEach((message, i) => {
      for (const call of message.tool_calls ?? []) {
        const answered = messages.slice(i + 1).findIndex((m) => m.role !== 'tool');
        const results = messages.slice(i + 1, answered === -1 ? undefined : i + 1 + answered);
        if (!results.some((m) => m.tool_call_id === call.id)) problems.push(`tool call ${call.id} of message ${i} has no tool message after it`);
      }
      if (message.role === 'tool' && messages[i - 1]?.role !== 'tool' && messages[i - 1]?.tool_calls === undefined) problems.push(`tool message ${i} follows no tool call`);
    });
  }
  return problems;
}

const isSummaryRequest = (request: RecordedRequest): boolean => systemPromptOf(request).startsWith(COMPACTION_SYSTEM_PROMPT.slice(0, 60));

describe.each(PROTOCOLS)('lifecycle over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('a retry after partial text: send returns only the retried text, once, and the history holds it once', async () => {
    h = await startHarness(protocol, [textResponse(['Hello ', 'wor', 'ld, lost'], { streamError: { afterEvents: 4 } }), textResponse(['Hello ', 'world.'])]);
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.send('greet');
    expect(result.text).toBe('Hello world.');
    expect(h.server.requests).toHaveLength(2);
    const assistant = session.history().filter((m) => m.role === 'assistant');
    expect(assistant).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Hello world.' }] }]);
    // The next request carries the answer once.
    await h.server.setScenario([textResponse('again')]);
    await session.send('and again');
    expect(JSON.stringify(h.server.requests.at(-1)!.body).match(/Hello world\./g)).toHaveLength(1);
    expect(h.server.errors).toEqual([]);
  });

  it('turn_end and agent_end report usage with the same field names; the turns add up to the run', async () => {
    h = await startHarness(protocol, [
      toolCallResponse('ls', {}, { usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 5 } }),
      textResponse('done', { usage: { inputTokens: 120, outputTokens: 7 } }),
    ]);
    const session = await h.agent.sessionAsync(h.dir);
    const events: AgentEvent[] = [];
    for await (const event of await session.stream('list')) events.push(event);
    const turnUsages = events.filter((e) => e.type === 'turn_end').map((e) => e.payload['usage'] as Record<string, number>);
    const runUsage = events.find((e) => e.type === 'agent_end')!.payload['usage'] as Record<string, number>;
    const keys = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'prompt_tokens', 'completion_tokens', 'total_tokens'].sort();
    expect(Object.keys(runUsage).sort()).toEqual(keys);
    for (const usage of turnUsages) expect(Object.keys(usage).sort()).toEqual(keys);
    for (const key of keys) expect(turnUsages.reduce((sum, u) => sum + u[key]!, 0), key).toBe(runUsage[key]);
    expect(runUsage).toMatchObject({ input_tokens: 220, output_tokens: 17, cache_read_tokens: 5, prompt_tokens: 220, completion_tokens: 17, total_tokens: 237 });
  });

  it('a consumer that walks away mid-confirmation cancels the run: nothing pending, the tool never ran, the next send is valid', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo ran > ran.txt' }), textResponse('fresh start')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 60_000 } });
    const stream = await session.stream('run it');
    for await (const event of stream) if (event.type === 'confirmation_required') break;
    const error = await stream.result.catch((e: unknown) => e);
    expect(CodeError.hasCode(error, 'SESSION_ERROR') && error.details['cancelled']).toBe(true);
    expect(await session.pendingConfirmations()).toEqual([]);
    expect(existsSync(join(h.dir, 'ran.txt'))).toBe(false);
    const [run] = await session.runs();
    expect(run?.status).toBe('cancelled');
    expect((await session.send('next')).text).toBe('fresh start');
    expect(conversationProblems(protocol, h.server.requests.at(-1)!)).toEqual([]);
  });

  it('close during a stream ends the stream with an error event, then done; later calls are SESSION_CLOSED', async () => {
    h = await startHarness(protocol, [textResponse(['a', 'b', 'c', 'd'], { chunkDelayMs: 2_000 })]);
    const session = await h.agent.sessionAsync(h.dir);
    const stream = await session.stream('slow');
    const first = await stream.next();
    expect(first.value?.type).toBe('agent_start');
    const closing = session.closeAsync();
    const rest: AgentEvent[] = [];
    for (let next = await stream.next(); next.done !== true; next = await stream.next()) rest.push(next.value);
    await closing;
    expect(rest.at(-1)).toMatchObject({ type: 'error', payload: { details: { cancelled: true } } });
    const error = await session.send('after').catch((e: unknown) => e);
    expect(CodeError.hasCode(error, 'SESSION_CLOSED')).toBe(true);
  });

  it('cancel during a compaction: the run is cancelled, admission is released, the conversation is unchanged', async () => {
    let hung = false;
    h = await startHarness(protocol, (request): ScriptedResponse => {
      if (isSummaryRequest(request)) {
        hung = true;
        return hangResponse();
      }
      return textResponse('x'.repeat(4_000));
    });
    const session = await h.agent.sessionAsync(h.dir, { autoCompact: true, maxContextTokens: 3_000 });
    // The first request cannot be compacted (nothing before the prompt); the second one can.
    await session.send('one');
    const before = session.history();
    const running = session.send('two').catch((e: unknown) => e);
    for (let i = 0; i < 1_000 && !hung; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hung).toBe(true);
    await session.cancelAsync();
    const error = await running;
    expect(CodeError.hasCode(error, 'SESSION_ERROR') && error.details['cancelled']).toBe(true);
    expect(session.history()).toEqual(before);
    await h.server.setScenario([textResponse('short')]);
    const retried = await session.send('short please').catch((e: unknown) => e);
    expect(CodeError.isInstance(retried) && retried.code === 'SESSION_BUSY').toBe(false);
  });

  it('after a model failure mid-run, the next request is a valid conversation (results answered, roles alternate)', async () => {
    h = await startHarness(protocol, [toolCallResponse('ls', {}), errorResponse(400, { message: 'bad request', shouldRetry: false }), textResponse('recovered')]);
    const session = await h.agent.sessionAsync(h.dir);
    const failed = await session.send('list then fail').catch((e: unknown) => e);
    expect(CodeError.hasCode(failed, 'LLM_ERROR')).toBe(true);
    expect((await session.send('try again')).text).toBe('recovered');
    expect(conversationProblems(protocol, h.server.requests.at(-1)!)).toEqual([]);
  });
});
