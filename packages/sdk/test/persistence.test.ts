// Durable sessions through the public SDK: the Persistence, Async session APIs, Artifacts and
// verification samples of node-sdk.md / tools.md, a second process resuming a saved session,
// autoSave failures, replacement and the typed errors of resume.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModelServer, systemPromptOf, textResponse, toolCallResponse } from '@a3s-lab/code-testing';
import type { AgentEvent, SessionSnapshotV1, SessionStore } from '../src/index.js';
import { Agent, CodeError, FileSessionStore, MemorySessionStore } from '../src/index.js';
import { aclFor, PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

const report = (subject: string, status: 'passed' | 'failed' = 'passed') => ({
  schema: 'a3s.verification_report.v1',
  subject,
  status,
  checks: [{ id: 'check:sdk', kind: 'test', description: 'Run SDK tests', status, required: true }],
});

describe.each(PROTOCOLS)('durable sessions over the %s wire protocol', (protocol) => {
  let h: Harness | undefined;
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sessions-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('persistence sample: save() publishes one generation; resume brings back conversation, runs, cursors, artifacts and reports', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'cat big.txt' }), textResponse('It is big.'), textResponse('Still big.')], {
      'big.txt': `${'0123456789abcdef'.repeat(4)}\n`.repeat(3000),
    });
    const store = new FileSessionStore(tempDir());
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, sessionId: 'persist-1' });
    const first = await session.send('How big is big.txt?');
    await session.recordVerificationReports([report('sdk:tests')]);
    session.setLabel('ticket', 'A3S-10');
    const [runRecord] = await session.runs();
    const events = await session.runEvents(first.runId);
    const artifactUri = events.find((e) => e.type === 'tool_end')?.payload['artifacts'] as string[] | undefined;
    expect(artifactUri?.[0]).toMatch(/^a3s:\/\/tool-output\/bash\//);
    const saved = await session.save();
    expect(saved).toMatchObject({ schema: 'a3s.session_snapshot.v1', sessionId: 'persist-1', generation: 1 });
    expect((await session.save()).generation).toBe(2);
    await session.closeAsync();

    const resumed = await h.agent.resumeSessionAsync('persist-1', { sessionStore: store });
    expect(resumed.id).toBe('persist-1');
    expect(resumed.history()).toEqual(session.history());
    expect(await resumed.runs()).toEqual([runRecord]);
    expect(await resumed.runEvents(first.runId)).toEqual(events);
    const page = await resumed.runEventPage(first.runId, 2, 2);
    expect(page?.events.map((e) => e.metadata?.sequence)).toEqual([3, 4]);
    expect(resumed.getArtifact(artifactUri?.[0] ?? '')?.content.length).toBeGreaterThan(100_000);
    expect(resumed.verificationReports().map((r) => r.subject)).toEqual(['sdk:tests']);
    expect(resumed.labels()).toEqual({ ticket: 'A3S-10' });
    // The conversation continues where it stopped: the model sees the earlier turns.
    const next = await resumed.send('And now?');
    expect(next.text).toBe('Still big.');
    expect(JSON.stringify(h.server.requests.at(-1)?.body)).toContain('How big is big.txt?');
    expect(next.verificationSummaryText).toBe('verification passed: 1/1 subjects (sdk:tests)');
    // Generations continue from the resumed one.
    expect((await resumed.save()).generation).toBe(3);
  });

  it('autoSave publishes after send, stream, direct tool calls and confirmations; the sync resumeSession reads it', async () => {
    h = await startHarness(protocol, [textResponse('one'), toolCallResponse('write', { file_path: 'a.txt', content: 'x' }), textResponse('two')]);
    const store = new MemorySessionStore();
    const saves: number[] = [];
    const counting: SessionStore = { name: store.name, capabilities: store.capabilities, list: () => store.list(), delete: (id) => store.delete(id), load: (id) => store.load(id), loadSync: (id) => store.loadSync(id), save: async (s) => {
        saves.push(s.generation);
        await store.save(s);
      } };
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: counting, autoSave: true, permissionPolicy: { ask: ['write'] } });
    // Generation 0 is published at open, the first operation's state is generation 1.
    expect(saves).toEqual([0]);
    await session.send('first');
    await session.flushSaves();
    expect(saves).toEqual([0, 1]);
    const stream = await session.stream('second');
    for await (const event of stream) {
      if (event.type === 'confirmation_required') expect(await session.confirmToolUse(event.toolId, true)).toBe(true);
    }
    // The state was captured when the stream ended; flushSaves() waits for the write.
    await session.flushSaves();
    expect(store.loadSync(session.id)?.conversation.length).toBe(6);
    await session.tool('ls', {});
    await session.flushSaves();
    // Published generations are consecutive (captures made during a write are coalesced).
    expect(saves.length).toBeGreaterThanOrEqual(4);
    expect(saves).toEqual(saves.map((_, i) => i));
    const latest = store.loadSync(session.id);
    const resumed = h.agent.resumeSession(session.id, { sessionStore: counting });
    expect(resumed.history()).toEqual(latest?.conversation);
    expect((await resumed.runs()).map((r) => r.status)).toEqual(['completed', 'completed']);
  });

  it('a failing store emits persistence_failed and never breaks the operation', async () => {
    h = await startHarness(protocol, [textResponse('fine')]);
    const broken: SessionStore = {
      name: 'broken',
      capabilities: { atomicSessionSnapshots: true, synchronousLoad: false, durable: true },
      save: async () => {
        throw new CodeError('IO_ERROR', 'disk full');
      },
      load: async () => null,
      delete: async () => false,
      list: async () => [],
    };
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: broken, autoSave: true });
    const seen: AgentEvent[] = [];
    session.onEvent((e) => seen.push(e));
    expect((await session.send('go')).text).toBe('fine');
    await session.flushSaves();
    const failed = seen.find((e) => e.type === 'persistence_failed');
    expect(failed?.payload).toMatchObject({ operation: 'send', operations: ['send'], store: 'broken', code: 'IO_ERROR', message: 'disk full' });
    await expect(session.save()).rejects.toMatchObject({ code: 'IO_ERROR' });
  });

  it('async session APIs: replaceSessionAsync reconfigures an idle persisted session atomically', async () => {
    h = await startHarness(protocol, [textResponse('a'), textResponse('b')]);
    const store = new MemorySessionStore();
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, maxToolRounds: 5 });
    await session.send('hello');
    // A failed replacement leaves the current object live.
    await expect(h.agent.replaceSessionAsync(session, { maxToolRounds: 0 })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
    expect(session.closed).toBe(false);
    await expect(h.agent.replaceSessionAsync(session, { sessionId: 'other' })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
    expect(session.closed).toBe(false);
    const replacement = await h.agent.replaceSessionAsync(session, { maxToolRounds: 9 });
    expect(replacement.id).toBe(session.id);
    expect(replacement.snapshot().options.maxToolRounds).toBe(9);
    expect(session.closed).toBe(true);
    expect(replacement.history()).toHaveLength(2);
    await replacement.send('again');
    expect(replacement.history()).toHaveLength(4);
    // A busy session is refused.
    h.server.setScenario([textResponse('slow', { latencyMs: 300 })]);
    const running = new Promise<void>((resolve) => {
      const off = replacement.onEvent((e) => {
        if (e.type === 'turn_start') {
          off();
          resolve();
        }
      });
    });
    const busy = replacement.send('slow one');
    await running;
    await expect(h.agent.replaceSessionAsync(replacement, {})).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await busy;
    await replacement.cancelAsync();
    await replacement.closeAsync();
  });

  it('resume and replacement reconfigure the prompt: a new systemPrompt / instructions reaches the next model request', async () => {
    h = await startHarness(protocol, [textResponse('a'), textResponse('b'), textResponse('c'), textResponse('d')]);
    const store = new MemorySessionStore();
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, sessionId: 'prompt-1', autoSave: true, instructions: 'Rule one: be brief.' });
    await session.send('hello');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toContain('Rule one: be brief.');
    await session.closeAsync();
    // Resuming without prompt options keeps the saved prompt.
    const same = await h.agent.resumeSessionAsync('prompt-1', { sessionStore: store });
    await same.send('again');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toContain('Rule one: be brief.');
    await same.closeAsync();
    // A resume with new instructions rebuilds the prompt with them.
    const resumed = await h.agent.resumeSessionAsync('prompt-1', { sessionStore: store, instructions: 'Rule two: cite files.' });
    expect(resumed.snapshot().options.instructions).toBe('Rule two: cite files.');
    await resumed.send('and now');
    const rebuilt = systemPromptOf(h.server.requests.at(-1)!);
    expect(rebuilt).toContain('Rule two: cite files.');
    expect(rebuilt).not.toContain('Rule one');
    // A replacement with a systemPrompt sends exactly that prompt.
    const replacement = await h.agent.replaceSessionAsync(resumed, { systemPrompt: 'You are the release captain.' });
    expect(replacement.snapshot().options.systemPrompt).toBe('You are the release captain.');
    await replacement.send('ship it');
    expect(systemPromptOf(h.server.requests.at(-1)!)).toMatch(/^You are the release captain\./);
    expect(systemPromptOf(h.server.requests.at(-1)!)).not.toContain('Rule two');
    expect(replacement.history()).toHaveLength(8);
    await replacement.closeAsync();
  });

  it('resume errors are SESSION_INITIALIZATION_ERROR naming the store and the session', async () => {
    h = await startHarness(protocol, []);
    const store = new MemorySessionStore('memory:test');
    await expect(h.agent.resumeSessionAsync('missing', { sessionStore: store })).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION_ERROR', message: expect.stringContaining('memory:test') });
    store.putRaw('torn', '{"schema":"a3s.session_snapshot.v1","vers');
    await expect(h.agent.resumeSessionAsync('torn', { sessionStore: store })).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION_ERROR', message: expect.stringContaining("'torn'") });
    store.putRaw('future', JSON.stringify({ schema: 'a3s.session_snapshot.v1', version: 2, sessionId: 'future' }));
    expect(() => h?.agent.resumeSession('future', { sessionStore: store })).toThrow(expect.objectContaining({ code: 'SESSION_INITIALIZATION_ERROR' }));
    const asyncOnly: SessionStore = { ...store, name: 'async-only', capabilities: { ...store.capabilities, synchronousLoad: false }, save: (s) => store.save(s), load: (id) => store.load(id), delete: (id) => store.delete(id), list: () => store.list() };
    expect(() => h?.agent.resumeSession('x', { sessionStore: asyncOnly })).toThrow(expect.objectContaining({ code: 'SESSION_INITIALIZATION_ERROR', message: expect.stringContaining('resumeSessionAsync') }));
    // autoSave without any store is impossible: the agent's store is the default.
    expect(h.agent.sessionStore.name).toBe('memory:agent');
  });

  it('a confirmation pending at save time is reported as expired after resume', async () => {
    h = await startHarness(protocol, [toolCallResponse('write', { file_path: 'x.txt', content: 'x' }), textResponse('done')]);
    const store = new MemorySessionStore();
    const session = await h.agent.sessionAsync(h.dir, { sessionStore: store, permissionPolicy: { ask: ['write'] } });
    const sending = session.send('write it');
    while ((await session.pendingConfirmations()).length === 0) await new Promise((r) => setTimeout(r, 5));
    const saved: SessionSnapshotV1 = await session.save();
    expect(saved.pendingConfirmations).toHaveLength(1);
    await session.cancelAsync();
    await sending.catch(() => undefined);
    const resumed = await h.agent.resumeSessionAsync(session.id, { sessionStore: store });
    expect(await resumed.pendingConfirmations()).toEqual([]);
    expect(resumed.snapshot().traces.find((e) => e.type === 'confirmation_timeout')?.payload).toMatchObject({ tool_name: 'write', action: 'expired_on_resume' });
    expect((await resumed.runs())[0]?.status).toBe('cancelled');
  });
});

