import { textResponse } from '@a3s-lab/code-testing';
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOLS, startHarness, type Harness } from './harness.js';

/** The first model request of a session with every built-in tool stays inside 16 KB (issue 14). */
const FIRST_REQUEST_BUDGET_BYTES = 16 * 1024;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.each(PROTOCOLS)('first model request over %s', (protocol) => {
  it('carries every built-in tool and the system prompt in at most 16 KB', async () => {
    h = await startHarness(protocol, [textResponse('hi')]);
    const session = h.agent.session(h.dir);
    await session.send('hello');
    const first = h.server.requests[0]!;
    const body = first.body as { tools?: readonly { name?: string; function?: { name: string } }[] };
    const sent = (body.tools ?? []).map((tool) => tool.name ?? tool.function?.name);
    expect(sent.sort()).toEqual([...session.toolNames()].sort());
    expect(sent).toEqual(expect.arrayContaining(['read', 'program', 'batch', 'git', 'web_fetch', 'generate_object', 'update_plan', 'task', 'parallel_task']));
    expect(first.rawBytes.byteLength).toBeLessThanOrEqual(FIRST_REQUEST_BUDGET_BYTES);
  });
});
