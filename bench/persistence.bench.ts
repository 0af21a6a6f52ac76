// Persistence benchmark (packages/runtime/src/session + packages/local FileSessionStore + packages/sdk).
// Measures, in one run:
// - save and load of a session holding 10,000 run events and 200 messages through
//   FileSessionStore (capture + serialise + temp file + fsync + rename + fsync dir; open + read +
//   parse + validate), against the floor of the same document written and read by hand with
//   node:fs (JSON.stringify + writeFile + fsync + rename; readFile + JSON.parse). Target <= 50 ms each.
// - resume: `agent.resumeSessionAsync()` of that session (load + rebuild), for information.
// - autoSave overhead per operation: the same scripted send() (real HTTP to the scripted model
//   server, one tool call and an answer) with `autoSave: true` on a FileSessionStore against
//   the same session without a store. Target <= 5%.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/persistence.bench.ts
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentEvent, LlmMessage, SessionSnapshotV1 } from '../packages/core/src/index.js';
import { createAgentEvent, SESSION_SNAPSHOT_SCHEMA } from '../packages/core/src/index.js';
import { FileSessionStore } from '../packages/local/src/index.js';
import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse, toolCallResponse } from '../packages/testing/src/index.js';

const EVENTS = 10_000;
const MESSAGES = 200;
const REPEATS = 15;
const SENDS = 40;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** A realistic big session: 200 messages (tool calls and results of ~1 KB) and 10,000 events over 20 runs. */
function bigSnapshot(sessionId: string): SessionSnapshotV1 {
  const conversation: LlmMessage[] = [];
  for (let i = 0; i < MESSAGES / 2; i += 1) {
    conversation.push({ role: 'assistant', content: [{ type: 'text', text: `Reading file ${i}.` }, { type: 'tool_call', id: `call_${i}`, name: 'read', input: { file_path: `src/module${i}.ts` } }] });
    conversation.push({ role: 'user', content: [{ type: 'tool_result', toolCallId: `call_${i}`, content: `export const value${i} = ${i};\n`.repeat(30), isError: false }] });
  }
  const runs = Array.from({ length: 20 }, (_, r) => {
    const id = `run_${r}`;
    const events: AgentEvent[] = [];
    for (let s = 1; s <= EVENTS / 20; s += 1) {
      const meta = { run_id: id, session_id: sessionId, sequence: s, timestamp_ms: 1_700_000_000_000 + s };
      events.push(s % 5 === 0 ? createAgentEvent('tool_end', { tool_id: `t${s}`, tool_name: 'read', exit_code: 0, output: 'x'.repeat(200), duration_ms: 3 }, meta) : createAgentEvent('text_delta', { text: `token ${s} `, turn: 1 }, meta));
    }
    return {
      record: { id, sessionId, status: 'completed' as const, kind: 'send', prompt: `prompt ${r}`, startedAtMs: 1, endedAtMs: 2, text: 'done', error: null, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }, toolCallsCount: 100, turns: 10, lastSequence: EVENTS / 20 },
      events,
      firstSequence: 1,
    };
  });
  return {
    schema: SESSION_SNAPSHOT_SCHEMA,
    version: 1,
    sessionId,
    generation: 1,
    savedAtMs: Date.now(),
    workspace: '/tmp',
    options: {},
    systemPrompt: 'You are a coding agent.',
    conversation,
    runs,
    artifacts: { version: 1, artifacts: [] },
    traces: [],
    verificationReports: [],
    subagentTasks: [],
    pendingConfirmations: [],
    labels: {},
  };
}

async function rawWrite(path: string, value: unknown): Promise<void> {
  const temp = `${path}.tmp`;
  const handle = await open(temp, 'w');
  await handle.writeFile(JSON.stringify(value));
  await handle.sync();
  await handle.close();
  await rename(temp, path);
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-persist-bench-')));
const server = await startScriptedModelServer({ scenario: [] });
try {
  const acl = `default_model = "anthropic/claude-test"\nproviders "anthropic" {\n  api_key = "sk-ant-test-key-000000"\n  base_url = "${server.anthropicBaseUrl}"\n  models "claude-test" { tool_call = true }\n}\n`;
  const agent = await Agent.create(acl);
  const store = new FileSessionStore(join(dir, 'sessions'));
  const seed = bigSnapshot('big');
  await store.save(seed);
  const session = await agent.resumeSessionAsync('big', { sessionStore: store });
  const bytes = Buffer.byteLength(JSON.stringify(seed));

  const save: number[] = [];
  const load: number[] = [];
  const rawSave: number[] = [];
  const rawLoad: number[] = [];
  const resume: number[] = [];
  const rawPath = join(dir, 'raw.json');
  for (let i = 0; i < REPEATS + 3; i += 1) {
    const s = await time(() => session.save());
    const l = await time(() => store.load('big'));
    const rs = await time(() => rawWrite(rawPath, seed));
    const rl = await time(async () => JSON.parse(await readFile(rawPath, 'utf8')));
    const rsm = await time(async () => (await agent.resumeSessionAsync('big', { sessionStore: store })).closeAsync());
    if (i >= 3) {
      save.push(s);
      load.push(l);
      rawSave.push(rs);
      rawLoad.push(rl);
      resume.push(rsm);
    }
  }
  console.log(`session: ${MESSAGES} messages, ${EVENTS} run events, document ${(bytes / 1024 / 1024).toFixed(2)} MB; medians of ${REPEATS}`);
  console.log(`save  ${ms(median(save))}  (raw fs write ${ms(median(rawSave))}, ratio ${(median(save) / median(rawSave)).toFixed(2)}x)  target <= 50 ms`);
  console.log(`load  ${ms(median(load))}  (raw fs read+parse ${ms(median(rawLoad))}, ratio ${(median(load) / median(rawLoad)).toFixed(2)}x)  target <= 50 ms`);
  console.log(`resume (load + rebuild the session) ${ms(median(resume))}`);
  await session.closeAsync();

  // autoSave overhead per operation: identical sends, with and without a store.
  const workspace = join(dir, 'ws');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');
  let latencyMs = 0;
  const script = () => [toolCallResponse('read', { file_path: 'a.ts' }, { latencyMs }), textResponse('a is 1', { latencyMs })];
  async function sends(autoSave: boolean): Promise<number[]> {
    const s = await agent.sessionAsync(workspace, autoSave ? { sessionStore: new FileSessionStore(join(dir, 'auto')), autoSave: true } : {});
    const times: number[] = [];
    for (let i = 0; i < SENDS; i += 1) {
      server.setScenario(script());
      times.push(await time(() => s.send(`what is a? (${i})`)));
    }
    await s.closeAsync();
    return times.slice(5);
  }
  // Zero model latency is the worst case (the op is only harness + loopback HTTP); 25 ms per
  // model response is still faster than any hosted model.
  for (const latency of [0, 25]) {
    latencyMs = latency;
    const plain: number[] = [];
    const auto: number[] = [];
    for (let round = 0; round < (latency === 0 ? 3 : 1); round += 1) {
      plain.push(...(await sends(false)));
      auto.push(...(await sends(true)));
      server.clearRequests();
    }
    const overhead = median(auto) / median(plain) - 1;
    console.log(`send() with ${latency} ms model latency: ${ms(median(plain))} without a store, ${ms(median(auto))} with autoSave on FileSessionStore: overhead ${(overhead * 100).toFixed(1)}% per operation  target <= 5%`);
  }
  await agent.close();
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
