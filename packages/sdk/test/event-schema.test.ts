// Every event a rich session emits — live on the stream, to subscribers, and replayed from the
// run record — validates against the published schema (@a3s-lab/code-core/schemas/events.v1.json),
// over both wire protocols. The session exercises reasoning, a provider retry after partial text,
// read/batch/glob/bash tools, an approved confirmation, a permission denial and a final answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolCallsResponse } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('@a3s-lab/code-core/schemas/events.v1.json');
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);

/** Schema errors of `event` as a host receives it (JSON on a wire). */
function schemaErrors(event: AgentEvent): string[] {
  if (validate(JSON.parse(JSON.stringify(event)))) return [];
  return (validate.errors ?? []).map((e) => `${event.type} ${e.instancePath} ${e.message ?? ''}`);
}

describe.each(PROTOCOLS)('event schema over %s', (protocol) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('every live, subscribed and replayed event of a rich session matches events.v1.json', async () => {
    h = await startHarness(
      protocol,
      [
        { reasoning: 'Look at the file first.', text: ['Reading ', 'a.txt'], toolCalls: [{ name: 'read', input: { file_path: 'a.txt' } }] },
        // A provider stream that breaks after some text: the turn is retried.
        textResponse(['partial ', 'answer ', 'lost'], { streamError: { afterEvents: 4 } }),
        toolCallsResponse([
          { name: 'batch', input: { invocations: [{ tool: 'read', args: { file_path: 'a.txt' } }, { tool: 'ls', args: {} }] } },
          { name: 'glob', input: { pattern: '*.txt' } },
        ]),
        toolCallResponse('bash', { command: 'echo approved' }),
        toolCallResponse('write', { file_path: 'denied.txt', content: 'no' }),
        textResponse(['All ', 'done.']),
      ],
      { 'a.txt': 'alpha\n' },
    );
    const session = await h.agent.sessionAsync(h.dir, {
      permissionPolicy: { ask: ['bash*'], deny: ['write'], defaultDecision: 'allow' },
      confirmationPolicy: { defaultTimeoutMs: 30_000 },
    });
    const subscribed: AgentEvent[] = [];
    session.onEvent((event) => subscribed.push(event));
    const live: AgentEvent[] = [];
    for await (const event of await session.stream('inspect a.txt')) {
      live.push(event);
      if (event.type === 'confirmation_required') await session.confirmToolUse(event.toolId, true, 'fine');
    }
    const [run] = await session.runs();
    const replayed = await session.runEvents(run!.id);

    const seen = new Set(live.map((e) => e.type));
    for (const type of ['agent_start', 'turn_start', 'reasoning_delta', 'text_delta', 'tool_input_delta', 'tool_start', 'tool_execution_start', 'tool_output_delta', 'tool_end', 'confirmation_required', 'confirmation_received', 'permission_denied', 'turn_end', 'agent_end']) {
      expect(seen, type).toContain(type);
    }
    expect(live.filter((e) => e.type === 'turn_start' && e.payload['retry'] === true)).toHaveLength(1);
    // tool_output_delta carries its chunk in `payload.delta`; hosts read it as `event.text`.
    const outputs = [...live, ...replayed].filter((e) => e.type === 'tool_output_delta');
    expect(outputs.length).toBeGreaterThan(0);
    for (const e of outputs) expect(e.text).toBe(e.payload['delta']);
    expect(replayed).toHaveLength(live.length);
    expect(subscribed).toHaveLength(live.length);
    expect([...live, ...subscribed, ...replayed].flatMap(schemaErrors)).toEqual([]);
    expect(h.server.errors).toEqual([]);
  });
});
