// Provider and tool faults through the public SDK: rate limits, overload, a stream cut in the
// middle of tool input, a hung provider, cancellation during a running tool.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, hangResponse, malformedToolCallResponse, textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const collect = async (iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> => {
  const out: AgentEvent[] = [];
  for await (const e of iterable) out.push(e);
  return out;
};

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.each(PROTOCOLS)('faults over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('429 with retry-after is retried and the run completes', async () => {
    h = await startHarness(protocol, [errorResponse(429, { retryAfterMs: 50 }), textResponse('after the rate limit')]);
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.send('hi');
    expect(result.text).toBe('after the rate limit');
    expect(h.server.requests.length).toBe(2);
  });

  it('529 overloaded is retried', async () => {
    h = await startHarness(protocol, [errorResponse(529, { retryAfterMs: 10 }), errorResponse(529, { retryAfterMs: 10 }), textResponse('recovered')]);
    const session = await h.agent.sessionAsync(h.dir);
    expect((await session.send('hi')).text).toBe('recovered');
    expect(h.server.requests.length).toBe(3);
  });

  it('a stream cut mid-tool-input repeats turn_start and runs the tool exactly once', async () => {
    const call = { command: 'echo once >> log.txt' };
    h = await startHarness(protocol, [toolCallResponse('bash', call, { cutMidToolInput: true }), toolCallResponse('bash', call), textResponse('done')]);
    const session = await h.agent.sessionAsync(h.dir);
    const events = await collect(await session.stream('append a line'));
    const turnStarts = events.filter((e) => e.type === 'turn_start');
    expect(turnStarts.map((e) => e.turn)).toEqual([1, 1, 2]);
    expect(turnStarts[1]?.payload['retry']).toBe(true);
    expect(events.filter((e) => e.type === 'tool_start')).toHaveLength(1);
    expect(readFileSync(join(h.dir, 'log.txt'), 'utf8')).toBe('once\n');
  });

  it('malformed tool JSON becomes an error result the model recovers from', async () => {
    h = await startHarness(protocol, [malformedToolCallResponse('read', '{"file_path": "a.txt"'), toolCallResponse('read', { file_path: 'a.txt' }), textResponse('read it')], { 'a.txt': 'content\n' });
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.send('read a.txt');
    expect(result.text).toBe('read it');
    const first = toolResultsOf(h.server.requests[1]!)[0];
    expect(first?.content).toMatch(/invalid JSON/i);
    // Only the Anthropic wire format carries an error flag on tool results.
    if (protocol === 'anthropic') expect(first?.isError).toBe(true);
    expect(toolResultsOf(h.server.requests[2]!).at(-1)?.content).toContain('content');
  });

  it('an unknown tool becomes an error result, not a crash', async () => {
    h = await startHarness(protocol, [toolCallResponse('no_such_tool', {}), textResponse('ok then')]);
    const session = await h.agent.sessionAsync(h.dir);
    expect((await session.send('go')).text).toBe('ok then');
    expect(toolResultsOf(h.server.requests[1]!)[0]?.content).toMatch(/no_such_tool/);
  });

  it('a hung provider is ended by llmApiTimeoutMs and the session stays usable', async () => {
    h = await startHarness(protocol, [hangResponse(), textResponse('back')]);
    const session = await h.agent.sessionAsync(h.dir, { llmApiTimeoutMs: 400 });
    await expect(session.send('hello?')).rejects.toMatchObject({ code: 'LLM_ERROR' });
    const [run] = await session.runs();
    expect(run?.status).toBe('failed');
    expect((await session.send('hello again')).text).toBe('back');
  });

  it('cancel during a running bash tool kills its process group', async () => {
    h = await startHarness(protocol, [toolCallResponse('bash', { command: 'echo $$ > pid.txt; sleep 60 & sleep 60; wait' }), textResponse('never')]);
    // `$$` must be a host pid: inside the sandbox's pid namespace it is not (sandbox.test.ts
    // cancels a sandboxed call).
    const session = await h.agent.sessionAsync(h.dir, { sandbox: { mode: 'off' } });
    const stream = await session.stream('sleep');
    const pidFile = join(h.dir, 'pid.txt');
    const seen: string[] = [];
    let pgid = 0;
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === 'tool_execution_start' || event.type === 'tool_start') {
        const deadline = Date.now() + 10_000;
        while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') {
          if (Date.now() > deadline) throw new Error('bash never started');
          await new Promise((r) => setTimeout(r, 20));
        }
        pgid = Number(readFileSync(pidFile, 'utf8').trim());
        expect(groupAlive(pgid)).toBe(true);
        expect((await session.activeTools()).map((t) => t.toolName)).toEqual(['bash']);
        void session.cancelAsync();
      }
    }
    expect(seen.at(-1)).toBe('error');
    await expect(stream.result).rejects.toMatchObject({ code: 'SESSION_ERROR', details: { cancelled: true } });
    const deadline = Date.now() + 5_000;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(groupAlive(pgid)).toBe(false);
    const [run] = await session.runs();
    expect(run?.status).toBe('cancelled');
  });
});
