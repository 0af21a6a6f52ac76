// Shared set-up of the OpenTelemetry tests: a scripted model server, an agent whose spans go to
// an in-memory exporter (the SDK's SimpleSpanProcessor), a workspace with a plain file and a file
// holding a secret, and the AsyncLocalStorage context manager a NodeSDK host registers.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { startScriptedModelServer } from '@a3s-lab/code-testing';
import type { Scenario, ScriptedModelServer } from '@a3s-lab/code-testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { Agent } from '../src/index.js';
import type { AgentCreateOptions } from '../src/index.js';
import { aclFor } from './harness.js';

export const SECRET = 'sk-live-very-secret-000111222';
export const FILE_TEXT = 'the quick brown fox jumps over the lazy dog';

/** What the running test uses. */
export const otel = {
  server: undefined as ScriptedModelServer | undefined,
  agent: undefined as Agent | undefined,
  dir: '',
  exporter: new InMemorySpanExporter(),
  provider: undefined as unknown as TracerProvider,
};

/** Registers the context manager and the per-test cleanup. Call once at the top of a test file. */
export function installTelemetryHooks(): void {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    manager.enable();
    context.setGlobalContextManager(manager);
  });
  afterAll(() => {
    context.disable();
  });
  afterEach(async () => {
    await otel.agent?.close();
    await otel.server?.close();
    otel.agent = undefined;
    otel.server = undefined;
    if (otel.dir !== '') rmSync(otel.dir, { recursive: true, force: true });
    otel.dir = '';
  });
}

/** A server playing `scenario`, and an agent on it with `telemetry.tracerProvider` set. */
export async function startTraced(scenario: Scenario, options: AgentCreateOptions = {}, aclExtra = ''): Promise<Agent> {
  otel.server = await startScriptedModelServer({ scenario });
  otel.dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-otel-')));
  writeFileSync(join(otel.dir, 'a.txt'), `${FILE_TEXT}\n`);
  writeFileSync(join(otel.dir, 'secret.txt'), `token=${SECRET}\n`);
  otel.exporter = new InMemorySpanExporter();
  otel.provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: otel.exporter })] });
  otel.agent = await Agent.create(aclFor(otel.server, 'anthropic', aclExtra), { env: { DEPLOY_API_KEY: SECRET }, telemetry: { tracerProvider: otel.provider }, ...options });
  return otel.agent;
}

export const spans = (): ReadableSpan[] => otel.exporter.getFinishedSpans();
export const named = (prefix: string): ReadableSpan[] => spans().filter((s) => s.name.startsWith(prefix));
export const one = (name: string): ReadableSpan => {
  const found = spans().filter((s) => s.name === name);
  expect(found, `${name} in ${spans().map((s) => s.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
export const idOf = (span: ReadableSpan): string => span.spanContext().spanId;
/** Every name, attribute, event and status, as one text to search for content. */
export const everyText = (): string => JSON.stringify(spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