describe('verification evidence', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('spec sample: recordVerificationReports validates every document and records all or nothing', async () => {
    h = await startHarness('anthropic', [textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir);
    await session.recordVerificationReports([report('sdk:tests')]);
    const bad = [report('ok'), { ...report('bad'), status: 'passed', checks: [{ id: 'c', kind: 'test', description: 'x', status: 'failed', required: true }] }];
    await expect(session.recordVerificationReports(bad)).rejects.toMatchObject({ code: 'SESSION_ERROR', message: expect.stringContaining('reports[1]') });
    await expect(session.recordVerificationReports([{ ...report('x'), schema: 'a3s.verification_report.v2' }])).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    await expect(session.recordVerificationReports([{ ...report('x'), extra: 1 }])).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    expect(session.verificationReports().map((r) => r.subject)).toEqual(['sdk:tests']);
    const stream = await session.stream('finish');
    let end: AgentEvent | undefined;
    for await (const event of stream) if (event.type === 'agent_end') end = event;
    expect(end?.payload['verification_summary']).toMatchObject({ status: 'passed', reports: 1, passed: 1, failed: 0 });
    expect(end?.verificationSummaryText).toBe('verification passed: 1/1 subjects (sdk:tests)');
  });

  it('verifyCommands runs each check through the governed bash path and records the report', async () => {
    h = await startHarness('openai', [textResponse('summary')]);
    const session = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['bash(rm *)'], ask: ['bash(git *)'], defaultDecision: 'allow' }, confirmationPolicy: { defaultTimeoutMs: 200, timeoutAction: 'reject' } });
    const events: AgentEvent[] = [];
    session.onEvent((e) => events.push(e));
    const result = await session.verifyCommands('release readiness', [
      { id: 'unit', kind: 'test', description: 'Run core tests', command: 'echo 3 passed', required: true, timeoutMs: 120000 },
      { id: 'lint', kind: 'lint', description: 'Lint', command: 'ls does-not-exist', required: false },
      { id: 'danger', kind: 'build', description: 'Denied by policy', command: 'rm -rf build', required: false },
      { id: 'asked', kind: 'build', description: 'Needs a human', command: 'git status', required: false },
    ]);
    expect(result.status).toBe('passed');
    expect(result.checks.map((c) => [c.id, c.status, c.exitCode])).toEqual([
      ['unit', 'passed', 0],
      ['lint', 'failed', 2],
      ['danger', 'error', 1],
      ['asked', 'error', 1],
    ]);
    expect(result.checks[0]?.output).toContain('3 passed');
    expect(result.checks[1]?.output).toContain('does-not-exist');
    expect(events.filter((e) => e.type === 'tool_start').map((e) => e.payload['origin'])).toEqual(['verification', 'verification', 'verification', 'verification']);
    expect(events.some((e) => e.type === 'permission_denied')).toBe(true);
    expect(events.some((e) => e.type === 'confirmation_required')).toBe(true);
    const failing = await session.verifyCommands('release readiness', [{ id: 'unit', kind: 'test', description: 'again', command: 'exit 1' }]);
    expect(failing.status).toBe('failed');
    const sent = await session.send('summarise');
    expect(sent.verificationSummary).toMatchObject({ status: 'failed', failed: 1, subjects: [{ subject: 'release readiness', failedRequired: ['unit'] }] });
    expect(sent.verificationSummaryText).toBe('verification failed: 0/1 subjects passed; release readiness failed [unit]');
    await expect(session.verifyCommands('x', [])).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    await expect(session.verifyCommands('x', [{ id: 'a', kind: 't', description: '', command: 'true', bogus: 1 } as never])).rejects.toMatchObject({ code: 'SESSION_ERROR' });
  });
});

