// generate_object through the public SDK against the scripted model server: the spec samples
// (direct and streaming), the repair loop (success on the second attempt, exhaustion), prompt
// mode, schema errors before any model call, hooks and usage accounting.
import { afterEach, describe, expect, it } from 'vitest';
import { textResponse, toolCallResponse, toolResultsOf } from '@a3s-lab/code-testing';
import type { AgentEvent } from '../src/index.js';
import { PROTOCOLS, startHarness } from './harness.js';
import type { Harness } from './harness.js';

const SENTIMENT = {
  type: 'object',
  required: ['sentiment', 'confidence'],
  properties: {
    sentiment: { type: 'string', enum: ['positive', 'negative', 'neutral'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.each(PROTOCOLS)('generate_object over the %s wire protocol', (protocol) => {
  it('spec sample: a direct call returns {"object": ...} on exit 0', async () => {
    h = await startHarness(protocol, [toolCallResponse('sentiment', { sentiment: 'positive', confidence: 0.95 })]);
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.tool('generate_object', { schema: SENTIMENT, prompt: 'Classify: "This product is amazing!"', schema_name: 'sentiment', mode: 'tool', max_repair_attempts: 2 });
    expect(result.exitCode).toBe(0);
    const { object } = JSON.parse(result.output);
    expect(object).toEqual({ sentiment: 'positive', confidence: 0.95 });
    // The schema was the forced synthetic tool of the request.
    const body = JSON.stringify(h.server.requests[0]?.body);
    expect(body).toContain('"sentiment"');
    expect(body).toMatch(/tool_choice/);
  });

  it('repairs with the validation errors and succeeds on the second attempt', async () => {
    h = await startHarness(protocol, [toolCallResponse('sentiment', { sentiment: 'great', confidence: 2 }), toolCallResponse('sentiment', { sentiment: 'positive', confidence: 0.9 })]);
    const session = await h.agent.sessionAsync(h.dir);
    const object = await session.generateObject<{ sentiment: string; confidence: number }>(SENTIMENT, 'Classify: "great stuff"', { schemaName: 'sentiment' });
    expect(object.sentiment).toBe('positive');
    const feedback = toolResultsOf(h.server.requests[1]!)[0];
    if (protocol === 'anthropic') expect(feedback?.isError).toBe(true);
    expect(feedback?.content).toContain('/sentiment: must be one of ["positive","negative","neutral"]');
    expect(feedback?.content).toContain('/confidence: must be <= 1');
  });

  it('exhausting the repair attempts is a typed failure with the last errors', async () => {
    h = await startHarness(protocol, [toolCallResponse('result', { sentiment: 'x' }), toolCallResponse('result', { sentiment: 'y' })]);
    const session = await h.agent.sessionAsync(h.dir);
    const result = await session.tool('generate_object', { schema: SENTIMENT, prompt: 'Classify', max_repair_attempts: 1 });
    expect(result.exitCode).toBe(1);
    expect(result.errorKind).toMatchObject({ type: 'invalid_argument' });
    expect(result.output).toMatch(/no valid 'result' after 2 attempt\(s\): .*missing required property 'confidence'/);
    expect(h.server.requests).toHaveLength(2);
    await expect(session.generateObject(SENTIMENT, 'again', { maxRepairAttempts: 0 })).rejects.toMatchObject({ code: 'TOOL_ERROR' });
  });

  it('prompt mode parses the JSON answer; auto/strict/json resolve to tool mode', async () => {
    h = await startHarness(protocol, [textResponse('```json\n{"sentiment": "neutral", "confidence": 0.5}\n```'), toolCallResponse('result', { sentiment: 'negative', confidence: 0.1 })]);
    const session = await h.agent.sessionAsync(h.dir);
    expect(await session.generateObject(SENTIMENT, 'Classify: "meh"', { mode: 'prompt' })).toEqual({ sentiment: 'neutral', confidence: 0.5 });
    expect(JSON.stringify(h.server.requests[0]?.body)).toContain('matching this JSON Schema');
    expect(await session.generateObject(SENTIMENT, 'Classify: "bad"', { mode: 'strict' })).toEqual({ sentiment: 'negative', confidence: 0.1 });
  });

  it('a bad schema is an invalid_argument before any model call; non-object roots are wrapped', async () => {
    h = await startHarness(protocol, [toolCallResponse('result', { value: ['a', 'b'] })]);
    const session = await h.agent.sessionAsync(h.dir);
    const bad = await session.tool('generate_object', { schema: { type: 'object', properties: { a: { type: 'nonsense' } } }, prompt: 'x' });
    expect(bad).toMatchObject({ exitCode: 1, errorKind: { type: 'invalid_argument' } });
    expect(bad.output).toMatch(/invalid schema/);
    const badDialect = await session.tool('generate_object', { schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, prompt: 'x' });
    expect(badDialect.exitCode).toBe(1);
    expect(h.server.requests).toHaveLength(0);
    const list = await session.generateObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } }, 'two letters');
    expect(list).toEqual(['a', 'b']);
  });
});

describe('generate_object in a run', () => {
  it('streaming spec sample: the model calls it mid-run; partial objects stream as tool_output_delta; hooks and usage see the inner call', async () => {
    const invoice = { type: 'object', required: ['invoices'], properties: { invoices: { type: 'array', items: { type: 'object', required: ['id', 'total'], properties: { id: { type: 'string' }, total: { type: 'number' } } } } } };
    const extracted = { invoices: [{ id: 'INV-1', total: 10 }, { id: 'INV-2', total: 20 }, { id: 'INV-3', total: 30 }] };
    h = await startHarness('anthropic', [
      toolCallResponse('glob', { pattern: '*.txt' }),
      toolCallResponse('generate_object', { schema: invoice, prompt: 'Extract all invoices from a.txt: INV-1 10, INV-2 20, INV-3 30', schema_name: 'invoices' }),
      toolCallResponse('invoices', extracted, { toolInputChunks: 6, chunkDelayMs: 120 }),
      textResponse('Extracted 3 invoices.'),
    ], { 'a.txt': 'INV-1 10\nINV-2 20\nINV-3 30\n' });
    const session = await h.agent.sessionAsync(h.dir);
    const hooks: string[] = [];
    session.registerHook('gen-start', 'generate_start', null, null, (e) => {
      hooks.push(`start:${e.payload['purpose']}`);
      return { action: 'continue' };
    });
    session.registerHook('gen-end', 'generate_end', null, null, (e) => {
      hooks.push(`end:${e.payload['purpose']}:${e.payload['ok']}`);
      return { action: 'continue' };
    });
    const stream = await session.stream('Extract all invoices...');
    const partials: unknown[] = [];
    const events: AgentEvent[] = [];
    while (true) {
      const { value: ev, done } = await stream.next();
      if (done) break;
      if (!ev) continue;
      events.push(ev);
      if (ev.type === 'tool_output_delta' && ev.toolName === 'generate_object') partials.push(JSON.parse(ev.text ?? '{}').object_partial);
    }
    expect((await stream.result).text).toBe('Extracted 3 invoices.');
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(partials.at(-1)).toMatchObject({ invoices: expect.any(Array) });
    const end = events.find((e) => e.type === 'tool_end' && e.toolName === 'generate_object');
    expect(JSON.parse(String(end?.payload['output'])).object).toEqual(extracted);
    expect(hooks).toEqual(['start:turn', 'end:turn:true', 'start:turn', 'end:turn:true', 'start:generate_object', 'end:generate_object:true', 'start:turn', 'end:turn:true']);
    // The inner call's tokens count in the run (3 turns + 1 generation).
    const run = (await session.runs())[0]!;
    const turnInput = events.filter((e) => e.type === 'turn_end').reduce((sum, e) => sum + Number((e.payload['usage'] as Record<string, unknown>)['input_tokens']), 0);
    expect(run.usage.promptTokens).toBeGreaterThan(turnInput);
  });

  it('a generate_start hook that blocks stops the generation before anything is sent', async () => {
    h = await startHarness('openai', [toolCallResponse('result', { sentiment: 'positive', confidence: 1 })]);
    const session = await h.agent.sessionAsync(h.dir);
    session.registerHook('no-gen', 'generate_start', null, null, (e) => (e.payload['purpose'] === 'generate_object' ? { action: 'block', reason: 'quota' } : { action: 'continue' }));
    const result = await session.tool('generate_object', { schema: SENTIMENT, prompt: 'x' });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/generation blocked by hook 'no-gen': quota/);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('generateObject types', () => {
  it('infers the result type from the schema (checked by tsc when the tests type-check)', async () => {
    h = await startHarness('anthropic', [toolCallResponse('result', { name: 'Ada', tags: ['x'], level: 3 })]);
    const session = await h.agent.sessionAsync(h.dir);
    const person = await session.generateObject(
      { type: 'object', required: ['name', 'tags'], additionalProperties: false, properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, level: { type: 'integer' }, kind: { enum: ['a', 'b'] } } },
      'a person',
    );
    // Compile-time checks: required keys are plain, optional ones optional, enums literal.
    const name: string = person.name;
    const tags: string[] = person.tags;
    const level: number | undefined = person.level;
    const kind: 'a' | 'b' | undefined = person.kind;
    // @ts-expect-error a property the schema does not declare (additionalProperties: false)
    void person.missing;
    expect({ name, tags, level, kind }).toEqual({ name: 'Ada', tags: ['x'], level: 3, kind: undefined });
  });
});
