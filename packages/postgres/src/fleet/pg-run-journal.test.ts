import { PGlite } from '@electric-sql/pglite';
import { createAgentEvent } from '@a3s-lab/code-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../database.js';
import type { Database } from '../database.js';
import { migrate } from '../migrations.js';
import { PgRunJournal } from './pg-run-journal.js';

let pglite: PGlite;
let db: Database;
let raw: Database;
let statements: string[] = [];

beforeAll(async () => {
  pglite = await PGlite.create();
  raw = await openDatabase({ pglite });
  await migrate(raw);
  // Every statement the journal sends (what a round trip to PostgreSQL would be).
  db = { ...raw, query: (sql, params) => (statements.push(sql), raw.query(sql, params)) } as Database;
});
afterAll(async () => {
  await raw.close();
  await pglite.close();
});

async function startRun(runId: string): Promise<PgRunJournal> {
  await db.query("INSERT INTO a3s_sessions (session_id, document, generation, labels) VALUES ($1, '{}', 1, '{}'::jsonb) ON CONFLICT DO NOTHING", [`s-${runId}`]);
  await db.query("INSERT INTO a3s_fleet_runs (run_id, session_id, request, status, attempts) VALUES ($1, $2, '{}'::jsonb, 'running', 1)", [runId, `s-${runId}`]);
  statements = [];
  return PgRunJournal.open(db, runId, 1, () => undefined);
}

// Read past the counting wrapper: only the journal's own statements are counted.
const steps = async (runId: string) => (await raw.query<{ step: number; key: string; kind: string }>('SELECT step, key, kind FROM a3s_fleet_steps WHERE run_id = $1 ORDER BY step', [runId])).rows;

describe('PgRunJournal', () => {
  it("an idempotent call's start is written with its outcome: two steps in order, one statement; a non-idempotent start is written before the call", async () => {
    const journal = await startRun('run-idem');
    await journal.recordToolStart('tool-a', { toolName: 'read', args: { file_path: 'a' } }, { idempotent: true });
    expect(statements).toEqual([]);
    expect(await steps('run-idem')).toEqual([]);
    await journal.recordToolStart('tool-b', { toolName: 'bash', args: { command: 'x' } });
    expect(statements).toHaveLength(1);
    await journal.recordToolOutcome('tool-a', { output: 'text of a', exitCode: 0 });
    expect(statements).toHaveLength(2);
    await journal.recordToolOutcome('tool-b', { output: 'ran', exitCode: 0 });
    expect((await steps('run-idem')).map((s) => [s.step, s.key, s.kind])).toEqual([
      [1, 'tool-b', 'tool_start'],
      [2, 'tool-a', 'tool_start'],
      [3, 'tool-a', 'tool_outcome'],
      [4, 'tool-b', 'tool_outcome'],
    ]);
    // A resumed attempt reads both as recorded: the outcome is the call's result.
    await db.query("UPDATE a3s_fleet_runs SET attempts = 2 WHERE run_id = 'run-idem'");
    const resumed = await PgRunJournal.open(db, 'run-idem', 2, () => undefined);
    expect(await resumed.toolCall('tool-a')).toMatchObject({ outcome: { output: 'text of a', exitCode: 0 } });
  });

  it('an idempotent call whose outcome never came is unknown to the next attempt (it runs again, as a call never started)', async () => {
    const journal = await startRun('run-lost');
    await journal.recordToolStart('tool-c', { toolName: 'grep', args: { pattern: 'x' } }, { idempotent: true });
    await db.query("UPDATE a3s_fleet_runs SET attempts = 2 WHERE run_id = 'run-lost'");
    const resumed = await PgRunJournal.open(db, 'run-lost', 2, () => undefined);
    expect(await resumed.toolCall('tool-c')).toBeNull();
  });

  it('the pending events ride with the next step: one statement, events before the step', async () => {
    const journal = await startRun('run-events');
    journal.event(createAgentEvent('turn_start', { turn: 1 }));
    journal.event(createAgentEvent('text_delta', { text: 'a', turn: 1 }));
    await journal.recordModelResponse('model-run-events-1', [{ type: 'message_end', stopReason: 'end_turn' } as never]);
    expect(statements).toHaveLength(1);
    const events = await raw.query<{ seq: number; type: string }>("SELECT seq, event->>'type' AS type FROM a3s_fleet_events WHERE run_id = 'run-events' ORDER BY seq");
    expect(events.rows).toEqual([{ seq: 1, type: 'turn_start' }, { seq: 2, type: 'text_delta' }]);
  });
});
