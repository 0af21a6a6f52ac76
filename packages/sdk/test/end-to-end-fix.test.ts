// A scripted end-to-end task on a fixture repo through session.stream: run the tests, find the
// bug with grep, read, edit, re-run the tests, finish. The event sequence is asserted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const FIXTURE = {
  'package.json': JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node test.js' } }, null, 2),
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
  'test.js': "import { add, mul } from './src/math.js';\nif (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3)); process.exit(1); }\nif (mul(2, 3) !== 6) { console.error('FAIL mul'); process.exit(1); }\nconsole.log('all tests passed');\n",
};

describe.each(PROTOCOLS)('end-to-end bug fix over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('runs tests, greps, reads, edits, re-runs and finishes', async () => {
    h = await startHarness(protocol, [
      toolCallResponse('bash', { command: 'node test.js' }, { text: 'Running the tests first.' }),
      toolCallResponse('grep', { pattern: 'function add', output_mode: 'content' }),
      toolCallResponse('read', { file_path: 'src/math.js' }),
      toolCallResponse('edit', { file_path: 'src/math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
      toolCallResponse('bash', { command: 'node test.js' }),
      textResponse('Fixed add() in src/math.js (it subtracted); all tests pass.'),
    ], FIXTURE);
    const session = await h.agent.sessionAsync(h.dir);
    const stream = await session.stream('The tests fail. Find and fix the bug.');
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);

    const outline = events
      .filter((e) => ['agent_start', 'turn_start', 'tool_start', 'tool_end', 'turn_end', 'agent_end'].includes(e.type))
      .map((e) => (e.type === 'tool_start' ? `tool_start:${e.toolName}` : e.type === 'tool_end' ? `tool_end:${e.toolName}:${e.exitCode === 0 ? 'ok' : 'fail'}` : e.type));
    expect(outline).toEqual([
      'agent_start',
      'turn_start', 'tool_start:bash', 'tool_end:bash:fail', 'turn_end',
      'turn_start', 'tool_start:grep', 'tool_end:grep:ok', 'turn_end',
      'turn_start', 'tool_start:read', 'tool_end:read:ok', 'turn_end',
      'turn_start', 'tool_start:edit', 'tool_end:edit:ok', 'turn_end',
      'turn_start', 'tool_start:bash', 'tool_end:bash:ok', 'turn_end',
      'turn_start', 'turn_end',
      'agent_end',
    ]);
    // tool_start and tool_end share ids; turns are numbered 1..6.
    const starts = events.filter((e) => e.type === 'tool_start').map((e) => e.toolId);
    const ends = events.filter((e) => e.type === 'tool_end').map((e) => e.toolId);
    expect(ends).toEqual(starts);
    expect(events.filter((e) => e.type === 'turn_start').map((e) => e.turn)).toEqual([1, 2, 3, 4, 5, 6]);

    // What the model was shown at each step.
    const shown = (i: number): string => toolResultsOf(h!.server.requests[i]!).at(-1)?.content ?? '';
    expect(shown(1)).toContain('FAIL add(2, 3) = -1');
    expect(shown(2)).toMatch(/src\/math\.js:1:.*function add/);
    expect(shown(3)).toContain('return a - b;');
    expect(shown(5)).toContain('all tests passed');

    expect(readFileSync(join(h.dir, 'src/math.js'), 'utf8')).toContain('return a + b;');
    const result = await stream.result;
    expect(result.toolCallsCount).toBe(5);
    expect(result.text).toContain('all tests pass');
    // The stream was a lifecycle barrier: an immediate send is admitted.
    h.server.setScenario([textResponse('again')]);
    expect((await session.send('anything else?')).text).toBe('again');
  });
});
