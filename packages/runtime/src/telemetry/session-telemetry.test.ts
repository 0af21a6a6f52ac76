import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvocationKernel, ToolRegistry } from '@a3s-lab/code-core/kernel';
import { isTraceparent, traceparentContext } from './traceparent.js';
import { loadOtelApi } from './otel-api.js';
import { mcpServerOf } from './gen-ai-attributes.js';
import { DefaultSecurityProvider } from '@a3s-lab/code-core';
import { MemoryWorkspaceBackend } from '@a3s-lab/code-core/testing';
import type { TelemetryOptions, Tool } from '@a3s-lab/code-core';
import { SessionTelemetry } from './session-telemetry.js';

const echo: Tool = {
  name: 'mcp__docs__search',
  description: 'an MCP tool',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async () => ({ output: 'found' }),
};

function telemetryOf(options: TelemetryOptions | undefined): SessionTelemetry | null {
  return SessionTelemetry.create(options, { sessionId: 's1', agentName: 'a3s-code', provider: 'openai', model: 'gpt-test', security: new DefaultSecurityProvider() });
}

function kernelWith(telemetry: SessionTelemetry | null): InvocationKernel {
  return new InvocationKernel({ registry: new ToolRegistry([echo]), workspace: new MemoryWorkspaceBackend(), sessionId: 's1', emit: () => undefined, telemetry });
}

// The SDK loads the API in Agent.create / sessionAsync when something can record; here, by hand.
beforeAll(async () => {
  await loadOtelApi();
});

describe('SessionTelemetry', () => {
  it('enabled: false is no telemetry at all', () => {
    expect(telemetryOf({ enabled: false })).toBeNull();
  });

  it('without any provider registered, the kernel seam answers null: no span, no metric', async () => {
    const telemetry = telemetryOf({})!;
    telemetry.startRun('run_1', 'send');
    expect(telemetry.startCall({ toolId: 't1', toolName: 'ls', origin: 'agent', parentToolId: undefined, startedAtMs: Date.now() }, null)).toBeNull();
    expect((await kernelWith(telemetry).invoke({ toolName: 'mcp__docs__search', args: {}, origin: 'agent' })).exitCode).toBe(0);
  });

  it('an MCP tool span names its server and is an extension tool', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = telemetryOf({ tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }) })!;
    const run = telemetry.startRun('run_1', 'send');
    await kernelWith(telemetry).invoke({ toolName: 'mcp__docs__search', args: {}, origin: 'agent' });
    run.end('completed', { inputTokens: 1, outputTokens: 2 });
    const [call, root] = exporter.getFinishedSpans();
    expect(call!.name).toBe('execute_tool mcp__docs__search');
    expect(call!.attributes).toMatchObject({ 'gen_ai.tool.type': 'extension', 'a3s_code.mcp.server': 'docs', 'a3s_code.tool.origin': 'agent' });
    expect(call!.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(root!.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 2, 'a3s_code.run.status': 'completed' });
  });

  it('a nested call whose parent is not traced is not traced either', () => {
    const telemetry = telemetryOf({ tracerProvider: new TracerProvider() })!;
    telemetry.startRun('run_1', 'send');
    expect(telemetry.startCall({ toolId: 't1.1', toolName: 'ls', origin: 'nested', parentToolId: 't1', startedAtMs: Date.now() }, null)).toBeNull();
  });
});

describe('OTEL_SEMCONV_STABILITY_OPT_IN', () => {
  it('adds the v1.36 gen_ai.system unless gen_ai_latest_experimental is opted in', () => {
    const saved = process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
    const runAttributes = (): Record<string, unknown> => {
      const exporter = new InMemorySpanExporter();
      const telemetry = telemetryOf({ tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }) })!;
      telemetry.startRun('run_1', 'send').end('completed', { inputTokens: 0, outputTokens: 0 });
      return exporter.getFinishedSpans()[0]!.attributes;
    };
    try {
      delete process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
      expect(runAttributes()).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.system': 'openai' });
      process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = 'http, gen_ai_latest_experimental';
      const latest = runAttributes();
      expect(latest['gen_ai.provider.name']).toBe('openai');
      expect(latest).not.toHaveProperty('gen_ai.system');
    } finally {
      if (saved === undefined) delete process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
      else process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = saved;
    }
  });
});

describe('traceparent and MCP names', () => {
  it('parses W3C traceparent values and refuses malformed ones', () => {
    expect(isTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')).toBe(true);
    for (const bad of ['', 'nope', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', '00-00000000000000000000000000000000-b7ad6b7169203331-01', '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01', '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01']) {
      expect(isTraceparent(bad), bad).toBe(false);
    }
    expect(traceparentContext(undefined)).toBeUndefined();
    expect(traceparentContext('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')).toBeDefined();
  });

  it('reads the server of mcp__<server>__<tool>', () => {
    expect(mcpServerOf('mcp__github__create_issue')).toBe('github');
    expect(mcpServerOf('read')).toBeUndefined();
    expect(mcpServerOf('mcp____x')).toBeUndefined();
  });
});
