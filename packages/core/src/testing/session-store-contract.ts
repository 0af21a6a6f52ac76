import { CodeError } from '../errors/code-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { createAgentEvent } from '../events/agent-event.js';
import { SESSION_SNAPSHOT_SCHEMA } from '../session/session-snapshot.js';
import type { SessionSnapshotV1 } from '../session/session-snapshot.js';
import type { SessionStore } from '../session/session-store.js';
import type { ContractRunner } from './contract-runner.js';

/** What a store's contract fixture provides: a fresh, empty store and raw access to it. */
export interface SessionStoreContractFixture {
  readonly store: SessionStore;
  /** Writes `text` as the stored document of `sessionId`, bypassing the store's checks. */
  putRaw(sessionId: string, text: string): Promise<void>;
  /** Removes everything the store wrote. */
  cleanup(): Promise<void>;
}

/** One case of the contract: a title and a body that throws on failure. */
export interface SessionStoreContractCase {
  readonly title: string;
  run(): Promise<void>;
}

/** A valid snapshot with a conversation, one run with events, an artifact and a report. */
export function sampleSessionSnapshot(sessionId: string, generation = 1, text = 'hello'): SessionSnapshotV1 {
  const meta = (sequence: number) => ({ run_id: 'run_1', session_id: sessionId, sequence, timestamp_ms: 1_700_000_000_000 + sequence });
  return {
    schema: SESSION_SNAPSHOT_SCHEMA,
    version: 1,
    sessionId,
    generation,
    savedAtMs: 1_700_000_000_000 + generation,
    workspace: '/work/repo',
    options: { maxToolRounds: 50 },
    systemPrompt: 'You are a coding agent.',
    conversation: [
      { role: 'user', content: [{ type: 'text', text }] },
      { role: 'assistant', content: [{ type: 'text', text: `answer ${generation} ✓` }] },
    ],
    runs: [
      {
        record: {
          id: 'run_1',
          sessionId,
          status: 'completed',
          kind: 'send',
          prompt: text,
          startedAtMs: 1_700_000_000_000,
          endedAtMs: 1_700_000_000_100,
          text: `answer ${generation} ✓`,
          error: null,
          usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 },
          toolCallsCount: 0,
          turns: 1,
          lastSequence: 2,
        },
        events: [createAgentEvent('agent_start', { run_id: 'run_1' }, meta(1)), createAgentEvent('text_delta', { text: `answer ${generation} ✓` }, meta(2))],
        firstSequence: 1,
      },
    ],
    artifacts: { version: 1, artifacts: [{ uri: 'a3s://tool-output/read/a1', id: 'a1', tool: 'read', content: 'x'.repeat(100), mediaType: 'text/plain', bytes: 100, createdAtMs: 1 }] },
    traces: [],
    verificationReports: [{ schema: 'a3s.verification_report.v1', subject: 'unit', status: 'passed', checks: [{ id: 'c1', kind: 'test', description: 'tests', status: 'passed', required: true }] }],
    subagentTasks: [],
    pendingConfirmations: [],
    labels: { tenant: 't1' },
  };
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`session store contract: ${message}`);
}

async function rejectsWith(promise: Promise<unknown>, code: ErrorCode, mention: readonly string[], what: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    check(CodeError.hasCode(error, code), `${what}: expected ${code}, got ${String((error as { code?: unknown }).code ?? error)}`);
    const message = (error as Error).message;
    for (const m of mention) check(message.includes(m), `${what}: the message should name '${m}': ${message}`);
    return;
  }
  throw new Error(`session store contract: ${what}: expected a rejection with ${code}`);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The conformance cases every {@link SessionStore} must pass, independent of any test runner:
 * round trip, missing sessions, latest generation wins, concurrent saves publish whole
 * generations, unknown schema and corrupted documents refused naming store and session,
 * legacy `SessionStateV1` readable, delete, list order, bad ids refused.
 *
 * @example
 * for (const c of sessionStoreContract(async () => ({ store: new FileSessionStore(dir), putRaw, cleanup })))
 *   it(c.title, c.run);
 */
