// `/compact` is model work of the session like any other (issue 29): its tokens count in the
// session budget, so a budget spent by a compaction refuses the next run.
import { afterEach, expect, it } from 'vitest';
import { textResponse } from '@a3s-lab/code-testing';
import { startHarness } from './harness.js';
import type { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

it('a /compact is counted in the session budget', async () => {
  const small = { usage: { inputTokens: 10, outputTokens: 10 } };
  const long = 'x'.repeat(3_000);
  h = await startHarness('anthropic', [
    textResponse(`first ${long}`, small),
    textResponse(`second ${long}`, small),
    textResponse(`third ${long}`, small),
    // The summarisation request of /compact: alone it spends more than the whole budget.
    textResponse('Summary: three long answers.', { usage: { inputTokens: 9_000, outputTokens: 100 } }),
    textResponse('never reached', small),
  ]);
  const session = await h.agent.sessionAsync(h.dir, { maxContextTokens: 4_000, budget: { maxTokens: 5_000 } });
  for (const prompt of ['one', 'two', 'three']) await session.send(prompt);
  const compacted = await session.send('/compact');
  expect(compacted.text).toMatch(/^compacted: \d+ -> \d+ message\(s\)$/);
  expect(h.server.requests).toHaveLength(4);
  await expect(session.send('and now?')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
  expect(h.server.requests).toHaveLength(4);
});
