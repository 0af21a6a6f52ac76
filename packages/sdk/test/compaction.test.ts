// Rolling auto-compaction through the public SDK over both wire protocols: a long tool session
// against a small window compacts repeatedly, the scripted model answers the summarisation
// request, every later request stays inside the window, and the run completes.
import { afterEach, describe, expect, it } from 'vitest';
import { COMPACTION_SUMMARY_MARKER, COMPACTION_SYSTEM_PROMPT } from '@a3s-lab/code-runtime';
import { errorResponse, lastUserText, systemPromptOf, textResponse, toolCallResponse, toolNamesOf } from '@a3s-lab/code-testing';
import type { RecordedRequest, ScriptedResponse } from '@a3s-lab/code-testing';
import { Agent } from '../src/index.js';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const FILES = 24;
const WINDOW = 12_000;
/** About 6 KB per file: 24 reads are about 36k tokens, three times the window. */
const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/mod${i}.ts`, `export const value${i} = ${i};\n`.repeat(220)]));

const isSummaryRequest = (request: RecordedRequest): boolean => systemPromptOf(request).startsWith(COMPACTION_SYSTEM_PROMPT.slice(0, 60));
/** Tokens as the scripted server counts them for usage: a quarter of the request bytes. */
const serverTokens = (request: RecordedRequest): number => Math.ceil(request.rawBytes.length / 4);

/** A scenario that reads every file, one per turn, and answers summarisation requests with a summary. */
function readEverything(): (request: RecordedRequest) => ScriptedResponse {
  let reads = 0;
  return (request) => {
    if (isSummaryRequest(request)) {
      const seen = [...lastUserText(request).matchAll(/mod(\d+)\.ts/g)].map((m) => m[1]);
      return textResponse(`Goals: read all ${FILES} modules. Files read so far include mod${seen.at(-1) ?? '?'}.ts. Open problems: none.`);
    }
    if (reads >= FILES) return textResponse(`read all ${FILES} modules`);
    reads += 1;
    return toolCallResponse('read', { file_path: `src/mod${reads - 1}.ts` });
  };
}

describe.each(PROTOCOLS)('auto-compaction over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('compacts repeatedly in a long tool session; later requests stay inside the window', async () => {
    h = await startHarness(protocol, readEverything(), files);
    const session = await h.agent.sessionAsync(h.dir, { autoCompact: true, maxContextTokens: WINDOW });
    const events: AgentEvent[] = [];
    for await (const event of await session.stream('read every module under src/')) events.push(event);

    expect(events.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: `read all ${FILES} modules` } });
    const compactions = events.filter((e) => e.type === 'context_compacted');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    for (const event of compactions) {
      expect(event.payload['failed']).toBeUndefined();
      expect(event.payload['after_tokens'] as number).toBeLessThan(event.payload['before_tokens'] as number);
      expect(event.payload['reason']).toBe('threshold');
    }

    const summaries = h.server.requests.filter(isSummaryRequest);
    expect(summaries).toHaveLength(compactions.length);
    // The summarisation request offers no tools and fits the window itself.
    for (const request of summaries) {
      expect(toolNamesOf(request)).toEqual([]);
      expect(serverTokens(request)).toBeLessThan(WINDOW);
    }
    const turns = h.server.requests.filter((r) => !isSummaryRequest(r) && r.path !== '/v1/models');
    expect(turns).toHaveLength(FILES + 1);
    const sizes = turns.map(serverTokens);
    expect(Math.max(...sizes)).toBeLessThan(WINDOW);
    // Turns after a compaction carry the summary instead of the early reads.
    const last = turns.at(-1) as RecordedRequest;
    expect(JSON.stringify(last.body)).toContain(COMPACTION_SUMMARY_MARKER);
    expect(JSON.stringify(last.body)).not.toContain('src/mod0.ts');
    process.stdout.write(
      `[compaction ${protocol}] window ${WINDOW} tokens; ${compactions.length} compactions; request tokens (bytes/4) per turn: ${sizes.join(' ')}; ` +
        `compaction before->after: ${compactions.map((e) => `${String(e.payload['before_tokens'])}->${String(e.payload['after_tokens'])}`).join(' ')}\n`,
    );

    // The session stays usable: the next prompt runs on the compacted conversation.
    const more = await session.send('thanks');
    expect(more.text).toBe(`read all ${FILES} modules`);
  }, 60_000);

  it('without autoCompact the same session grows past the window', async () => {
    h = await startHarness(protocol, readEverything(), files);
    const session = await h.agent.sessionAsync(h.dir, { maxContextTokens: WINDOW });
    const result = await session.send('read every module under src/');
    expect(result.text).toBe(`read all ${FILES} modules`);
    expect(h.server.requests.some(isSummaryRequest)).toBe(false);
    const turns = h.server.requests.filter((r) => r.path !== '/v1/models');
    expect(Math.max(...turns.map(serverTokens))).toBeGreaterThan(2 * WINDOW);
  }, 60_000);

  it('maxContextTokens defaults to the limit.context the config declares for the model', async () => {
    h = await startHarness(protocol, readEverything(), files);
    const provider = protocol === 'anthropic' ? 'anthropic' : 'openai';
    const acl = `
default_model = "${provider}/small-window"
providers "${provider}" {
  api_key = "sk-test-key-000000"
  base_url = "${protocol === 'anthropic' ? h.server.anthropicBaseUrl : h.server.openaiBaseUrl}"
  models "small-window" { tool_call = true  limit = { context = ${WINDOW}  output = 1024 } }
}
`;
    const agent = await Agent.create(acl);
    try {
      const session = await agent.sessionAsync(h.dir, { autoCompact: true });
      const result = await session.send('read every module under src/');
      expect(result.text).toBe(`read all ${FILES} modules`);
      expect(h.server.requests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(2);
      const turns = h.server.requests.filter((r) => !isSummaryRequest(r) && r.path !== '/v1/models');
      expect(Math.max(...turns.map(serverTokens))).toBeLessThan(WINDOW);
    } finally {
      await agent.close();
    }
  }, 60_000);

  it('a 413 from the provider compacts the conversation once and retries the turn', async () => {
    let refused = false;
    h = await startHarness(protocol, (request) => {
      if (isSummaryRequest(request)) return textResponse('Goals: answer questions about the modules.');
      if (!refused) {
        refused = true;
        return errorResponse(413, { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
      }
      return textResponse('answered after compaction');
    });
    const session = await h.agent.sessionAsync(h.dir, { autoCompact: true });
    // A conversation the host brings along: ten question/answer pairs with long answers.
    const history = Array.from({ length: 10 }, (_, i) => [
      { role: 'user' as const, content: [{ type: 'text' as const, text: `question ${i}` }] },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i}: ${'detail '.repeat(400)}` }] },
    ]).flat();
    const events: AgentEvent[] = [];
    for await (const event of await session.stream({ prompt: 'one more question', history })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', payload: { text: 'answered after compaction' } });
    expect(events.find((e) => e.type === 'context_compacted')?.payload).toMatchObject({ reason: 'context_overflow' });
    expect(events.filter((e) => e.type === 'turn_start').map((e) => e.payload['reason'] ?? null)).toEqual([null, 'context_overflow']);
    const turns = h.server.requests.filter((r) => !isSummaryRequest(r) && r.path !== '/v1/models');
    expect(turns).toHaveLength(2);
    expect(serverTokens(turns[1] as RecordedRequest)).toBeLessThan(serverTokens(turns[0] as RecordedRequest));
  }, 60_000);
});
