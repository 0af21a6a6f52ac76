// Drop-in behaviour for code written against the documented API: direct helpers' result
// shapes, request forms, lifecycle names, and the options the original package accepts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, malformedToolCallResponse, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('direct helpers return what tools.md documents', () => {
  it('bash returns the output (stdout then stderr), glob every match as string[]', async () => {
    h = await startHarness('anthropic', []);
    mkdirSync(join(h.dir, 'many'));
    for (let i = 0; i < 600; i += 1) writeFileSync(join(h.dir, 'many', `f${String(i).padStart(3, '0')}.txt`), 'x');
    const session = await h.agent.sessionAsync(h.dir);
    expect(await session.bash('echo hello')).toBe('hello\n');
    expect(await session.bash('echo out; echo err >&2; exit 3')).toBe('out\nerr\n');
    const all = await session.glob('many/*.txt', { sort: 'path' });
    expect(all).toHaveLength(600);
    expect(new Set(all).size).toBe(600);
    expect(all.every((p) => /^many\/f\d{3}\.txt$/.test(p))).toBe(true);
    expect(await session.glob('many/*.txt', { limit: 5, sort: 'path' })).toEqual(['many/f000.txt', 'many/f001.txt', 'many/f002.txt', 'many/f003.txt', 'many/f004.txt']);
  });

  it('writeFile over a large existing file reports the bounded diff, hashes and previews edit gives, the full diff as an artifact', async () => {
    h = await startHarness('anthropic', []);
    const lines = Array.from({ length: 8000 }, (_, i) => `line ${i} old`);
    writeFileSync(join(h.dir, 'big.txt'), `${lines.join('\n')}\n`);
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.writeFile('big.txt', `${lines.map((l) => l.replace('old', 'new')).join('\n')}\n`);
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe(`Wrote big.txt (${readFileSync(join(h.dir, 'big.txt')).byteLength} bytes; +8000 -8000)`);
    const metadata = JSON.parse(result.metadataJson ?? '{}') as Record<string, unknown>;
    expect(metadata).toMatchObject({ path: 'big.txt', created: false, large: true, diff_truncated: true, additions: 8000, deletions: 8000 });
    expect(metadata['before_hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(metadata['before_preview']).toContain('line 0 old');
    expect(metadata['after_preview']).toContain('line 0 new');
    expect(metadata['before']).toBeUndefined();
    const [uri] = metadata['artifacts'] as string[];
    expect(session.getArtifact(uri!)?.content).toContain('+line 7999 new');
  });

  it('sessionId, cancel() as a boolean, isClosed(), agent.isClosed(); a missing workspace fails at once', async () => {
    h = await startHarness('anthropic', [textResponse('slow', { latencyMs: 2000 })]);
    const session = await h.agent.sessionAsync(h.dir);
    expect(session.sessionId).toBe(session.id);
    expect(session.cancel()).toBe(false);
    const sending = session.send('go');
    sending.catch(() => undefined);
    while ((await session.currentRun()) === null) await new Promise((r) => setTimeout(r, 5));
    expect(session.cancel()).toBe(true);
    await expect(sending).rejects.toMatchObject({ details: { cancelled: true } });
    expect(session.isClosed()).toBe(false);
    await session.closeAsync();
    expect(session.isClosed()).toBe(true);
    await expect(h.agent.sessionAsync(join(h.dir, 'nope'))).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION_ERROR', message: expect.stringContaining('does not exist') });
    writeFileSync(join(h.dir, 'file.txt'), 'x');
    await expect(h.agent.sessionAsync(join(h.dir, 'file.txt'))).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION_ERROR', message: expect.stringContaining('not a directory') });
    expect(h.agent.isClosed()).toBe(false);
    await h.agent.close();
    expect(h.agent.isClosed()).toBe(true);
  });
});

describe('refusals reach SDK callers as SECURITY_ERROR', () => {
  it('a path escape and an absolute path outside are SECURITY_ERROR; other failures stay TOOL_ERROR', async () => {
    h = await startHarness('anthropic', []);
    writeFileSync(join(h.dir, 'inside.txt'), 'ok\n');
    const session = await h.agent.sessionAsync(h.dir);
    await expect(session.readFile('../../etc/passwd')).rejects.toMatchObject({ code: 'SECURITY_ERROR', details: { tool: 'read', errorKind: { type: 'permission_denied' } } });
    await expect(session.grep('root', { path: '/etc' })).rejects.toMatchObject({ code: 'SECURITY_ERROR' });
    await expect(session.readFile('missing.txt')).rejects.toMatchObject({ code: 'TOOL_ERROR', details: { errorKind: { type: 'not_found' } } });
  });
});

