// The samples of shared/spec/node-sdk.md and tools.md, translated to TypeScript, run against the
// scripted model server through the real @anthropic-ai/sdk and openai clients.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { CodeError, LocalWorkspaceBackend } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

describe.each(PROTOCOLS)('spec samples over the %s wire protocol', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('quick start: send() returns the final text and token counts', async () => {
    h = await startHarness(protocol, [
      toolCallResponse('grep', { pattern: 'authenticate', output_mode: 'files_with_matches' }),
      textResponse('Authentication lives in src/auth.ts.'),
    ], { 'src/auth.ts': 'export function authenticate() {}\n', 'src/other.ts': 'x\n' });
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.send({ prompt: 'What files handle authentication?' });
    expect(result.text).toBe('Authentication lives in src/auth.ts.');
    expect(result.toolCallsCount).toBe(1);
    expect(result.promptTokens).toBeGreaterThan(0);
    expect(result.totalTokens).toBe(result.promptTokens + result.completionTokens);
    // The model saw the grep result naming the file.
    const results = toolResultsOf(h.server.requests[1]!);
    expect(results[0]?.content).toContain('src/auth.ts');
  });

  it('streaming: next() yields v1 envelopes until done', async () => {
    h = await startHarness(protocol, [textResponse(['Hello', ' world'])]);
    const session = await h.agent.sessionAsync(h.dir);
    const stream = await session.stream('Say hello');
    const events: AgentEvent[] = [];
    while (true) {
      const { value: event, done } = await stream.next();
      if (done) break;
      expect(event.version).toBe(1);
      expect(typeof event.type).toBe('string');
      expect(typeof event.payload).toBe('object');
      events.push(event);
    }
    expect(events.map((e) => e.type)).toEqual(['agent_start', 'turn_start', 'text_delta', 'text_delta', 'turn_end', 'agent_end']);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.text).join('')).toBe('Hello world');
    expect(events.at(-1)?.payload['text']).toBe('Hello world');
  });

  it('workspace backends: the direct file helpers', async () => {
    h = await startHarness(protocol, []);
    const session = h.agent.session(h.dir, { workspaceBackend: new LocalWorkspaceBackend(h.dir) });
    expect((await session.writeFile('notes.txt', 'one\ntwo\n')).exitCode).toBe(0);
    expect(await session.readFile('notes.txt')).toBe('one\ntwo\n');
    expect(await session.readFile('notes.txt', { offset: 1, limit: 1 })).toBe('two\n');
    const listing = await session.ls();
    expect(listing.output).toContain('notes.txt');
    expect((await session.editFile('notes.txt', 'one', 'uno')).exitCode).toBe(0);
    const patched = await session.patchFile('notes.txt', '@@ -1,2 +1,2 @@\n uno\n-two\n+dos');
    expect(patched.exitCode).toBe(0);
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('uno\ndos\n');
    expect(typeof patched.metadataJson).toBe('string');
  });

  it('direct tool calls: glob, grep, git, bash, tool, toolDefinitions', async () => {
    h = await startHarness(protocol, [], { 'src/lib.rs': 'struct PermissionPolicy;\n', 'src/config.rs': 'use PermissionPolicy;\n', 'README.md': '# demo\n' }, { git: true });
    const session = await h.agent.sessionAsync(h.dir);
    const files = await session.glob('src/**/*.rs');
    const hits = await session.grep('PermissionPolicy');
    const status = await session.git('status');
    const output = await session.bash('echo tests ok');
    const raw = await session.tool('read', { file_path: 'README.md' });
    const schemas = session.toolDefinitions();
    const hitLines = hits.split('\n').filter(Boolean).length;
    expect(files.sort()).toEqual(['src/config.rs', 'src/lib.rs']);
    expect(hitLines).toBeGreaterThanOrEqual(2);
    expect(output).toContain('tests ok');
    expect(schemas.length).toBe(session.toolNames().length);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.metadataJson ?? '{}')).toMatchObject({ branch: 'main' });
    expect(raw.output).toContain('# demo');
    expect(await session.git({ command: 'worktree', subcommand: 'list' })).toMatchObject({ exitCode: 0 });
  });

  it('permissions and confirmation: ask bash, approve through pendingConfirmations()', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo approved-run' }), textResponse('done')]);
    const session = h.agent.session(h.dir, {
      permissionPolicy: { ask: ['bash*'], defaultDecision: 'allow' },
      confirmationPolicy: { enabled: true, defaultTimeoutMs: 30000, timeoutAction: 'reject', yoloLanes: ['query'] },
    });
    const stream = await session.stream('run it');
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'confirmation_required') {
        for (const pending of await session.pendingConfirmations()) {
          expect(pending.toolName).toBe('bash');
          expect(pending.remainingMs).toBeGreaterThan(0);
          expect(await session.confirmToolUse(pending.toolId, true, 'Reviewed')).toBe(true);
        }
      }
    }
    expect(types).toContain('confirmation_received');
    const results = toolResultsOf(h.server.requests[1]!);
    expect(results[0]?.content).toContain('approved-run');
    // A late answer is refused.
    expect(await session.confirmToolUse('no-such-id', true)).toBe(false);
  });

  it('runs and replay: runs(), runEvents(), runEventPage() with an exclusive cursor', async () => {
    h = await startHarness(protocol, [toolCallResponse('ls', {}), textResponse('Fixed.')], { 'a.txt': 'a\n' });
    const session = await h.agent.sessionAsync(h.dir, { retentionLimits: { maxEventsPerRun: 4096 } });
    await session.send('Fix the failing test');
    const [run] = await session.runs();
    expect(run?.status).toBe('completed');
    const replay = await session.runEvents(run!.id);
    expect(replay.map((e) => e.metadata?.sequence)).toEqual(replay.map((_, i) => i + 1));
    for (const event of replay) {
      expect(event.version).toBe(1);
      expect(event.metadata).toMatchObject({ run_id: run!.id, session_id: session.id });
      expect(typeof event.metadata?.timestamp_ms).toBe('number');
    }
    const paged: AgentEvent[] = [];
    let after: number | undefined;
    do {
      const page = await session.runEventPage(run!.id, after, 3);
      if (!page) break;
      if (page.retentionGap) throw new Error('Requested run events were evicted');
      paged.push(...page.events);
      after = page.nextAfterSequence ?? after;
      if (!page.hasMore) break;
    } while (true);
    expect(paged).toEqual(replay);
    expect(await session.activeTools()).toEqual([]);
    expect(await session.cancelRun(run!.id)).toBe(false);
  });

  it('artifacts: large output is retained and retrievable by URI', async () => {
    h = await startHarness(protocol, []);
    const session = h.agent.session(h.dir, { artifactStoreLimits: { maxArtifacts: 64, maxBytes: 8 * 1024 * 1024 } });
    const result = await session.tool('bash', { command: 'seq 1 60000' });
    expect(result.artifacts?.length).toBeGreaterThan(0);
    const artifact = session.getArtifact(result.artifacts![0]!);
    expect(artifact?.content).toContain('\n59999\n60000');
    expect(result.output.length).toBeLessThan(artifact!.content.length);
  });

  it('error codes: an overlapping send is SESSION_BUSY, a closed session SESSION_CLOSED', async () => {
    h = await startHarness(protocol, [textResponse('slow', { latencyMs: 300 }), textResponse('second')]);
    const session = await h.agent.sessionAsync(h.dir);
    const first = session.send('one');
    await expect(session.send('two')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await expect(session.stream('two')).rejects.toSatisfy((e: unknown) => CodeError.isInstance(e) && e.code === 'SESSION_BUSY');
    expect((await first).text).toBe('slow');
    expect((await session.send('again')).text).toBe('second');
    expect(h.agent.openSessionCount).toBe(1);
    await session.closeAsync();
    expect(h.agent.openSessionCount).toBe(0);
    await expect(session.send('three')).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('resilience and planning options are accepted; bad ones name the field', async () => {
    h = await startHarness(protocol, []);
    h.agent.session(h.dir, {
      toolTimeoutMs: 120000,
      llmApiTimeoutMs: 120000,
      circuitBreakerThreshold: 4,
      duplicateToolCallThreshold: 5,
      manualDelegationEnabled: true,
      autoCompact: true,
      autoCompactThreshold: 0.8,
      maxContextTokens: 128000,
    });
    h.agent.session(h.dir, { planningMode: 'auto' });
    h.agent.session(h.dir, { planningMode: 'enabled' });
    h.agent.session(h.dir, { planning: false });
    h.agent.session(h.dir, { autoDelegation: { enabled: true, maxTasks: 4 }, maxParallelTasks: 8, autoParallel: false });
    expect(() => h!.agent.session(h!.dir, { maxContextTokens: 0 })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field: 'maxContextTokens' }) }));
    expect(() => h!.agent.session(h!.dir, { planningMode: 'sometimes' as 'auto' })).toThrow(/planningMode/);
  });

  it('requests: object form with history and an image attachment', async () => {
    h = await startHarness(protocol, [textResponse('It is a 1x1 PNG.')]);
    const session = await h.agent.sessionAsync(h.dir);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const result = await session.send({
      prompt: 'Explain the image',
      history: [
        { role: 'user', content: [{ type: 'text', text: 'earlier question' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
      ],
      attachments: [{ data: png, mediaType: 'image/png' }],
    });
    expect(result.text).toBe('It is a 1x1 PNG.');
    const body = JSON.stringify(h.server.requests[0]!.body);
    expect(body).toContain('earlier answer');
    expect(body).toContain(png.toString('base64'));
  });
});
