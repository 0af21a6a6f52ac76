// SSE fan-out benchmark (apps/server): 50 sessions streaming at once through ONE server process.
// The server runs as a child process (apps/server/test/fixtures/serve-child.ts, the same one the
// two-process test uses) over a FileSessionStore; this process runs the scripted model server and
// the 50 SSE clients. Each run is one model answer of CHUNKS text deltas, so every run records
// CHUNKS + ~5 events.
// Measures: events per second delivered to all clients together (first POST to last `end`), and
// the live delivery latency of each event recorded while its client's stream was open (client
// receive time minus the event's `timestamp_ms`, set when the run recorded it): p50 / p99 / max.
// Events recorded before a stream opened are delivered as catch-up and counted in events/s only.
// Reference: the same 50 concurrent runs consumed in-process through `session.stream()` (no HTTP,
// no SSE, no store), as the ratio of the server's events/s to it.
// Then the browser UI (bench/ui-bundle-measure.ts): bundle bytes and gzip, first contentful paint
// and session-list time in headless chromium, shipped (preact/compat) against a react-dom build.
//
// Run: node --conditions=@a3s-lab/source --import tsx bench/server-sse.bench.ts
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { readSseEvents } from '../apps/server/src/index.js';
import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse } from '../packages/testing/src/index.js';
import { measureUiBundle } from './ui-bundle-measure.js';

const SESSIONS = 50;
const CHUNKS = 200;
const TOKEN = 'bench-token-0123456789abcdefghijkl';

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-sse-bench-')));
const root = join(dir, 'root');
mkdirSync(join(root, 'repo'), { recursive: true });
const model = await startScriptedModelServer({ scenario: () => textResponse(Array.from({ length: CHUNKS }, (_, i) => `tok${i} `)) });
const acl = `default_model = "anthropic/claude-test"\nproviders "anthropic" {\n  api_key = "sk-ant-test-key-000000"\n  base_url = "${model.anthropicBaseUrl}"\n  models "claude-test" { tool_call = true }\n}\n`;
const child = spawn(process.execPath, ['--conditions=@a3s-lab/source', '--import', 'tsx', join('apps', 'server', 'test', 'fixtures', 'serve-child.ts'), acl, root, join(dir, 'state'), TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)}`)));
  });
  const url = (JSON.parse(line) as { url: string }).url;
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  async function fanOut(): Promise<{ events: number; seconds: number; latencies: number[] }> {
    const ids = await Promise.all(Array.from({ length: SESSIONS }, () => post<{ id: string }>('/api/sessions', { workspace: join(root, 'repo') }).then((s) => s.id)));
    const latencies: number[] = [];
    let events = 0;
    const start = performance.now();
    await Promise.all(
      ids.map(async (id) => {
        const run = await post<{ id: string }>(`/api/sessions/${id}/runs`, { prompt: 'stream' });
        const response = await fetch(`${url}/api/sessions/${id}/runs/${run.id}/stream`, { headers });
        if (response.body === null) throw new Error('no body');
        // Events recorded before the stream was open are catch-up, not live delivery.
        const openedAt = Date.now();
        for await (const message of readSseEvents(response.body)) {
          if (message.event === 'end') {
            if (!message.data.includes('"completed"')) throw new Error(`run ended ${message.data}`);
            break;
          }
          const received = Date.now();
          const event = JSON.parse(message.data) as { metadata?: { timestamp_ms?: number } };
          const recordedAt = event.metadata?.timestamp_ms ?? received;
          if (recordedAt >= openedAt) latencies.push(received - recordedAt);
          events += 1;
        }
      }),
    );
    return { events, seconds: (performance.now() - start) / 1000, latencies };
  }

  async function direct(): Promise<{ events: number; seconds: number }> {
    const agent = await Agent.create(acl);
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => agent.sessionAsync(join(root, 'repo'))));
    let events = 0;
    const start = performance.now();
    await Promise.all(
      sessions.map(async (session) => {
        for await (const _event of await session.stream('stream')) events += 1;
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    await agent.close();
    return { events, seconds };
  }

  await fanOut(); // warm-up (JIT, connections, store directory)
  const measured = await fanOut();
  await direct();
  const reference = await direct();
  const rate = measured.events / measured.seconds;
  const referenceRate = reference.events / reference.seconds;
  console.log(`${SESSIONS} concurrent sessions, ${CHUNKS} text deltas per run, ${measured.events} events delivered over SSE by one server process`);
  console.log(`SSE fan-out: ${Math.round(rate)} events/s (direct in-process session.stream(): ${Math.round(referenceRate)} events/s, ratio ${(rate / referenceRate).toFixed(2)}x)`);
  console.log(`live delivery latency (${measured.latencies.length} events recorded while their stream was open): p50 ${percentile(measured.latencies, 50)} ms, p99 ${percentile(measured.latencies, 99)} ms, max ${percentile(measured.latencies, 100)} ms`);
  // The browser UI against the same host, its store now holding the sessions above.
  await measureUiBundle(url, TOKEN);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await model.close();
  rmSync(dir, { recursive: true, force: true });
}
