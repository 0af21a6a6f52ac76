// PostgresSessionStore benchmark (packages/postgres). Measures, in one run, on a real PostgreSQL
// server (started here in a temp dir, 127.0.0.1) and on in-process PGlite:
// - save (conditional single-row update of the snapshot text, generation and labels) and load
//   (select + parse + validate) of a realistic session snapshot (60 messages with tool calls and
//   results, 8 runs, 2,000 events: ~0.5 MB of JSON) through PostgresSessionStore,
// - against the floor of the same work done with the raw driver in the same process: one
//   `INSERT ... ON CONFLICT DO UPDATE` of JSON.stringify(snapshot) and one `SELECT` + JSON.parse.
// Prints medians and the ratios store / raw (1.00x = no overhead over the driver). The store's load
// also validates the document (parseSessionSnapshot: schema, conversation, runs), which the raw
// select does not: that check is most of the load ratio.
//
// Run: node --expose-gc --conditions=@a3s-lab/source --import tsx bench/postgres-store.bench.ts
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { AgentEvent, LlmMessage, SessionSnapshotV1 } from '../packages/core/src/index.js';
import { createAgentEvent, SESSION_SNAPSHOT_SCHEMA } from '../packages/core/src/index.js';
import { PostgresSessionStore } from '../packages/postgres/src/index.js';
import { startPostgres } from '../packages/testing/src/postgres/index.js';

const MESSAGES = 60;
const RUNS = 8;
const EVENTS_PER_RUN = 250;
const REPEATS = Number(process.env['A3S_BENCH_REPEATS'] ?? 40);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** A realistic mid-size session: tool calls with ~1 KB results and the events of 8 runs. */
function snapshotOf(sessionId: string, generation: number): SessionSnapshotV1 {
  const conversation: LlmMessage[] = [];
  for (let i = 0; i < MESSAGES / 2; i += 1) {
    conversation.push({ role: 'assistant', content: [{ type: 'text', text: `Reading file ${i}.` }, { type: 'tool_call', id: `call_${i}`, name: 'read', input: { file_path: `src/module${i}.ts` } }] });
    conversation.push({ role: 'user', content: [{ type: 'tool_result', toolCallId: `call_${i}`, content: `export const value${i} = ${i};\n`.repeat(30), isError: false }] });
  }
  const runs = Array.from({ length: RUNS }, (_, r) => {
    const id = `run_${r}`;
    const events: AgentEvent[] = [];
    for (let s = 1; s <= EVENTS_PER_RUN; s += 1) {
      const meta = { run_id: id, session_id: sessionId, sequence: s, timestamp_ms: 1_700_000_000_000 + s };
      events.push(s % 5 === 0 ? createAgentEvent('tool_end', { tool_id: `t${s}`, tool_name: 'read', exit_code: 0, output: 'x'.repeat(200), duration_ms: 3 }, meta) : createAgentEvent('text_delta', { text: `token ${s} `, turn: 1 }, meta));
    }
    return {
      record: { id, sessionId, status: 'completed' as const, kind: 'send', prompt: `prompt ${r}`, startedAtMs: 1, endedAtMs: 2, text: 'done', error: null, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }, toolCallsCount: 50, turns: 5, lastSequence: EVENTS_PER_RUN },
      events,
      firstSequence: 1,
    };
  });
  return {
    schema: SESSION_SNAPSHOT_SCHEMA,
    version: 1,
    sessionId,
    generation,
    savedAtMs: 1_700_000_000_000 + generation,
    workspace: '/work/repo',
    options: {},
    systemPrompt: 'You are a coding agent.',
    conversation,
    runs,
    artifacts: { version: 1, artifacts: [] },
    traces: [],
    verificationReports: [],
    subagentTasks: [],
    pendingConfirmations: [],
    labels: { owner: 'bench', tenant: 't1' },
  };
}

/** The raw driver's single-row upsert and select, as a host would write them by hand. */
interface RawClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

async function measure(label: string, store: PostgresSessionStore, raw: RawClient): Promise<void> {
  await raw.query('CREATE TABLE IF NOT EXISTS raw_sessions (id text PRIMARY KEY, doc text NOT NULL)');
  const id = 'bench-session';
  const bytes = JSON.stringify(snapshotOf(id, 1)).length;
  await store.save(snapshotOf(id, 1));
  await store.load(id);
  const saves: number[] = [];
  const loads: number[] = [];
  const rawSaves: number[] = [];
  const rawLoads: number[] = [];
  // Interleaved, so drift of the machine (2 shared cores) hits both sides alike; warm-up rounds dropped.
  for (let i = 0; i < REPEATS + 5; i += 1) {
    const snapshot = snapshotOf(id, i + 2);
    let t = performance.now();
    await store.save(snapshot);
    const save = performance.now() - t;
    t = performance.now();
    const loaded = await store.load(id);
    const load = performance.now() - t;
    if (loaded?.generation !== i + 2) throw new Error('the store loaded another generation');

    t = performance.now();
    await raw.query('INSERT INTO raw_sessions (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [id, JSON.stringify(snapshot)]);
    const rawSave = performance.now() - t;
    t = performance.now();
    const row = (await raw.query('SELECT doc FROM raw_sessions WHERE id = $1', [id])).rows[0];
    const parsed = JSON.parse(String(row?.['doc'])) as SessionSnapshotV1;
    const rawLoad = performance.now() - t;
    if (parsed.generation !== i + 2) throw new Error('the raw select read another generation');
    if (i < 5) continue;
    saves.push(save);
    loads.push(load);
    rawSaves.push(rawSave);
    rawLoads.push(rawLoad);
  }
  const [s, l, rs, rl] = [median(saves), median(loads), median(rawSaves), median(rawLoads)];
  console.log(`${label}: snapshot ${(bytes / 1024).toFixed(0)} KiB, ${REPEATS} rounds (medians)`);
  console.log(`  save: store ${ms(s)}  raw upsert ${ms(rs)}  ratio ${(s / rs).toFixed(2)}x`);
  console.log(`  load: store ${ms(l)}  raw select+parse ${ms(rl)}  ratio ${(l / rl).toFixed(2)}x`);
}

const database = await startPostgres();
try {
  const store = new PostgresSessionStore({ connectionString: database.connectionString });
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  await measure('PostgreSQL 15 (127.0.0.1, pg)', store, client);
  await client.end();
  await store.close();
} finally {
  await database.stop();
}

const lite = await PGlite.create();
const liteStore = new PostgresSessionStore({ pglite: lite });
await measure('PGlite (in process)', liteStore, { query: (sql, params) => lite.query<Record<string, unknown>>(sql, params) });
await liteStore.close();
await lite.close();