describe('bash streams its output while it runs', () => {
  it('tool_output_delta events carry the live output before tool_end; the result is unchanged', async () => {
    const command = 'for i in 1 2 3; do echo tick$i; sleep 0.3; done; echo done >&2';
    h = await startHarness('anthropic', [toolCallResponse('bash', { command }), textResponse('ran')]);
    const session = await h.agent.sessionAsync(h.dir);
    const events: AgentEvent[] = [];
    for await (const event of await session.stream('run it')) events.push(event);
    const end = events.findIndex((event) => event.type === 'tool_end');
    const deltas = events.slice(0, end).filter((event) => event.type === 'tool_output_delta' && event.toolName === 'bash');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.map((event) => event.text ?? '').join('')).toBe('tick1\ntick2\ntick3\ndone\n');
    const result = toolResultsOf(h.server.requests[1]!)[0]?.content;
    expect(result).toContain('stdout:\ntick1\ntick2\ntick3\n');
    expect(result).toContain('stderr:\ndone\n');
  });
});

describe('patch and real git diffs', () => {
  it('session.patchFile applies the output of `git diff` for a CRLF file', async () => {
    h = await startHarness('anthropic', [], { 'w.txt': 'one\r\ntwo\r\nthree\r\n' }, { git: true });
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'core.autocrlf=false', ...args], { cwd: h!.dir, encoding: 'utf8' });
    writeFileSync(join(h.dir, 'w.txt'), 'one\r\n2\r\nthree\r\n');
    const diff = git('diff');
    expect(diff).toContain('+2\r\n');
    git('checkout', '--', 'w.txt');
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.patchFile('w.txt', diff);
    expect(result.exitCode, result.output).toBe(0);
    expect(readFileSync(join(h.dir, 'w.txt'), 'utf8')).toBe('one\r\n2\r\nthree\r\n');
    expect(git('status', '--porcelain')).toBe(' M w.txt\n');
  });
});

describe.each(PROTOCOLS)('requests over %s', (protocol) => {
  it('send(prompt, attachments) and {prompt, attachments} carry the image to the model; history accepts {role, content: string}', async () => {
    h = await startHarness(protocol, [textResponse('a red square'), textResponse('again'), textResponse('with history')]);
    const session = await h.agent.sessionAsync(h.dir);
    expect((await session.send('What is this?', [{ data: PNG, mediaType: 'image/png' }])).text).toBe('a red square');
    expect(JSON.stringify(h.server.requests[0]?.body)).toContain(PNG.toString('base64'));
    await session.send({ prompt: 'And this?', attachments: [{ data: PNG.toString('base64'), mediaType: 'image/png' }] });
    expect(JSON.stringify(h.server.requests[1]?.body)).toContain(PNG.toString('base64'));
    const result = await session.send({ prompt: 'Go on', history: [{ role: 'user', content: 'earlier question' }, { role: 'assistant', content: 'earlier answer' }] as never });
    expect(result.text).toBe('with history');
    expect(JSON.stringify(h.server.requests[2]?.body)).toContain('earlier answer');
    const calls = h.server.requests.length;
    await expect(session.send({ prompt: 'x', history: [{ role: 'user', content: 42 }] as never })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR' });
    expect(h.server.requests.length).toBe(calls);
  });
});

describe('options of the original package act', () => {
  it('artifactStoreLimits.maxBytes: an output cut to fit is marked in the artifact and the model reads that it is partial', async () => {
    h = await startHarness('anthropic', [toolCallResponse('bash', { command: 'seq 1 40000' }), textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir, { artifactStoreLimits: { maxBytes: 4096 } });
    await session.send('count');
    const [toolResult] = toolResultsOf(h.server.requests.at(-1)!);
    const text = JSON.stringify(toolResult?.content);
    expect(text).not.toContain('[full output:');
    const uri = /a3s:\/\/tool-output\/bash\/[A-Za-z0-9_.:-]+/.exec(text)?.[0];
    expect(text).toContain(`[partial output: ${uri}`);
    const artifact = session.getArtifact(uri!);
    expect(artifact).toMatchObject({ truncated: true });
    expect(artifact!.originalBytes).toBeGreaterThanOrEqual(228894);
    expect(artifact!.bytes).toBeLessThanOrEqual(4096);
  });

  it('continuationEnabled continues a reply cut at the output limit (maxContinuationTurns); false returns the cut reply', async () => {
    h = await startHarness('anthropic', [textResponse('part one', { stopReason: 'max_tokens' }), textResponse(' part two'), textResponse('only this', { stopReason: 'max_tokens' })]);
    const session = await h.agent.sessionAsync(h.dir);
    const continued = await session.send('long answer please');
    expect(continued.text).toBe('part one part two');
    expect(continued.turns).toBe(2);
    const off = await h.agent.sessionAsync(h.dir, { continuationEnabled: false });
    expect((await off.send('again')).text).toBe('only this');
  });

  it('maxParseRetries bounds consecutive malformed tool calls', async () => {
    h = await startHarness('openai', [malformedToolCallResponse('read', '{"file_path": '), malformedToolCallResponse('read', '{"file_path": '), textResponse('never')]);
    const session = await h.agent.sessionAsync(h.dir, { maxParseRetries: 1 });
    await expect(session.send('read something')).rejects.toMatchObject({ code: 'LLM_ERROR', message: expect.stringContaining('maxParseRetries 1') });
    expect(h.server.requests).toHaveLength(2);
    // The conversation stays valid for the next request.
    h.server.setScenario([textResponse('recovered')]);
    expect((await session.send('try again')).text).toBe('recovered');
  });

  it('maxExecutionTimeMs bounds one run; permissionPolicy.enabled: false turns the policy off', async () => {
    h = await startHarness('anthropic', [textResponse('too slow', { latencyMs: 3000 })]);
    const bounded = await h.agent.sessionAsync(h.dir, { maxExecutionTimeMs: 200 });
    await expect(bounded.send('hurry')).rejects.toMatchObject({ message: expect.stringContaining('maxExecutionTimeMs (200 ms) exceeded') });
    const off = await h.agent.sessionAsync(h.dir, { permissionPolicy: { enabled: false, deny: ['bash*'] } });
    expect(await off.bash('echo allowed')).toBe('allowed\n');
    const on = await h.agent.sessionAsync(h.dir, { permissionPolicy: { deny: ['bash*'] } });
    h.server.setScenario([{ toolCalls: [{ name: 'bash', input: { command: 'echo hi' } }] }, textResponse('denied')]);
    await on.send('run it');
    expect(JSON.stringify(h.server.requests.at(-1)?.body)).toContain('Permission denied');
  });
});

describe.each(PROTOCOLS)('context overflow over %s', (protocol) => {
  it('a provider "prompt is too long" is CONTEXT_ERROR when auto-compaction is off', async () => {
    const message = protocol === 'anthropic' ? 'prompt is too long: 250000 tokens > 200000 maximum' : "This model's maximum context length is 128000 tokens. However, your messages resulted in 250000 tokens.";
    h = await startHarness(protocol, [errorResponse(400, { message, ...(protocol === 'openai' ? { code: 'context_length_exceeded' } : {}) })]);
    const session = await h.agent.sessionAsync(h.dir);
    await expect(session.send('huge')).rejects.toMatchObject({ code: 'CONTEXT_ERROR', message: expect.stringContaining('context window') });
  });
});

describe('toolTimeoutMs', () => {
  it('bounds bash too: the smaller of its own timeout and toolTimeoutMs applies', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir, { toolTimeoutMs: 500 });
    const result = await session.tool('bash', { command: 'sleep 5' });
    expect(result.errorKind).toMatchObject({ type: 'timeout', duration_ms: 500 });
    const quick = await h.agent.sessionAsync(h.dir, { toolTimeoutMs: 60_000 });
    expect((await quick.tool('bash', { command: 'sleep 5', timeout: 300 })).errorKind).toMatchObject({ type: 'timeout' });
  });
});

