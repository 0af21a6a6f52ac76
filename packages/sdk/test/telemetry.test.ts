// OpenTelemetry through the PUBLIC SDK against the scripted model server (issue 33): the span tree
// of a run (`invoke_agent` > `chat` + `execute_tool`), nested program calls under their tool span,
// a subagent's run under its `task` span, error status and `error.type`, content capture off / on
// (redacted), a host span as the parent of a send, the GenAI metrics, and options that are refused.
import { trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { aclFor } from './harness.js';
import { everyText, FILE_TEXT, idOf, installTelemetryHooks, named, one, otel, parentOf, SECRET, spans, startTraced as start } from './telemetry-harness.js';

installTelemetryHooks();

describe('OpenTelemetry spans of a run', () => {
  it('a send with two tool calls: one invoke_agent root, chat and execute_tool children with GenAI attributes', async () => {
    const a = await start([toolCallResponse('read', { file_path: 'a.txt' }), toolCallResponse('ls', {}), textResponse('done')]);
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled' });
    const result = await session.send('look at a.txt');
    const root = one('invoke_agent a3s-code');
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'a3s-code',
      'gen_ai.conversation.id': session.id,
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'a3s_code.run.id': result.runId,
      'a3s_code.run.status': 'completed',
      'gen_ai.usage.input_tokens': result.promptTokens,
      'gen_ai.usage.output_tokens': result.completionTokens,
    });
    const chats = named('chat ');
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(chat.name).toBe('chat claude-test');
      expect(chat.kind).toBe(2); // CLIENT
      expect(parentOf(chat)).toBe(idOf(root));
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-test', 'gen_ai.response.model': 'claude-test', 'a3s_code.generation.purpose': 'turn' });
      expect(chat.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
      expect(chat.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    }
    expect(chats.map((c) => c.attributes['gen_ai.response.finish_reasons'])).toEqual(expect.arrayContaining([['tool_use'], ['end_turn']]));
    const read = one('execute_tool read');
    const ls = one('execute_tool ls');
    for (const tool of [read, ls]) {
      expect(parentOf(tool)).toBe(idOf(root));
      expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.type': 'function', 'a3s_code.tool.origin': 'agent', 'a3s_code.tool.exit_code': 0, 'a3s_code.tool.outcome': 'completed' });
      expect(tool.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
      expect(tool.status.code).toBe(0);
    }
    expect(read.attributes['gen_ai.tool.name']).toBe('read');
    // Content is off by default: no prompt, no file text, no arguments anywhere.
    const text = everyText();
    expect(text).not.toContain('look at a.txt');
    expect(text).not.toContain(FILE_TEXT);
    expect(text).not.toContain('a.txt');
    expect(text).not.toContain('gen_ai.input.messages');
    expect(text).not.toContain('gen_ai.tool.call.arguments');
  });

  it('a program with three nested calls shows them under its execute_tool span', async () => {
    const source = "export default async function run(ctx) { await ctx.read('a.txt'); await ctx.ls('.'); await ctx.glob('*.txt'); return 'ok' }";
    const a = await start([toolCallResponse('program', { type: 'script', language: 'javascript', source, allowed_tools: ['read', 'ls', 'glob'] }), textResponse('done')]);
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled' });
    await session.send('run the program');
    const program = one('execute_tool program');
    expect(program.attributes['a3s_code.tool.exit_code']).toBe(0);
    const nested = spans().filter((s) => s.attributes['a3s_code.tool.origin'] === 'nested');
    expect(nested.map((s) => s.name).sort()).toEqual(['execute_tool glob', 'execute_tool ls', 'execute_tool read']);
    for (const call of nested) {
      expect(parentOf(call)).toBe(idOf(program));
      expect(call.attributes['a3s_code.tool.parent_call_id']).toBe(program.attributes['gen_ai.tool.call.id']);
    }
  });

  it("a task subagent's invoke_agent is a child of the parent's task span", async () => {
    const route = (r: RecordedRequest): ScriptedResponse => {
      const body = JSON.stringify(r.body);
      if (body.includes('Inspect the files')) return textResponse('found a.txt');
      return (r.body as { messages: unknown[] }).messages.length > 1 ? textResponse('delegated') : toolCallResponse('task', { agent: 'explore', description: 'look around', prompt: 'Inspect the files' });
    };
    const a = await start(route);
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled', permissionPolicy: { allow: ['task'], defaultDecision: 'allow' } });
    await session.send('delegate please');
    const task = one('execute_tool task');
    const child = one('invoke_agent explore');
    expect(parentOf(child)).toBe(idOf(task));
    expect(child.spanContext().traceId).toBe(task.spanContext().traceId);
    expect(child.attributes['gen_ai.conversation.id']).toMatch(/\/task_/);
    const childChat = named('chat ').filter((s) => parentOf(s) === idOf(child));
    expect(childChat).toHaveLength(1);
  });

  it('a denied call, a timed-out confirmation and a failed tool have error status and error.type', async () => {
    const a = await start([
      toolCallResponse('write', { file_path: 'x.txt', content: 'x' }),
      toolCallResponse('bash', { command: 'echo hi' }),
      toolCallResponse('read', { file_path: 'missing.txt' }),
      textResponse('done'),
    ]);
    const session = await a.sessionAsync(otel.dir, {
      planningMode: 'disabled',
      circuitBreakerThreshold: 10,
      permissionPolicy: { deny: ['write'], ask: ['bash*'], defaultDecision: 'allow' },
      confirmationPolicy: { defaultTimeoutMs: 100, timeoutAction: 'reject' },
    });
    await session.send('try things');
    const denied = one('execute_tool write');
    expect(denied.attributes).toMatchObject({ 'a3s_code.permission.decision': 'deny', 'error.type': 'permission_denied', 'a3s_code.tool.outcome': 'denied' });
    expect(denied.status).toEqual({ code: 2, message: 'permission_denied' });
    const timedOut = one('execute_tool bash');
    expect(timedOut.attributes).toMatchObject({ 'a3s_code.permission.decision': 'ask', 'a3s_code.confirmation.answer': 'timeout', 'error.type': 'permission_denied' });
    expect(timedOut.attributes['a3s_code.confirmation.wait_ms']).toBeGreaterThanOrEqual(90);
    expect(timedOut.events.map((e) => e.name)).toContain('a3s_code.confirmation');
    expect(timedOut.status.code).toBe(2);
    const failed = one('execute_tool read');
    expect(failed.attributes['error.type']).toBe('not_found');
    expect(failed.attributes['a3s_code.tool.exit_code']).not.toBe(0);
    expect(failed.status.code).toBe(2);
  });

  it('captureContent records prompts and tool output, redacted like events', async () => {
    const a = await start([toolCallResponse('read', { file_path: 'secret.txt' }), textResponse('done')], {}, 'telemetry { capture_content = true }');
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled' });
    await session.send('read secret.txt');
    const read = one('execute_tool read');
    expect(read.attributes['gen_ai.tool.call.arguments']).toContain('secret.txt');
    expect(read.attributes['gen_ai.tool.call.result']).toContain('token=');
    const chats = named('chat ');
    expect(JSON.parse(String(chats[0]!.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'read secret.txt' }] }]);
    expect(JSON.parse(String(chats[0]!.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [expect.objectContaining({ type: 'tool_call', name: 'read', arguments: { file_path: 'secret.txt' } })], finish_reason: 'tool_use' },
    ]);
    const second = JSON.parse(String(chats[1]!.attributes['gen_ai.input.messages'])) as { role: string; parts: { type: string; response?: string }[] }[];
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second[2]!.parts[0]).toMatchObject({ type: 'tool_call_response' });
    expect(second[2]!.parts[0]!.response).toContain('token=');
    expect(JSON.parse(String(chats[0]!.attributes['gen_ai.system_instructions']))[0]).toMatchObject({ type: 'text' });
    expect(everyText()).not.toContain(SECRET);
  });

  it('a host span around session.send() is the parent of the run; a traceparent can be passed instead', async () => {
    const a = await start([textResponse('hello'), textResponse('again')], { telemetry: {} });
    trace.setGlobalTracerProvider(otel.provider);
    try {
      const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled' });
      const host = otel.provider.getTracer('host');
      await host.startActiveSpan('host request', async (span) => {
        await session.send('hi');
        span.end();
      });
      const hostSpan = one('host request');
      const run = named('invoke_agent')[0]!;
      expect(parentOf(run)).toBe(idOf(hostSpan));
      expect(run.spanContext().traceId).toBe(hostSpan.spanContext().traceId);
      otel.exporter.reset();
      await session.send({ prompt: 'again', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
      const second = named('invoke_agent')[0]!;
      expect(second.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
      expect(parentOf(second)).toBe('b7ad6b7169203331');
      await expect(session.send({ prompt: 'x', traceparent: 'nope' })).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    } finally {
      trace.disable();
    }
  });

  it('records gen_ai.client.token.usage, gen_ai.client.operation.duration and tool duration by tool and outcome', async () => {
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const a = await start([toolCallResponse('ls', {}), textResponse('done')]);
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled', telemetry: { meterProvider } });
    await session.send('list');
    await meterProvider.forceFlush();
    const metrics = metricExporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
    const byName = (name: string) => metrics.find((m) => m.descriptor.name === name);
    const tokens = byName('gen_ai.client.token.usage')!;
    expect(tokens.dataPoints.map((p) => p.attributes['gen_ai.token.type']).sort()).toEqual(['input', 'output']);
    expect(tokens.dataPoints[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-test' });
    expect(byName('gen_ai.client.operation.duration')!.descriptor.unit).toBe('s');
    const tool = byName('a3s_code.tool.duration')!;
    expect(tool.dataPoints.map((p) => p.attributes)).toEqual([expect.objectContaining({ 'gen_ai.tool.name': 'ls', 'a3s_code.tool.outcome': 'completed' })]);
    // The tracer provider of the agent still applies: session options merge field by field.
    expect(named('invoke_agent')).toHaveLength(1);
    await meterProvider.shutdown();
  });

  it('enabled: false builds no spans; bad telemetry options are refused with a clear error', async () => {
    const a = await start([textResponse('quiet')]);
    const session = await a.sessionAsync(otel.dir, { planningMode: 'disabled', telemetry: { enabled: false } });
    await session.send('hi');
    expect(spans()).toEqual([]);
    await expect(a.sessionAsync(otel.dir, { telemetry: { tracerProvider: {} as never } })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR', message: expect.stringMatching(/telemetry\.tracerProvider/) });
    await expect(a.sessionAsync(otel.dir, { telemetry: { capture: true } as never })).rejects.toMatchObject({ message: expect.stringMatching(/telemetry\.capture/) });
    await expect(Agent.create(aclFor(otel.server!, 'anthropic'), { telemetry: { meterProvider: 42 as never } })).rejects.toMatchObject({ message: expect.stringMatching(/telemetry\.meterProvider/) });
    await expect(Agent.create(aclFor(otel.server!, 'anthropic', 'telemetry { sample_rate = 1 }'))).rejects.toMatchObject({ message: expect.stringMatching(/sampleRate|sample_rate/) });
  });
});
