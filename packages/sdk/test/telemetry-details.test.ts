// OpenTelemetry details through the PUBLIC SDK (issue 33): retries as `gen_ai.retry` events, a
// failed model call and an exhausted budget with `error.type`, the planning phase as a `plan`
// span, a host-direct call under the host's span, and `generate_object`'s generation under its
// tool span.
import { trace } from '@opentelemetry/api';
import { errorResponse, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../src/index.js';
import { idOf, installTelemetryHooks, named, one, otel, parentOf, startTraced } from './telemetry-harness.js';

installTelemetryHooks();

describe('OpenTelemetry details', () => {
  it('a retried model call is one chat span with a gen_ai.retry event', async () => {
    const agent = await startTraced([errorResponse(529, { retryAfterMs: 10 }), textResponse('recovered')]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'disabled' });
    await session.send('hi');
    const chat = one('chat claude-test');
    expect(chat.events.map((e) => e.name)).toContain('gen_ai.retry');
    expect(chat.events.find((e) => e.name === 'gen_ai.retry')?.attributes).toMatchObject({ 'a3s_code.attempt': 2 });
    expect(chat.status.code).toBe(0);
  });

  it('a failed model call: chat and invoke_agent have error status and error.type', async () => {
    const agent = await startTraced([errorResponse(400, { message: 'bad request' })]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'disabled' });
    await expect(session.send('hi')).rejects.toMatchObject({ code: 'LLM_ERROR' });
    const chat = one('chat claude-test');
    expect(chat.attributes['error.type']).toBe('LLM_ERROR');
    expect(chat.status.code).toBe(2);
    const run = one('invoke_agent a3s-code');
    expect(run.attributes).toMatchObject({ 'error.type': 'LLM_ERROR', 'a3s_code.run.status': 'failed' });
    expect(run.status).toEqual({ code: 2, message: 'LLM_ERROR' });
  });

  it('an exhausted budget: the refused call and the run carry error.type BUDGET_EXHAUSTED', async () => {
    const agent = await startTraced([toolCallResponse('ls', {}), toolCallResponse('glob', { pattern: '*.txt' }), textResponse('never')]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'disabled', budget: { maxToolCalls: 1 } });
    await expect(session.send('list twice')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(one('execute_tool ls').attributes['a3s_code.budget.decision']).toBe('allowed');
    const refused = one('execute_tool glob');
    expect(refused.attributes).toMatchObject({ 'error.type': 'BUDGET_EXHAUSTED', 'a3s_code.budget.decision': 'exhausted' });
    expect(refused.status.code).toBe(2);
    expect(one('invoke_agent a3s-code').attributes['error.type']).toBe('BUDGET_EXHAUSTED');
  });

  it('planning is a plan span under the run, its model call a chat span under it', async () => {
    const agent = await startTraced([toolCallResponse('submit_plan', { steps: ['Look', 'Answer'] }), textResponse('planned and done')]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'enabled' });
    await session.send('Do it');
    const run = one('invoke_agent a3s-code');
    const plan = one('plan');
    expect(parentOf(plan)).toBe(idOf(run));
    const chats = named('chat ');
    expect(chats.filter((c) => parentOf(c) === idOf(plan)).map((c) => c.attributes['a3s_code.generation.purpose'])).toEqual(['planning']);
    expect(chats.filter((c) => parentOf(c) === idOf(run)).map((c) => c.attributes['a3s_code.generation.purpose'])).toEqual(['turn']);
  });

  it("a host-direct call is a child of the host's active span", async () => {
    const agent = await startTraced([]);
    const session = await agent.sessionAsync(otel.dir);
    await otel.provider.getTracer('host').startActiveSpan('host work', async (span) => {
      await session.tool('ls', {});
      span.end();
    });
    const call = one('execute_tool ls');
    expect(call.attributes['a3s_code.tool.origin']).toBe('host-direct');
    expect(parentOf(call)).toBe(idOf(one('host work')));
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it("generate_object's generation is a chat span under its execute_tool span", async () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'number' } } };
    const agent = await startTraced([toolCallResponse('generate_object', { schema, prompt: 'a number', schema_name: 'num' }), toolCallResponse('num', { n: 7 }), textResponse('seven')]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'disabled' });
    await session.send('give me a number');
    const tool = one('execute_tool generate_object');
    expect(tool.attributes['a3s_code.tool.exit_code']).toBe(0);
    const inner = named('chat ').filter((c) => c.attributes['a3s_code.generation.purpose'] === 'generate_object');
    expect(inner).toHaveLength(1);
    expect(parentOf(inner[0]!)).toBe(idOf(tool));
  });

  it('a snapshot keeps only the telemetry switches; the resumed session traces again', async () => {
    const store = new MemorySessionStore();
    const agent = await startTraced([textResponse('first'), textResponse('second')]);
    const session = await agent.sessionAsync(otel.dir, { planningMode: 'disabled', sessionStore: store, telemetry: { captureContent: true } });
    await session.send('one');
    const snapshot = await session.save();
    expect(snapshot.options['telemetry']).toEqual({ captureContent: true });
    await session.closeAsync();
    const resumed = await agent.resumeSessionAsync(session.id, { sessionStore: store });
    await resumed.send('two');
    expect(named('invoke_agent')).toHaveLength(2);
    expect(named('chat ')[1]!.attributes['gen_ai.input.messages']).toEqual(expect.stringContaining('two'));
  });
});