describe('config conventions', () => {
  it('base_url without /v1 reaches an OpenAI-compatible server; tool_call = false sends no tools; an undeclared model works with maxContextTokens', async () => {
    h = await startHarness('openai', [textResponse('via bare host'), textResponse('no tools'), textResponse('undeclared ok')]);
    const { Agent } = await import('../src/index.js');
    const origin = new URL(h.server.openaiBaseUrl).origin;
    const agent = await Agent.create(`default_model = "local/m"\nproviders "local" {\n  kind = "openai"\n  api_key = "k"\n  base_url = "${origin}"\n  models "m" {}\n  models "plain" { tool_call = false }\n}\n`);
    expect((await (await agent.sessionAsync(h.dir)).send('hi')).text).toBe('via bare host');
    expect(h.server.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect((await (await agent.sessionAsync(h.dir, { model: 'local/plain' })).send('hi')).text).toBe('no tools');
    expect((h.server.requests.at(-1)?.body as Record<string, unknown>)['tools']).toBeUndefined();
    await expect(agent.sessionAsync(h.dir, { model: 'local/other' })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION_ERROR', message: expect.stringContaining('maxContextTokens') });
    const undeclared = await agent.sessionAsync(h.dir, { model: 'local/other', maxContextTokens: 32_000 });
    expect((await undeclared.send('hi')).text).toBe('undeclared ok');
    expect((h.server.requests.at(-1)?.body as Record<string, unknown>)['model']).toBe('other');
    await agent.close();
  });
});

describe('secrets in provider errors', () => {
  it('a literal api_key of the config is redacted from the thrown error and the run record', async () => {
    // The harness config holds the literal key "sk-test-openai-000000" (OpenAI provider); the
    // Anthropic endpoint echoes it in an error body.
    h = await startHarness('anthropic', [errorResponse(400, { message: 'upstream said: invalid key sk-test-openai-000000 for this org' })]);
    const session = await h.agent.sessionAsync(h.dir);
    const error = (await session.send('hi').then(
      () => new Error('the send should have failed'),
      (e: unknown) => e as Error,
    ));
    expect(error.message).toContain('upstream said');
    expect(error.message).not.toContain('sk-test-openai-000000');
    const [run] = await session.runs();
    expect(run?.error?.message).not.toContain('sk-test-openai-000000');
  });
});