export function sessionStoreContract(factory: () => Promise<SessionStoreContractFixture>): SessionStoreContractCase[] {
  const withStore = (title: string, body: (f: SessionStoreContractFixture) => Promise<void>): SessionStoreContractCase => ({
    title,
    run: async () => {
      const fixture = await factory();
      try {
        await body(fixture);
      } finally {
        await fixture.cleanup();
      }
    },
  });
  return [
    withStore('round trip: load returns what save published', async ({ store }) => {
      const snapshot = sampleSessionSnapshot('sess-1');
      await store.save(snapshot);
      check(same(await store.load('sess-1'), snapshot), 'loaded snapshot differs from the saved one');
      if (store.capabilities.synchronousLoad) check(same(store.loadSync?.('sess-1'), snapshot), 'loadSync differs from the saved snapshot');
    }),
    withStore('a session never saved loads as null', async ({ store }) => {
      check((await store.load('nobody')) === null, 'expected null');
    }),
    withStore('the latest generation wins', async ({ store }) => {
      for (let g = 1; g <= 3; g += 1) await store.save(sampleSessionSnapshot('sess-g', g));
      check((await store.load('sess-g'))?.generation === 3, 'expected generation 3');
    }),
    withStore('concurrent saves publish whole generations', async ({ store }) => {
      const saves = Array.from({ length: 16 }, (_, i) => sampleSessionSnapshot('sess-c', i + 1, `prompt ${i + 1} ${'z'.repeat(i * 512)}`));
      await Promise.all(saves.map((s) => store.save(s)));
      const loaded = await store.load('sess-c');
      check(loaded !== null && saves.some((s) => same(s, loaded)), 'the loaded document is not one of the saved generations');
    }),
    withStore('an unknown schema version is refused naming store and session', async ({ store, putRaw }) => {
      await putRaw('sess-u', JSON.stringify({ ...sampleSessionSnapshot('sess-u'), version: 99 }));
      await rejectsWith(store.load('sess-u'), 'SERIALIZATION_ERROR', ['sess-u', store.name], 'version 99');
      await putRaw('sess-u', JSON.stringify({ ...sampleSessionSnapshot('sess-u'), schema: 'other.schema.v7' }));
      await rejectsWith(store.load('sess-u'), 'SERIALIZATION_ERROR', ['sess-u', store.name], 'foreign schema');
    }),
    withStore('a corrupted document is refused naming store and session', async ({ store, putRaw }) => {
      const text = JSON.stringify(sampleSessionSnapshot('sess-x'));
      await putRaw('sess-x', text.slice(0, Math.floor(text.length / 2)));
      await rejectsWith(store.load('sess-x'), 'SERIALIZATION_ERROR', ['sess-x', store.name], 'torn JSON');
      await putRaw('sess-x', JSON.stringify({ ...sampleSessionSnapshot('sess-x'), conversation: [{ role: 'robot', content: [] }] }));
      await rejectsWith(store.load('sess-x'), 'SERIALIZATION_ERROR', ['sess-x'], 'bad conversation');
      await putRaw('sess-x', JSON.stringify(sampleSessionSnapshot('someone-else')));
      await rejectsWith(store.load('sess-x'), 'SERIALIZATION_ERROR', ['sess-x'], 'document of another session');
    }),
    withStore('a legacy SessionStateV1 document is readable', async ({ store, putRaw }) => {
      const s = sampleSessionSnapshot('sess-l');
      await putRaw('sess-l', JSON.stringify({ version: 1, sessionId: 'sess-l', history: s.conversation, runs: s.runs, artifacts: s.artifacts, pendingConfirmations: [], options: {}, systemPrompt: 'legacy' }));
      const loaded = await store.load('sess-l');
      check(loaded?.schema === SESSION_SNAPSHOT_SCHEMA && loaded.systemPrompt === 'legacy' && same(loaded.conversation, s.conversation), 'legacy state not upgraded');
    }),
    withStore('delete removes a session once', async ({ store }) => {
      await store.save(sampleSessionSnapshot('sess-d'));
      check((await store.delete('sess-d')) === true, 'first delete should report true');
      check((await store.delete('sess-d')) === false, 'second delete should report false');
      check((await store.load('sess-d')) === null, 'deleted session still loads');
    }),
    withStore('list returns every session ordered by id', async ({ store }) => {
      for (const id of ['schedule:nightly', 'b', 'a-2', 'a-1']) await store.save(sampleSessionSnapshot(id));
      const ids = (await store.list()).map((e) => e.sessionId);
      check(same(ids, ['a-1', 'a-2', 'b', 'schedule:nightly']), `unexpected list ${JSON.stringify(ids)}`);
      check((await store.list()).every((e) => Number.isFinite(e.updatedAtMs)), 'updatedAtMs must be a number');
    }),
    withStore('ids that could name a path are refused and nothing is written', async ({ store }) => {
      for (const id of ['../escape', 'a/b', '.', '..', '', 'x'.repeat(129), 'back\\slash', 'nul\u0000']) {
        await rejectsWith(store.save({ ...sampleSessionSnapshot('ok'), sessionId: id }), 'SESSION_ERROR', [], `save ${JSON.stringify(id)}`);
        await rejectsWith(store.load(id), 'SESSION_ERROR', [], `load ${JSON.stringify(id)}`);
        await rejectsWith(store.delete(id), 'SESSION_ERROR', [], `delete ${JSON.stringify(id)}`);
      }
      check((await store.list()).length === 0, 'a refused save left a document');
    }),
  ];
}

/**
 * Registers {@link sessionStoreContract} with a test runner (vitest's or node:test's `describe` /
 * `it`); each case gets a fresh store from `factory`.
 *
 * @example
 * import { describe, it } from 'node:test';
 * describeSessionStoreContract('MyStore', async () => ({ store, putRaw, cleanup }), { runner: { describe, it } });
 */
export function describeSessionStoreContract(name: string, factory: () => Promise<SessionStoreContractFixture>, options: { readonly runner: ContractRunner }): void {
  const { describe, it } = options.runner;
  describe(`session store contract: ${name}`, () => {
    for (const c of sessionStoreContract(factory)) it(c.title, () => c.run());
  });
}
