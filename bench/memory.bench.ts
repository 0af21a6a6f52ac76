// Memory benchmark (packages/runtime/src/session + packages/sdk): heap held by
// - an idle session (created, nothing sent), and a session after one short send;
// - 10,000 run events (one run streaming 10,000 text chunks through the scripted server; the
//   session keeps its run events for runEvents()/save()).
// Figures are heapUsed deltas after two forced GCs (run with --expose-gc), per session / per
// 10,000 events, with the size of the same events as JSON for reference.
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/memory.bench.ts
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Agent } from '../packages/sdk/src/index.js';
import { startScriptedModelServer, textResponse } from '../packages/testing/src/index.js';

const SESSIONS = 200;
const EVENTS = 10_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

const server = await startScriptedModelServer({ scenario: () => textResponse('ok') });
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-memory-bench-')));
writeFileSync(join(dir, 'README.md'), '# memory bench\n');
const agent = await Agent.create(`
default_model = "anthropic/claude-test"
providers "anthropic" {
  api_key = "sk-ant-test-key-000000"
  base_url = "${server.anthropicBaseUrl}"
  models "claude-test" { tool_call = true  limit = { context = 200000  output = 4096 } }
}
`);
// Warm: modules loaded, lazy state created, one session used and closed.
const warm = agent.session(dir);
await warm.send('hello');
await warm.closeAsync();
server.clearRequests();

const base = heap();
const sessions = Array.from({ length: SESSIONS }, () => agent.session(dir));
const idle = heap();
for (const [index, session] of sessions.entries()) await session.send(`hello ${index}`);
server.clearRequests();
const sent = heap();
for (const session of sessions) await session.closeAsync();
sessions.length = 0;
const closed = heap();

// Two runs of ~5,000 events (a run keeps at most 8,192 events by default).
const chunks = Array.from({ length: EVENTS / 2 }, (_, index) => `tok${index} `);
server.setScenario([textResponse(chunks), textResponse(chunks)]);
const session = agent.session(dir);
const beforeRun = heap();
await session.send('stream a long answer');
const result = await session.send('and another one');
server.clearRequests();
const afterRun = heap();
const events = [];
for (const run of await session.runs()) events.push(...(await session.runEvents(run.id)));
const json = Buffer.byteLength(JSON.stringify(events));
const perTenThousand = ((afterRun - beforeRun) / events.length) * 10_000;

console.log(`idle sessions (${SESSIONS}): ${kb((idle - base) / SESSIONS)} heap per session`);
console.log(`after one short send each: ${kb((sent - base) / SESSIONS)} heap per session (${mb(sent - base)} for ${SESSIONS}); after closing them: ${mb(closed - base)} left`);
console.log(
  `two runs, ${events.length} events (${result.text.length} chars of answer each): ${mb(afterRun - beforeRun)} heap held, ${mb(perTenThousand)} per 10,000 events (the events as JSON: ${mb((json / events.length) * 10_000)} per 10,000)`,
);
console.log(`rss at the end: ${mb(process.memoryUsage().rss)}`);
await session.closeAsync();
await agent.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