describe('ACL storage_backend and sessions_dir', () => {
  it('storage_backend = "file" creates a FileSessionStore under sessions_dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-acl-store-'));
    try {
      const agent = await Agent.create(`default_model = "openai/m"\nstorage_backend = "file"\nsessions_dir = "${join(dir, 'sessions')}"\nproviders "openai" {\n  api_key = "k"\n  models "m" {}\n}`);
      expect(agent.sessionStore).toBeInstanceOf(FileSessionStore);
      const session = await agent.sessionAsync(dir, { sessionId: 'acl-1' });
      await session.save();
      expect(readdirSync(join(dir, 'sessions'))).toEqual(['acl-1.json']);
      expect((await agent.resumeSessionAsync('acl-1')).id).toBe('acl-1');
      await agent.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Locally an unbuilt package skips these (with a message); in CI (`npm test` builds first) a
// missing build fails them instead.
describe('sessions of a storage_backend = "file" agent', () => {
  it('autoSave then close() (not awaited): resumeSessionAsync finds the session; a session never operated resumes from generation 0', async () => {
    const server = await startScriptedModelServer({ scenario: [textResponse('first'), textResponse('second')] });
    const dir = mkdtempSync(join(tmpdir(), 'a3s-acl-autosave-'));
    const sessionsDir = join(dir, 'sessions');
    const agent = await Agent.create(aclFor(server, 'anthropic', `storage_backend = "file"\nsessions_dir = "${sessionsDir}"`));
    try {
      const session = await agent.sessionAsync(dir, { autoSave: true });
      await session.send('remember this');
      session.close();
      const resumed = await agent.resumeSessionAsync(session.id);
      expect(resumed.history()).toHaveLength(2);
      expect((await resumed.send('and again')).text).toBe('second');
      await resumed.closeAsync();

      // Opened with a store, never operated: in the store at once as generation 0.
      const idle = await agent.sessionAsync(dir, { sessionId: 'idle-1' });
      expect(readdirSync(sessionsDir)).toContain('idle-1.json');
      await idle.closeAsync();
      const back = await agent.resumeSessionAsync('idle-1');
      expect(back.snapshot().generation).toBe(0);
      expect((await back.save()).generation).toBe(1);
      await back.closeAsync();
      // The synchronous opener publishes it too (resumeSessionAsync waits for the write).
      const sync = agent.session(dir, { sessionId: 'idle-2' });
      expect((await agent.resumeSessionAsync('idle-2')).id).toBe('idle-2');
      sync.close();
    } finally {
      await agent.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an explicit sessionStore publishes generation 0 at open; the agent's implicit memory store without autoSave does not", async () => {
    const server = await startScriptedModelServer({ scenario: [] });
    const dir = mkdtempSync(join(tmpdir(), 'a3s-gen0-'));
    const agent = await Agent.create(aclFor(server, 'openai'));
    try {
      const store = new MemorySessionStore();
      const session = await agent.sessionAsync(dir, { sessionStore: store, sessionId: 'gen0' });
      expect(await store.load('gen0')).toMatchObject({ sessionId: 'gen0', generation: 0 });
      expect((await session.save()).generation).toBe(1);
      await agent.sessionAsync(dir, { sessionId: 'implicit' });
      expect(await agent.sessionStore.load('implicit')).toBeNull();
    } finally {
      await agent.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const built = existsSync(join(here, '..', 'dist', 'index.js')) || process.env['CI'] === 'true';
if (!built) console.warn(`sdk built-package tests skipped: ${join(here, '..', 'dist', 'index.js')} is missing (npm test builds it)`);

describe.skipIf(!built)('second process (built package)', () => {
  it('saves in one process, resumes in a fresh process from the same directory, continues and pages the old run', { timeout: 60_000 }, async () => {
    const h = await startHarness('anthropic', [toolCallResponse('bash', { command: 'cat big.txt' }), textResponse('forty-two'), textResponse('It was forty-two.')], {
      'big.txt': `${'z'.repeat(64)}\n`.repeat(3000),
    });
    const sessions = mkdtempSync(join(tmpdir(), 'a3s-2proc-'));
    try {
      const session = await h.agent.sessionAsync(h.dir, { sessionStore: new FileSessionStore(sessions), autoSave: true, sessionId: 'two-process' });
      const first = await session.send('What is the answer?');
      await session.recordVerificationReports([report('sdk:tests')]);
      const artifact = (await session.runEvents(first.runId)).find((e) => e.type === 'tool_end')?.payload['artifacts'] as string[];
      const oldEvents = (await session.runEvents(first.runId)).map((e) => `${e.metadata?.sequence}:${e.type}`);
      await session.closeAsync();
      const { stdout } = await run(process.execPath, [join(here, 'fixtures', 'resume-and-continue.mjs'), aclFor(h.server, 'anthropic'), sessions, 'two-process', first.runId, artifact[0] ?? ''], { cwd: here });
      const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
      expect(seen).toMatchObject({ historyBefore: 4, historyAfter: 6, text: 'It was forty-two.', runs: ['completed', 'completed'], reports: ['sdk:tests'] });
      expect(seen.artifactBytes).toBeGreaterThan(100_000);
      expect(seen.pages.flat()).toEqual(oldEvents);
      expect(seen.pages[0]).toHaveLength(3);
      // The fresh process's model request carried the first process's conversation.
      expect(JSON.stringify(h.server.requests.at(-1)?.body)).toContain('What is the answer?');
      // And its save is readable here.
      const back = await h.agent.resumeSessionAsync('two-process', { sessionStore: new FileSessionStore(sessions) });
      expect(back.history()).toHaveLength(6);
    } finally {
      await h.cleanup();
      rmSync(sessions, { recursive: true, force: true });
    }
  });
});
