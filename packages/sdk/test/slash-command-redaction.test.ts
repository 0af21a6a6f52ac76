// Slash-command answers are host output like a tool's (issue 35, item 4): redacted by the
// session's security provider before they reach events, runEvents(), results and snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/index.js';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

// The harness config carries this API key literally: a secret of every session of the agent.
const SECRET = 'sk-ant-test-key-000000';

describe('slash-command output is redacted everywhere it goes', () => {
  it('in the text_delta event, the result, agent_end, runEvents() and the saved snapshot', async () => {
    h = await startHarness('anthropic', []);
    const session = await h.agent.sessionAsync(h.dir);
    session.registerCommand('leak', 'prints a secret', ({ args }) => `the key is ${SECRET} (${args})`);
    const events: AgentEvent[] = [];
    session.onEvent((e) => events.push(e));
    const result = await session.send('/leak now');
    expect(result.text).toContain('the key is');
    expect(result.text).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(events.find((e) => e.type === 'text_delta')?.payload['text']).toMatch(/the key is .*\(now\)/);
    const run = (await session.runs()).at(-1)!;
    expect(JSON.stringify(await session.runEvents(run.id))).not.toContain(SECRET);
    expect(JSON.stringify(run)).not.toContain(SECRET);
    expect(JSON.stringify(session.snapshot())).not.toContain(SECRET);
    // The streamed form too.
    const stream = await session.stream('/leak again');
    let streamed = '';
    for await (const event of stream) if (event.type === 'text_delta') streamed += String(event.payload['text']);
    expect(streamed).toContain('the key is');
    expect(streamed).not.toContain(SECRET);
    expect((await stream.result).text).not.toContain(SECRET);
  });
});
