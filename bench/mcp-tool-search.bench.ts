// MCP tool schemas on demand: bytes of the first model request of a session with 3 MCP servers x
// 40 tools (the fixture's generated tools, ~1 KB of schema each, Streamable HTTP on 127.0.0.1),
// with deferral on (the default: a compact catalogue + `tool_search`) and off
// (`deferMcpTools: false`: every definition), against the same session without MCP servers, on
// both wire protocols; then the request after `tool_search` loads one tool (its full definition
// joins) and the time the first request takes to build (median of 15 sends per side, in-process
// scripted server: mostly loopback HTTP, the same for both sides).
// Target: first request <= 24 KB with deferral on.
//
// Run: node --conditions=@a3s-lab/source --import tsx bench/mcp-tool-search.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '../packages/sdk/src/index.js';
import type { Session, SessionOptions } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse, toolCallResponse } from '../packages/testing/src/index.js';
import type { ScriptedResponse } from '../packages/testing/src/index.js';
import { startFixtureMcpHttpServer } from '../packages/testing/src/mcp/index.js';

const SERVERS = 3;
const TOOLS = 40;
const TARGET = 24 * 1024;
const RUNS = 15;

const queue: ScriptedResponse[] = [];
const server = await startScriptedModelServer({ scenario: () => queue.shift() ?? textResponse('ok') });
const mcp = await startFixtureMcpHttpServer({ catalogTools: TOOLS });
const dir = mkdtempSync(join(tmpdir(), 'a3s-mcp-search-bench-'));
const acl = `default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
providers "openai" {
  api_key = "sk-test-openai-000000"
  base_url = "${server.openaiBaseUrl}"
  models "gpt-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`;
const agent = await Agent.create(acl);

async function open(options: SessionOptions, servers: number): Promise<Session> {
  const session = await agent.sessionAsync(dir, options);
  for (let index = 1; index <= servers; index += 1) await session.addMcp({ name: `gh${index}`, transport: { type: 'streamable-http', url: mcp.url } });
  return session;
}

/** Bytes of the next request the server receives while `run` runs. */
async function nextRequestBytes(run: () => Promise<unknown>): Promise<number> {
  const before = server.requests.length;
  await run();
  return server.requests[before]?.rawBytes.byteLength ?? 0;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  for (const model of ['anthropic/claude-test', 'openai/gpt-test']) {
    const bare = await nextRequestBytes(async () => (await open({ model }, 0)).send('hi'));
    const on = await nextRequestBytes(async () => (await open({ model }, SERVERS)).send('hi'));
    const off = await nextRequestBytes(async () => (await open({ model, deferMcpTools: false }, SERVERS)).send('hi'));
    const loading = await open({ model }, SERVERS);
    queue.push(toolCallResponse('tool_search', { query: 'select:mcp__gh2__list_issues_0' }), textResponse('ok'));
    const before = server.requests.length;
    await loading.send('load one');
    const afterLoad = server.requests[before + 1]?.rawBytes.byteLength ?? 0;
    console.log(`${model}: first request, no MCP ${bare} B; ${SERVERS} servers x ${TOOLS} tools: deferral on ${on} B (${(on / 1024).toFixed(1)} KB, target <= 24 KB -> ${on <= TARGET ? 'met' : 'MISSED'}), off ${off} B (${(off / 1024).toFixed(1)} KB); on/off ${(on / off).toFixed(2)}x; catalogue adds ${on - bare} B; after loading one tool ${afterLoad} B`);
  }
  // Time of a send (request built, sent, answered) with each setting, alternating.
  const on = await open({}, SERVERS);
  const off = await open({ deferMcpTools: false }, SERVERS);
  const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let index = 0; index < RUNS + 3; index += 1) {
    for (const [label, session] of (index % 2 === 0 ? [['on', on], ['off', off]] : [['off', off], ['on', on]]) as ['on' | 'off', Session][]) {
      const start = performance.now();
      await session.send('hi');
      if (index >= 3) times[label].push(performance.now() - start);
    }
  }
  console.log(`send() with ${SERVERS * TOOLS} MCP tools, median of ${RUNS}: deferral on ${median(times.on).toFixed(2)} ms, off ${median(times.off).toFixed(2)} ms (${(median(times.on) / median(times.off)).toFixed(2)}x)`);
} finally {
  await agent.close();
  await mcp.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
