// `a3s-code run` exports its spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (issue 33): a local receiver on 127.0.0.1 gets the run's invoke_agent, chat and execute_tool
// spans, flushed before `main` returns.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import { otlpTracesUrl } from '../src/otlp-telemetry.js';
import { cleanEnv, runMain, scriptedRunFixture, writeWorkspaceConfig } from './cli-harness.js';

interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

let receiver: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (receiver === undefined ? resolve() : receiver.close(() => resolve())));
  receiver = undefined;
});

/** An OTLP/HTTP receiver that records every request and answers 200 `{}`. */
async function startReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', contentType: String(request.headers['content-type'] ?? ''), body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, received };
}

type Json = Record<string, unknown>;
function spanNames(received: readonly Received[]): string[] {
  return received.flatMap((r) =>
    ((JSON.parse(r.body) as Json)['resourceSpans'] as Json[]).flatMap((rs) => (rs['scopeSpans'] as Json[]).flatMap((ss) => (ss['spans'] as Json[]).map((s) => String(s['name'])))),
  );
}

describe('OTLP/HTTP export of the CLI', () => {
  const fixture = scriptedRunFixture();

  it('sends the run spans to a local receiver when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const ws = fixture.tempDir('a3s-cli-otlp-', { 'README.md': '# otlp\n' });
    const home = fixture.tempDir('a3s-cli-home-');
    writeWorkspaceConfig(ws, await fixture.start([toolCallResponse('ls', {}), textResponse('Listed.')]), home);
    const { url, received } = await startReceiver();
    const result = await runMain(['run', 'list the files', '--workspace', ws, '--yes'], { env: cleanEnv(home, { OTEL_EXPORTER_OTLP_ENDPOINT: url }), cwd: ws });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Listed.\n');
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json'))).toBe(true);
    expect(spanNames(received)).toEqual(expect.arrayContaining(['invoke_agent a3s-code', 'chat claude-test', 'execute_tool ls']));
  });

  it('exports nothing without the variables', async () => {
    const ws = fixture.tempDir('a3s-cli-otlp-', { 'README.md': '# otlp\n' });
    const home = fixture.tempDir('a3s-cli-home-');
    writeWorkspaceConfig(ws, await fixture.start([textResponse('Quiet.')]), home);
    const { received } = await startReceiver();
    const env = cleanEnv(home);
    delete env['OTEL_EXPORTER_OTLP_ENDPOINT'];
    delete env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
    const result = await runMain(['run', 'hi', '--workspace', ws], { env, cwd: ws });
    expect(result.code, result.stderr).toBe(0);
    expect(received).toEqual([]);
  });

  it('reads the endpoint variables the OpenTelemetry way', () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toBe('http://127.0.0.1:4318/v1/traces');
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' })).toBe('http://b:4318/custom');
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });
});
